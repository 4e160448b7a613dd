// The validated config, before the pipeline's facts (rules, only/except, workflow) pick the jobs that run.
import type { Expr } from '../expressions.js'
import type { JobEnvironmentSpec, JobNeed, JobSpec, JobWhen } from '../plan-types.js'
import type { IncludeRecord } from './include.js'

export type RuleWhen = JobWhen | 'never'

export interface AllowFailureConfig {
  allowed: boolean
  exitCodes: number[] | null
}

export interface RuleConfig {
  if: Expr | null
  changes: string[] | null
  exists: string[] | null
  when: RuleWhen | null
  startIn: number | null
  allowFailure: AllowFailureConfig | null
  variables: Record<string, string> | null
  needs: JobNeed[] | null
  interruptible: boolean | null
}

/** only/except: any listed ref matches, then every other given part (variables: any expression true; changes). */
export interface RefPolicy {
  refs: string[] | null
  variables: Expr[] | null
  changes: string[] | null
}

/** What JobSpec says unchanged; the rest is decided by the pipeline's facts. */
type FixedJobFields =
  | 'name' | 'stage' | 'script' | 'beforeScript' | 'afterScript' | 'startIn' | 'needs' | 'dependencies' | 'artifacts'
  | 'coverageRegex' | 'retry' | 'timeout' | 'interruptible' | 'image' | 'services' | 'cache' | 'tags' | 'release'

export interface JobConfig extends Pick<JobSpec, FixedJobFields> {
  /** The job's own variables; global ones are merged at planning time unless `inherit:variables` says otherwise. */
  variables: Record<string, string>
  /** Which global variables the job inherits: all, none, or the named ones. */
  inheritVariables: boolean | string[]
  when: JobWhen
  allowFailure: AllowFailureConfig | null
  rules: RuleConfig[] | null
  only: RefPolicy | null
  except: RefPolicy | null
  environment: JobEnvironmentSpec | null
  /** A trigger job (child or multi-project pipeline): validated but never run here. */
  trigger: boolean
  /** The job a `parallel` instance was expanded from, or null. */
  parallelOf: string | null
  /** The job's hash after default, extends and !reference, as lint shows only/except. */
  raw: Record<string, unknown>
}

export interface WorkflowConfig {
  rules: Array<RuleConfig & { when: 'always' | 'never' | null }> | null
}

export interface CiConfig {
  stages: string[]
  variables: Record<string, string>
  workflow: WorkflowConfig
  jobs: JobConfig[]
  /** The config after include, extends and !reference: lint's merged_yaml. */
  merged: Record<string, unknown>
  includes: IncludeRecord[]
  warnings: string[]
}
