// The config layer's entry points: a pipeline's jobs from `.gitlab-ci.yml` and the pipeline's facts (planPipeline),
// and the static check behind the lint API (lintConfig).
import { expandEnvironment } from './config/environment.js'
import { firstMatch, makeFacts, onlyExceptAllow, type Facts } from './config/evaluate.js'
import { ConfigError } from './config/errors.js'
import { loadCiConfig, TOO_DEEP } from './config/load.js'
import type { CiConfig, JobConfig, RuleConfig } from './config/types.js'
import type { JobSpec, JobWhen, PlanContext, PlanResult } from './plan-types.js'
import { circularReferences } from './variable-expansion.js'

export const NO_JOBS = 'No stages / jobs for this pipeline.'
export const FILTERED_BY_WORKFLOW = 'Pipeline filtered out by workflow rules.'
const EDGE_STAGES = ['.pre', '.post']
// GitLab's default ci_needs_size_limit.
const MAX_NEEDS = 50

/** The global variables a job inherits (`inherit:variables`), under its own. */
function jobVariables(job: JobConfig, globals: Record<string, string>, rule: RuleConfig | null): Record<string, string> {
  const inherit = job.inheritVariables
  const taken = inherit === true ? globals
    : inherit === false ? {} : Object.fromEntries(Object.entries(globals).filter(([k]) => inherit.includes(k)))
  return { ...taken, ...job.variables, ...(rule?.variables ?? {}) }
}

type Decision = { rule: RuleConfig | null; when: JobWhen; startIn: number | null; allowFailure: boolean; exitCodes: number[] | null } | null

/** Rules (first match wins; no match leaves the job out) or only/except; `when: never` leaves it out too. */
async function decide(job: JobConfig, facts: Facts, globals: Record<string, string>): Promise<Decision> {
  // Pipeline variables win over the file's, as in GitLab's variable precedence.
  const vars = { ...jobVariables(job, globals, null), ...facts.ctx.variables }
  if (job.rules) {
    const rule = await firstMatch(job.rules, facts, vars)
    if (!rule) return null
    const when = rule.when ?? job.when
    if (when === 'never') return null
    const af = rule.allowFailure ?? job.allowFailure
    // A job-level `when: delayed` under rules has no start_in of its own (GitLab refuses one there): it waits 0 s.
    return { rule, when, startIn: when === 'delayed' ? rule.startIn ?? job.startIn ?? 0 : null, allowFailure: af?.allowed ?? false, exitCodes: af?.exitCodes ?? null }
  }
  if (!onlyExceptAllow(job.only, job.except, facts, vars)) return null
  // Outside rules a manual job does not block the pipeline unless it says so.
  const af = job.allowFailure ?? { allowed: job.when === 'manual', exitCodes: null }
  return { rule: null, when: job.when, startIn: job.startIn, allowFailure: af.allowed, exitCodes: af.exitCodes }
}

function toSpec(job: JobConfig, d: NonNullable<Decision>, globals: Record<string, string>, stages: string[]): JobSpec {
  return {
    name: job.name,
    stage: job.stage,
    stageIdx: stages.indexOf(job.stage),
    script: job.script,
    beforeScript: job.beforeScript,
    afterScript: job.afterScript,
    variables: jobVariables(job, globals, d.rule),
    when: d.when,
    startIn: d.startIn,
    allowFailure: d.allowFailure,
    allowFailureExitCodes: d.exitCodes,
    needs: d.rule?.needs ?? job.needs,
    dependencies: job.dependencies,
    artifacts: job.artifacts,
    coverageRegex: job.coverageRegex,
    retry: job.retry,
    timeout: job.timeout,
    interruptible: d.rule?.interruptible ?? job.interruptible,
    image: job.image,
    services: job.services,
    cache: job.cache,
    tags: job.tags,
    ...(job.release ? { release: job.release } : {}),
    ...(job.environment ? { environment: job.environment } : {}),
  }
}

/** Needs of jobs left out: optional ones are dropped, others fail the pipeline as GitLab's seeding does. */
function resolveNeeds(specs: JobSpec[]): string[] {
  const present = new Set(specs.map((s) => s.name))
  const errors: string[] = []
  for (const spec of specs) {
    if (spec.needs) {
      if (spec.needs.length > MAX_NEEDS) {
        errors.push(`${spec.name}: one job can only need ${MAX_NEEDS} others, but you have listed ${spec.needs.length}. See needs keyword documentation for more details`)
      }
      for (const need of spec.needs) {
        if (present.has(need.job) || need.optional) continue
        errors.push(`'${spec.name}' job needs '${need.job}' job, but '${need.job}' does not exist in the pipeline. ` +
          'This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.')
      }
      spec.needs = spec.needs.filter((n) => present.has(n.job))
    }
    if (spec.dependencies) spec.dependencies = spec.dependencies.filter((d) => present.has(d))
  }
  return errors
}

/** A job whose variables refer to each other in a ring is not created, as GitLab's seeding refuses it. */
function circularErrors(spec: JobSpec): string[] {
  const rings = circularReferences(spec.variables)
  if (!rings.length) return []
  // Ruby's Array#inspect, as GitLab's message prints each ring.
  return [`${spec.name}: circular variable reference detected: ${rings.map((r) => `[${r.map((k) => JSON.stringify(k)).join(', ')}]`).join(', ')}`]
}

async function workflowVariables(config: CiConfig, facts: Facts): Promise<Record<string, string> | null> {
  if (!config.workflow.rules) return {}
  const vars = { ...config.variables, ...facts.ctx.variables }
  const rule = await firstMatch(config.workflow.rules, facts, vars)
  if (!rule || rule.when === 'never') return null
  return rule.variables ?? {}
}

function source(ctx: Partial<PlanContext>) {
  const readFile = ctx.readFile ?? (async () => null)
  const listFiles = ctx.listFiles ?? (async () => [])
  const full = ctx.source && ctx.ref !== undefined ? { ...(ctx as PlanContext), readFile, listFiles } : undefined
  return { readFile, listFiles, ctx: full }
}

export async function planPipeline(yamlText: string, ctx: PlanContext): Promise<PlanResult> {
  const loaded = await loadCiConfig(yamlText, source(ctx))
  if (!loaded.ok) return { kind: 'errors', errors: loaded.errors }
  try {
    return await planJobs(loaded.config, makeFacts(ctx))
  } catch (e) {
    // The match budget throws here (patterns that backtrack without end), and a chain of thousands of `||` can
    // recurse past the stack when evaluated.
    if (e instanceof ConfigError) return { kind: 'errors', errors: [e.message] }
    if (e instanceof RangeError) return { kind: 'errors', errors: [TOO_DEEP] }
    throw e
  }
}

async function planJobs(config: CiConfig, facts: Facts): Promise<PlanResult> {
  const workflowVars = await workflowVariables(config, facts)
  if (workflowVars === null) return { kind: 'skipped', reason: FILTERED_BY_WORKFLOW }
  const globals = { ...config.variables, ...workflowVars }
  const chosen: Array<[JobConfig, NonNullable<Decision>]> = []
  for (const job of config.jobs) {
    if (job.trigger) continue
    const d = await decide(job, facts, globals)
    if (d) chosen.push([job, d])
  }
  const stages = config.stages.filter((s) => chosen.some(([job]) => job.stage === s))
  if (stages.every((s) => EDGE_STAGES.includes(s))) return { kind: 'errors', errors: [NO_JOBS] }
  const specs = chosen.map(([job, d]) => toSpec(job, d, globals, stages))
  for (const spec of specs) if (spec.environment) spec.environment = expandEnvironment(spec.environment, { ...spec.variables, ...facts.ctx.variables })
  const errors = [...resolveNeeds(specs), ...specs.flatMap(circularErrors)]
  if (errors.length) return { kind: 'errors', errors }
  return { kind: 'plan', plan: { stages, jobs: specs } }
}

/** The jobs as written, before any rule is evaluated: what lint lists. */
export function staticJobs(config: CiConfig): JobSpec[] {
  return config.jobs.map((job) => {
    const when = job.when
    const af = job.allowFailure ?? { allowed: !job.rules && when === 'manual', exitCodes: null }
    return toSpec(job, { rule: null, when, startIn: job.startIn, allowFailure: af.allowed, exitCodes: af.exitCodes }, config.variables, config.stages)
  })
}

export async function lintConfig(yamlText: string, ctx: Partial<PlanContext> = {}) {
  const loaded = await loadCiConfig(yamlText, source(ctx))
  if (!loaded.ok) return { valid: false, errors: loaded.errors, warnings: [] as string[], merged: loaded.merged, jobs: [] as JobSpec[] }
  const config = loaded.config
  return { valid: true, errors: [] as string[], warnings: config.warnings, merged: config.merged, jobs: staticJobs(config) }
}
