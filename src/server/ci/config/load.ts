// `.gitlab-ci.yml` text -> a validated CiConfig, or GitLab's error messages: YAML, include, extends, !reference,
// the global keywords, every job, parallel, then the logical checks, in GitLab's order.
import { ConfigError } from './errors.js'
import { expandIncludes, type IncludeSource } from './include.js'
import { applyInputs } from './inputs.js'
import { resolveExtends, resolveReferences } from './expand.js'
import { Problems, recordedShapes, scriptLines, unknownKeys, variablesHash } from './fields.js'
import { DEFAULT_KEYS, normalizeJob } from './jobs.js'
import { expandParallel } from './parallel.js'
import { parseRules } from './rules.js'
import type { CiConfig, JobConfig, WorkflowConfig } from './types.js'
import { validateLogic } from './validate.js'
import { isHash, loadYaml } from './yaml.js'

/** Top-level keys that are keywords, never jobs. */
export const RESERVED_KEYS = [
  'image', 'services', 'stages', 'types', 'before_script', 'after_script', 'variables', 'cache', 'include', 'default', 'workflow', 'spec',
]
const LEGACY_DEFAULTS = ['image', 'services', 'cache', 'before_script', 'after_script']
const DEFAULT_STAGES = ['build', 'test', 'deploy']

export type LoadResult = { ok: true; config: CiConfig } | { ok: false; errors: string[]; merged: unknown }

function stagesOf(config: Record<string, unknown>, p: Problems): string[] {
  const value = config.stages ?? config.types
  let stages = DEFAULT_STAGES
  if (value !== undefined && value !== null) {
    if (Array.isArray(value) && value.every((s) => typeof s === 'string')) stages = value
    else p.add('stages config should be an array of strings')
  }
  // .pre and .post are always first and last, wherever the file lists them (GitLab's EdgeStagesInjector).
  return ['.pre', ...new Set(stages.filter((s) => s !== '.pre' && s !== '.post')), '.post']
}

function defaultsOf(config: Record<string, unknown>, p: Problems): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  for (const key of LEGACY_DEFAULTS) if (config[key] !== undefined) defaults[key] = config[key]
  const value = config.default
  if (value === undefined || value === null) return defaults
  if (!isHash(value)) { p.add('default config should be a hash'); return defaults }
  unknownKeys(value, DEFAULT_KEYS, 'default', p)
  recordedShapes(value, 'default', p)
  for (const key of ['before_script', 'after_script']) if (value[key] !== undefined) scriptLines(value[key], `default:${key}`, p)
  return { ...defaults, ...value }
}

function workflowOf(config: Record<string, unknown>, p: Problems): WorkflowConfig {
  const value = config.workflow
  if (value === undefined || value === null) return { rules: null }
  if (!isHash(value)) { p.add('workflow config should be a hash'); return { rules: null } }
  unknownKeys(value, ['rules', 'name', 'auto_cancel'], 'workflow', p)
  if (value.rules === undefined || value.rules === null) return { rules: null }
  return { rules: (parseRules(value.rules, 'workflow:rules', p, true) ?? null) as WorkflowConfig['rules'] }
}

function jobsOf(config: Record<string, unknown>, defaults: Record<string, unknown>, p: Problems): JobConfig[] {
  const jobs: JobConfig[] = []
  let visible = 0
  for (const [name, value] of Object.entries(config)) {
    if (RESERVED_KEYS.includes(name) || name.startsWith('.')) continue
    visible++
    const job = normalizeJob(name, value, defaults, p)
    if (job) jobs.push(job)
  }
  if (visible === 0) p.add('jobs config should contain at least one visible job')
  return jobs
}

const PIPELINE_WARNINGS_DOCS = 'read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings'

/** GitLab warns when a job's last rule is a bare `when:` and no workflow:rules stop duplicate branch and MR pipelines. */
function ruleWarnings(jobs: JobConfig[], workflow: WorkflowConfig): string[] {
  if (workflow.rules) return []
  return jobs.flatMap((job) => {
    const rules = job.raw.rules
    const last = Array.isArray(rules) ? rules.flat()[rules.flat().length - 1] : undefined
    const bareWhen = isHash(last) && Object.keys(last).length === 1 && 'when' in last && last.when !== 'never'
    return bareWhen && job.parallelOf === null
      ? [`jobs:${job.name} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - ${PIPELINE_WARNINGS_DOCS}`]
      : []
  })
}

/** Downstream pipelines do not exist here: say so instead of leaving the job out silently. */
function triggerWarnings(jobs: JobConfig[]): string[] {
  return jobs.filter((j) => j.trigger).map((j) => `jobs:${j.name} uses trigger: downstream pipelines are not run by this server, so the job is left out`)
}

async function expanded(text: string, source: IncludeSource) {
  if (text.trim() === '') throw new ConfigError('Please provide content of .gitlab-ci.yml')
  const loaded = await loadYaml(text)
  if (!loaded.ok) throw new ConfigError(loaded.error)
  if (!isHash(loaded.value)) throw new ConfigError('Invalid configuration format')
  const withInputs = applyInputs(loaded.header, loaded.value, {})
  if (!isHash(withInputs)) throw new ConfigError('Invalid configuration format')
  const { config, includes } = await expandIncludes(withInputs, source)
  return { merged: resolveReferences(resolveExtends(config)), includes }
}

// Nesting that the YAML parser let through can still be too deep for the recursive steps after it.
export const TOO_DEEP = 'The configuration is nested too deeply'

export async function loadCiConfig(text: string, source: IncludeSource): Promise<LoadResult> {
  try {
    return await loadChecked(text, source)
  } catch (e) {
    if (e instanceof RangeError) return { ok: false, errors: [TOO_DEEP], merged: null }
    throw e
  }
}

async function loadChecked(text: string, source: IncludeSource): Promise<LoadResult> {
  let merged: Record<string, unknown>
  let includes
  try {
    ({ merged, includes } = await expanded(text, source))
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, errors: [e.message], merged: null }
    throw e
  }
  const p = new Problems()
  const stages = stagesOf(merged, p)
  const variables = variablesHash(merged.variables, 'variables', p) ?? {}
  const workflow = workflowOf(merged, p)
  const written = jobsOf(merged, defaultsOf(merged, p), p)
  const jobs = expandParallel(written, p)
  if (p.list.length) return { ok: false, errors: p.list, merged }
  try {
    validateLogic(jobs, stages)
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, errors: [e.message], merged }
    throw e
  }
  return { ok: true, config: { stages, variables, workflow, jobs, merged, includes, warnings: [...ruleWarnings(written, workflow), ...triggerWarnings(written)] } }
}
