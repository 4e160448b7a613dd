// The `environment:` keyword (GitLab's Entry::Environment): a name, or a hash of name, url, action, on_stop,
// deployment_tier and auto_stop_in; and the pipeline-wide check of on_stop jobs (YamlProcessor#validate_on_stop_job!).
import { createHash } from 'node:crypto'
import { ENVIRONMENT_TIERS } from '../../../contract/fixed-values.js'
import { expandReferences } from '../../../core/variable-expansion.js'
import { parseCiDuration } from '../../../core/durations.js'
import { finalJobVariables } from '../variable-expansion.js'
import type { JobEnvironmentSpec } from '../plan-types.js'
import { ConfigError } from './errors.js'
import { Problems, unknownKeys } from './fields.js'
import type { JobConfig } from './types.js'
import { isHash } from './yaml.js'

const KEYS = ['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier']
export const ENVIRONMENT_ACTIONS = ['start', 'stop', 'prepare', 'verify', 'access'] as const

// Gitlab::Regex.environment_name_regex: these characters, and no '/' at either end. `$`, `{` and `}` let variables in.
const NAME_CHARS = /^[a-zA-Z0-9_/${}. -]+$/
export const NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"
export const validEnvironmentName = (name: string) => NAME_CHARS.test(name) && !name.startsWith('/') && !name.endsWith('/')

const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string'

/** The job's environment, or null without one; undefined after its problems were reported. */
export function parseEnvironment(value: unknown, job: string, p: Problems): JobEnvironmentSpec | null | undefined {
  if (value === undefined || value === null) return null
  const at = `jobs:${job}:environment`
  if (typeof value !== 'string' && !isHash(value)) { p.add(`${at} config should be a hash or a string`); return undefined }
  const env: Record<string, unknown> = typeof value === 'string' ? { name: value } : value
  const before = p.list.length
  if (isHash(value)) unknownKeys(env, KEYS, at, p)
  const name = env.name
  if (name === undefined || name === null || name === '') p.add(`${at} name can't be blank`)
  else if (typeof name !== 'string' || !validEnvironmentName(name)) p.add(`${at} name ${NAME_MESSAGE}`)
  if (!optionalString(env.url)) p.add(`${at} url should be a string`)
  else if (typeof env.url === 'string' && env.url.length > 255) p.add(`${at} url is too long (maximum is 255 characters)`)
  if (env.action !== undefined && env.action !== null && !ENVIRONMENT_ACTIONS.includes(env.action as never)) {
    p.add(`${at} action should be start, stop, prepare, verify, or access`)
  }
  if (env.deployment_tier !== undefined && env.deployment_tier !== null && !ENVIRONMENT_TIERS.includes(env.deployment_tier as never)) {
    p.add(`${at} deployment tier must be one of production, staging, testing, development, or other`)
  }
  if (!optionalString(env.on_stop)) p.add(`${at} on stop should be a string`)
  if (env.kubernetes !== undefined && env.kubernetes !== null && !isHash(env.kubernetes)) p.add(`${at} kubernetes should be a hash`)
  const autoStop = env.auto_stop_in
  if (autoStop !== undefined && autoStop !== null && (typeof autoStop !== 'string' || parseCiDuration(autoStop) === null)) {
    p.add(`${at} auto stop in should be a duration`)
  }
  if (p.list.length > before) return undefined
  return {
    name: name as string,
    url: (env.url as string | undefined) ?? null,
    action: (env.action as JobEnvironmentSpec['action'] | undefined) ?? 'start',
    onStop: (env.on_stop as string | undefined) ?? null,
    deploymentTier: (env.deployment_tier as JobEnvironmentSpec['deploymentTier'] | undefined) ?? null,
    autoStopIn: (autoStop as string | undefined) ?? null,
  }
}

/** An `on_stop` names a job of the same environment whose action is stop, with GitLab's seeding errors otherwise. */
export function checkOnStop(job: JobConfig, byName: Map<string, JobConfig>) {
  const env = job.environment
  if (!env?.onStop) return
  const stop = byName.get(env.onStop)
  const fail = (what: string) => { throw new ConfigError(`${job.name} job: on_stop job ${env.onStop} ${what}`) }
  if (!stop) fail('is not defined')
  if (!stop!.environment) fail('does not have environment defined')
  if (stop!.environment!.name !== env.name) fail('have different environment name')
  if (stop!.environment!.action !== 'stop') fail('needs to have action stop defined')
}

/**
 * The environment with `$VAR` and `${VAR}` in its name and url expanded, as GitLab does when it seeds the job: from the
 * pipeline's variables (predefined, project, pipeline) over the job's own YAML ones, references inside values included.
 */
export function expandEnvironment(env: JobEnvironmentSpec, variables: Record<string, string>): JobEnvironmentSpec {
  const defs = Object.entries(variables).map(([key, value]) => ({ key, value, public: true, masked: false }))
  const values = new Map(finalJobVariables(defs).map((v) => [v.key, v.value]))
  const expand = (text: string) => expandReferences(text, (name) => values.get(name))
  const name = expand(env.name).trim()
  // The url may name the environment itself ($CI_ENVIRONMENT_SLUG), as the runner expands it in GitLab.
  values.set('CI_ENVIRONMENT_NAME', name)
  values.set('CI_ENVIRONMENT_SLUG', environmentSlug(name))
  return { ...env, name, url: env.url === null ? null : expand(env.url) }
}

/**
 * Gitlab::Slug::Environment: lower case, [a-z0-9] and '-', starting with a letter, at most 24 characters; when that
 * changed the name (or cut it), 17 characters of it and a 6-character suffix from the name's SHA-256 keep it unique.
 */
export function environmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-')
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`
  slug = slug.replace(/-+/g, '-')
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '')
  let short = slug.slice(0, 17)
  if (!short.endsWith('-')) short += '-'
  // Ruby's hexdigest.to_i(16).to_s(36).last(6).
  const suffix = BigInt(`0x${createHash('sha256').update(name, 'utf8').digest('hex')}`).toString(36).slice(-6)
  return short + suffix
}

/** Environment#guess_tier: the tier an environment's name suggests when none is given. */
export function guessTier(name: string): JobEnvironmentSpec['deploymentTier'] & string {
  if (/(dev|review|trunk)/i.test(name)) return 'development'
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing'
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging'
  if (/(pr(o|)d|live)/i.test(name)) return 'production'
  return 'other'
}
