// Validators for single keywords. Each reports in GitLab's entry wording (`<path> config should be …`) and returns
// the normalized value, or undefined after reporting.
import { userPattern } from '../../../core/re2.js'
import { expireInSeconds, parseCiDuration } from '../../../core/durations.js'
import type { JobArtifactsSpec, JobNeed } from '../plan-types.js'
import { matrixCombos, matrixSuffix } from './matrix.js'
import type { AllowFailureConfig } from './types.js'
import { isHash } from './yaml.js'

export class Problems {
  readonly list: string[] = []
  add(message: string) {
    this.list.push(message)
  }
}

export function unknownKeys(value: Record<string, unknown>, allowed: readonly string[], path: string, p: Problems) {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k))
  if (unknown.length) p.add(`${path} config contains unknown keys: ${unknown.join(', ')}`)
}

/** A string or an array of strings nested up to 10 levels (!reference makes nests), flattened. */
export function scriptLines(value: unknown, path: string, p: Problems): string[] | undefined {
  const out: string[] = []
  const walk = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') { out.push(v); return true }
    if (!Array.isArray(v) || depth > 10) return false
    return v.every((x) => walk(x, depth + 1))
  }
  if (walk(value, 0)) return out
  p.add(`${path} config should be a string or a nested array of strings up to 10 levels deep`)
  return undefined
}

export function stringList(value: unknown, path: string, p: Problems, what = 'an array of strings'): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value
  p.add(`${path} should be ${what}`)
  return undefined
}

/**
 * `KEY: value` or `KEY: {value, description, expand, options}`; numbers become strings as GitLab's to_s does, and
 * `KEY:` with no value is an empty string (GitLab reads a null entry as an empty hash).
 * Values are expanded when the job starts, where `$$` is a literal `$`: `expand: false` doubles every `$` so that the
 * value arrives as written.
 */
export function variablesHash(value: unknown, path: string, p: Problems): Record<string, string> | undefined {
  const scalar = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))
  const fail = () => { p.add(`${path} config should be a hash of key value pairs, value can be a hash`); return undefined }
  if (value === null || value === undefined) return {}
  if (!isHash(value)) return fail()
  const out: Record<string, string> = {}
  for (const [key, v] of Object.entries(value)) {
    if (v === null) out[key] = ''
    else if (scalar(v)) out[key] = String(v)
    else if (isHash(v) && Object.keys(v).every((k) => ['value', 'description', 'expand', 'options'].includes(k)) &&
      (v.value === undefined || scalar(v.value))) {
      const text = v.value === undefined ? '' : String(v.value)
      out[key] = v.expand === false ? text.replace(/\$/g, '$$$$') : text
    }
    else return fail()
  }
  return out
}

export function allowFailure(value: unknown, path: string, p: Problems): AllowFailureConfig | undefined {
  if (typeof value === 'boolean') return { allowed: value, exitCodes: null }
  if (isHash(value) && Object.keys(value).length === 1 && 'exit_codes' in value) {
    const codes = Array.isArray(value.exit_codes) ? value.exit_codes : [value.exit_codes]
    if (codes.every((c) => Number.isInteger(c))) return { allowed: false, exitCodes: codes as number[] }
  }
  p.add(`${path}:allow_failure config should be a hash or a boolean value`)
  return undefined
}

/** One need or a list of them, nested lists (as `!reference` makes) flattened as GitLab's Needs entry does. */
export function needsList(value: unknown, path: string, p: Problems): JobNeed[] | undefined {
  if (!Array.isArray(value) && !isHash(value)) {
    p.add(`${path}:needs config can only be a hash or an array`)
    return undefined
  }
  const out: JobNeed[] = []
  for (const need of [value].flat(Infinity)) {
    if (typeof need === 'string') { out.push({ job: need, artifacts: true, optional: false }); continue }
    if (!isHash(need)) { p.add(`${path}:needs:need has an unsupported type`); return undefined }
    if ('pipeline' in need || 'project' in need) { p.add(`${path}:needs:need cross-pipeline needs are not supported`); return undefined }
    const before = p.list.length
    unknownKeys(need, ['job', 'artifacts', 'optional', 'parallel'], `${path}:needs:need`, p)
    if (need.job === undefined || need.job === null || need.job === '') p.add(`${path}:needs:need job can't be blank`)
    else if (typeof need.job !== 'string') p.add(`${path}:needs:need job should be a string`)
    for (const flag of ['artifacts', 'optional'] as const) {
      if (need[flag] !== undefined && typeof need[flag] !== 'boolean') p.add(`${path}:needs:need ${flag} should be a boolean value`)
    }
    const names = needNames(need, path, p)
    if (p.list.length > before || !names) return undefined
    for (const job of names) out.push({ job, artifacts: need.artifacts !== false, optional: need.optional === true })
  }
  return out
}

/** `{job, parallel: {matrix}}` needs only the named instances of a matrix job; plain needs name the job. */
function needNames(need: Record<string, unknown>, path: string, p: Problems): string[] | undefined {
  if (need.parallel === undefined) return [need.job as string]
  const combos = isHash(need.parallel) ? matrixCombos(need.parallel.matrix) : null
  if (!combos) { p.add(`${path}:needs:need:parallel:matrix config should be an array of hashes`); return undefined }
  return combos.map((c) => `${need.job as string}${matrixSuffix(c)}`)
}

const ARTIFACT_KEYS = ['paths', 'exclude', 'when', 'expire_in', 'expose_as', 'name', 'untracked', 'reports', 'public', 'access']

export function artifacts(value: unknown, path: string, p: Problems): JobArtifactsSpec | null | undefined {
  if (value === null || value === undefined) return null
  const at = `${path}:artifacts`
  if (!isHash(value)) { p.add(`${at} config should be a hash`); return undefined }
  const before = p.list.length
  unknownKeys(value, ARTIFACT_KEYS, at, p)
  const paths = value.paths === undefined ? [] : stringList(value.paths, `${at} paths`, p)
  const exclude = value.exclude === undefined ? [] : stringList(value.exclude, `${at} exclude`, p)
  const when = value.when ?? 'on_success'
  if (!['on_success', 'on_failure', 'always'].includes(when as string)) p.add(`${at} when should be on_success, on_failure or always`)
  const expire = value.expire_in === undefined || value.expire_in === null ? null : String(value.expire_in)
  if (expire !== null && expireInSeconds(expire) === null) p.add(`${at} expire in should be a duration`)
  if (value.name !== undefined && typeof value.name !== 'string') p.add(`${at} name should be a string`)
  if (value.untracked !== undefined && typeof value.untracked !== 'boolean') p.add(`${at} untracked should be a boolean value`)
  if (p.list.length > before || !paths || !exclude) return undefined
  return {
    paths, exclude, when: when as JobArtifactsSpec['when'], expireIn: expire,
    name: (value.name as string | undefined) ?? null, untracked: value.untracked === true,
  }
}

const RETRY_WHEN = [
  'always', 'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites',
  'scheduler_failure', 'data_integrity_failure',
]

export function retry(value: unknown, path: string, p: Problems): { max: number; when: string[] } | undefined {
  const at = `${path}:retry`
  const max = isHash(value) ? value.max ?? 0 : value
  if (!Number.isInteger(max)) { p.add(`${at} config should be a hash or an integer`); return undefined }
  if ((max as number) < 0) { p.add(`${at} config must be greater than or equal to 0`); return undefined }
  if ((max as number) > 2) { p.add(`${at} config must be less than or equal to 2`); return undefined }
  let when = ['always']
  if (isHash(value)) {
    unknownKeys(value, ['max', 'when', 'exit_codes'], at, p)
    if (value.when !== undefined) {
      when = Array.isArray(value.when) ? value.when.map(String) : [String(value.when)]
      const bad = when.filter((w) => !RETRY_WHEN.includes(w))
      if (bad.length) { p.add(`${at} when contains unknown values: ${bad.join(', ')}`); return undefined }
    }
  }
  return { max: max as number, when }
}

/** GitLab stores the regex without its slashes: `/\d+%/` -> `\d+%`. */
export function coverage(value: unknown, path: string, p: Problems): string | null | undefined {
  if (value === undefined || value === null) return null
  const m = typeof value === 'string' ? /^\/(.+)\/$/s.exec(value) : null
  if (m && userPattern(m[1])) return m[1]
  p.add(`${path}:coverage config must be a regular expression with re2 syntax`)
  return undefined
}

export function duration(value: unknown, at: string, p: Problems): number | null | undefined {
  if (value === undefined || value === null) return null
  const seconds = typeof value === 'string' || typeof value === 'number' ? parseCiDuration(String(value)) : null
  if (seconds === null) { p.add(`${at} config should be a duration`); return undefined }
  return seconds
}

/** Recorded only, but checked for shape as GitLab's Image and Services entries do (environment.ts reads `environment`). */
export function recordedShapes(job: Record<string, unknown>, at: string, p: Problems) {
  const hashOrString = (v: unknown) => typeof v === 'string' || isHash(v)
  if (job.image !== undefined && job.image !== null && !hashOrString(job.image)) p.add(`${at}:image config should be a hash or a string`)
  if (job.services !== undefined && job.services !== null) {
    if (!Array.isArray(job.services)) p.add(`${at}:services config should be a array`)
    else if (!job.services.every(hashOrString)) p.add(`${at}:services:service config should be a hash or a string`)
  }
}
