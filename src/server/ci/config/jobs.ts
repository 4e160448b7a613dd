// One job hash (after include, extends and !reference) -> a validated JobConfig, with `default:` applied.
import { parseCiDuration } from '../../../core/durations.js'
import { parseEnvironment } from './environment.js'
import * as f from './fields.js'
import { Problems } from './fields.js'
import { parseRelease } from './release.js'
import { parsePolicy, parseRules } from './rules.js'
import type { JobWhen } from '../plan-types.js'
import type { JobConfig } from './types.js'
import { isHash } from './yaml.js'

export const JOB_KEYS = [
  'script', 'run', 'before_script', 'after_script', 'stage', 'type', 'when', 'start_in', 'allow_failure', 'variables',
  'rules', 'only', 'except', 'needs', 'dependencies', 'artifacts', 'coverage', 'retry', 'timeout', 'interruptible',
  'parallel', 'image', 'services', 'cache', 'tags', 'extends', 'inherit', 'environment', 'resource_group', 'release',
  'secrets', 'trigger', 'id_tokens', 'hooks', 'pages', 'identity', 'dast_configuration', 'manual_confirmation', 'publish',
]

/** What `default:` (and the legacy top-level image, services, cache, before_script, after_script) hands to jobs. */
export const DEFAULT_KEYS = [
  'after_script', 'artifacts', 'before_script', 'cache', 'hooks', 'id_tokens', 'image', 'interruptible', 'retry',
  'services', 'tags', 'timeout',
]

// `never` belongs to rules only: GitLab's Job entry refuses it.
const JOB_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed']
const ONE_WEEK = 7 * 24 * 3600

/** `inherit: {default: false | [keys], variables: false | [names]}`. */
function inherited(job: Record<string, unknown>, which: 'default' | 'variables', at: string, p: Problems): boolean | string[] {
  const inherit = job.inherit
  if (inherit === undefined) return true
  if (!isHash(inherit)) { p.add(`${at}:inherit config should be a hash`); return true }
  const v = inherit[which]
  if (v === undefined || typeof v === 'boolean') return v ?? true
  return f.stringList(v, `${at}:inherit ${which}`, p, 'a boolean value or an array of strings') ?? true
}

function withDefaults(job: Record<string, unknown>, defaults: Record<string, unknown>, at: string, p: Problems) {
  const take = inherited(job, 'default', at, p)
  const out = { ...job }
  for (const key of DEFAULT_KEYS) {
    if (Object.hasOwn(out, key) || !Object.hasOwn(defaults, key)) continue
    if (take === true || (Array.isArray(take) && take.includes(key))) out[key] = defaults[key]
  }
  return out
}

function startIn(job: Record<string, unknown>, when: unknown, at: string, p: Problems): number | null {
  // With rules, start_in belongs in the rule (reported with the other keys rules exclude).
  if (job.rules !== undefined) return null
  if (when !== 'delayed') {
    if (job.start_in !== undefined) p.add(`${at} start in must be blank`)
    return null
  }
  if (job.start_in === undefined || job.start_in === null) { p.add(`${at} start in can't be blank`); return null }
  const seconds = typeof job.start_in === 'string' || typeof job.start_in === 'number' ? parseCiDuration(String(job.start_in)) : null
  if (seconds === null) { p.add(`${at} start in should be a duration`); return null }
  if (seconds > ONE_WEEK) p.add(`${at} start in should not exceed the limit`)
  return seconds
}

function plainFields(job: Record<string, unknown>, at: string, p: Problems) {
  const stage = job.stage ?? job.type ?? 'test'
  if (typeof stage !== 'string') p.add(`${at}:stage config should be a string`)
  const when = job.when ?? 'on_success'
  if (!JOB_WHEN.includes(when as string)) p.add(`${at} when should be one of: ${JOB_WHEN.join(', ')}`)
  if (job.interruptible !== undefined && typeof job.interruptible !== 'boolean') p.add(`${at}:interruptible config should be a boolean value`)
  const tags = job.tags === undefined || job.tags === null ? [] : f.stringList(job.tags, `${at}:tags config`, p)
  const dependencies = job.dependencies === undefined || job.dependencies === null ? null
    : f.stringList(job.dependencies, `${at} dependencies`, p)
  if (job.rules !== undefined) {
    const clash = ['only', 'except', 'start_in'].filter((k) => job[k] !== undefined && job[k] !== null)
    if (clash.length) p.add(`${at} config key may not be used with \`rules\`: ${clash.join(', ')}`)
  }
  if (job.script !== undefined && job.run !== undefined) p.add(`${at} config these keys cannot be used together: script, run`)
  return { stage: String(stage), when: when as JobWhen, interruptible: job.interruptible === true, tags: tags ?? [], dependencies: dependencies ?? null }
}

/** Ruby's blank?: what GitLab's `validates :script, presence: true` refuses. */
const blank = (v: unknown) => v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)

function scripts(job: Record<string, unknown>, at: string, p: Problems) {
  const list = (key: string) => (job[key] === undefined || job[key] === null ? [] : f.scriptLines(job[key], `${at}:${key}`, p) ?? [])
  if (job.script !== undefined && job.run === undefined && blank(job.script)) p.add(`${at} script can't be blank`)
  return { script: list('script'), beforeScript: list('before_script'), afterScript: list('after_script') }
}

/** The job, or undefined after its problems were reported. */
export function normalizeJob(name: string, value: unknown, defaults: Record<string, unknown>, p: Problems): JobConfig | undefined {
  const at = `jobs:${name}`
  if (!isHash(value) || (value.script === undefined && value.run === undefined && value.trigger === undefined)) {
    p.add(`${at} config should implement a script: or a trigger: keyword`)
    return undefined
  }
  const before = p.list.length
  const job = withDefaults(value, defaults, at, p)
  f.unknownKeys(job, JOB_KEYS, at, p)
  const plain = plainFields(job, at, p)
  const rules = job.rules === undefined ? null : parseRules(job.rules, `${at}:rules`, p)
  const config: JobConfig = {
    name, ...plain, ...scripts(job, at, p),
    variables: f.variablesHash(job.variables, `${at}:variables`, p) ?? {},
    inheritVariables: inherited(job, 'variables', at, p),
    startIn: startIn(job, plain.when, at, p),
    allowFailure: job.allow_failure === undefined ? null : f.allowFailure(job.allow_failure, at, p) ?? null,
    rules: rules ?? null,
    only: parsePolicy(job.only, `${at}:only`, p) ?? null,
    except: parsePolicy(job.except, `${at}:except`, p) ?? null,
    needs: job.needs === undefined || job.needs === null ? null : f.needsList(job.needs, at, p) ?? null,
    artifacts: f.artifacts(job.artifacts, at, p) ?? null,
    coverageRegex: f.coverage(job.coverage, at, p) ?? null,
    retry: job.retry === undefined || job.retry === null ? { max: 0, when: ['always'] } : f.retry(job.retry, at, p) ?? { max: 0, when: [] },
    timeout: f.duration(job.timeout, `${at}:timeout`, p) ?? null,
    image: job.image ?? null, services: job.services ?? null, cache: job.cache ?? null,
    environment: parseEnvironment(job.environment, name, p) ?? null,
    ...released(job, at, p),
    trigger: job.trigger !== undefined && job.script === undefined,
    parallelOf: null,
    raw: job,
  }
  checkDependenciesInNeeds(config, at, p)
  f.recordedShapes(job, at, p)
  return p.list.length > before ? undefined : config
}

/** `release:` when the job has one: left out otherwise, so jobs without it compare as before. */
function released(job: Record<string, unknown>, at: string, p: Problems) {
  const release = parseRelease(job.release, at, p)
  return release ? { release } : {}
}

/** With both, GitLab wants every dependency among the needs (artifacts come only from needed jobs then). */
function checkDependenciesInNeeds(job: JobConfig, at: string, p: Problems) {
  if (!job.dependencies?.length || !job.needs?.length) return
  const missing = job.dependencies.filter((d) => !job.needs!.some((n) => n.job === d))
  if (missing.length) p.add(`${at} dependencies the ${missing.join(', ')} should be part of needs`)
}
