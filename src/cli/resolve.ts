// Which host, token and project a command talks to: flags, then COLLAB_*, GITLAB_*, a CI job, the git remote, the config file.
import type { TokenHeader } from '../client/http.js'
import { normalizeHost, type ConfigFile } from './config.js'
import type { Env } from './io.js'

export interface ConnectionFlags {
  host?: string
  token?: string
}

export interface Sourced<T> {
  value: T
  /** Where it came from, for `auth status` and error messages: `--host`, `COLLAB_TOKEN`, `config` … */
  source: string
}

export interface ResolvedToken {
  token: string
  header: TokenHeader
  source: string
}

/** CI_API_V4_URL is `<host>/api/v4`. */
const ciHost = (env: Env) => (env.CI_API_V4_URL ? normalizeHost(env.CI_API_V4_URL) : undefined)

/** A host named explicitly (flag, environment or CI job); the config's default only applies when none is. */
export function explicitHost(flags: ConnectionFlags, env: Env): Sourced<string> | undefined {
  if (flags.host) return { value: normalizeHost(flags.host), source: '--host' }
  for (const name of ['COLLAB_HOST', 'GITLAB_HOST'] as const) {
    const value = env[name]
    if (value) return { value: normalizeHost(value), source: name }
  }
  const ci = ciHost(env)
  if (ci && env.CI_JOB_TOKEN) return { value: ci, source: 'CI_API_V4_URL' }
  return undefined
}

export function defaultHost(config: ConfigFile): Sourced<string> | undefined {
  if (config.default_host) return { value: config.default_host, source: 'config' }
  const hosts = Object.keys(config.hosts)
  return hosts.length === 1 ? { value: hosts[0], source: 'config' } : undefined
}

/** Flag and environment tokens apply to whichever host was chosen; a job token only to its own instance. */
/** The token from --token or the environment, which come before the config file. */
export function explicitToken(host: string, flags: ConnectionFlags, env: Env): ResolvedToken | undefined {
  if (flags.token) return { token: flags.token, header: 'PRIVATE-TOKEN', source: '--token' }
  for (const name of ['COLLAB_TOKEN', 'GITLAB_TOKEN'] as const) {
    const value = env[name]
    if (value) return { token: value, header: 'PRIVATE-TOKEN', source: name }
  }
  if (env.CI_JOB_TOKEN && ciHost(env) === host) return { token: env.CI_JOB_TOKEN, header: 'JOB-TOKEN', source: 'CI_JOB_TOKEN' }
  return undefined
}

export function resolveToken(host: string, flags: ConnectionFlags, env: Env, config: ConfigFile): ResolvedToken | undefined {
  const explicit = explicitToken(host, flags, env)
  if (explicit) return explicit
  const stored = config.hosts[host]
  if (!stored?.token) return undefined
  return { token: stored.token, header: stored.token_type === 'oauth' ? 'Authorization' : 'PRIVATE-TOKEN', source: 'config' }
}

export interface ProjectArg {
  /** An id (`42`) or a full path (`group/sub/project`), not encoded. */
  ref: string
  /** Set when the project was given as a URL: its instance. */
  host?: string
  /** A name without a namespace (`demo`): glab reads it as the caller's own `username/demo`. */
  bare?: boolean
}

/** `42`, `group/project`, or a web/clone URL such as `http://127.0.0.1:3000/group/project(.git)`. */
export function parseProjectArg(value: string): ProjectArg | undefined {
  const text = value.trim()
  if (/^https?:\/\//i.test(text)) {
    const url = new URL(text)
    const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '').replace(/\.git$/, '').replace(/\/-(\/.*)?$/, '')
    return path.includes('/') ? { ref: path, host: `${url.protocol}//${url.host}` } : undefined
  }
  const ref = text.replace(/^\/+|\/+$/g, '')
  if (/^\d+$/.test(ref) || /^[^/\s]+(\/[^/\s]+)+$/.test(ref)) return { ref }
  return /^[\w.-]+$/.test(ref) ? { ref, bare: true } : undefined
}

/** `COLLAB_PROJECT`, then a CI job's `CI_PROJECT_ID`. */
export function projectFromEnv(env: Env): Sourced<string> | undefined {
  if (env.COLLAB_PROJECT) return { value: env.COLLAB_PROJECT, source: 'COLLAB_PROJECT' }
  if (env.CI_PROJECT_ID) return { value: env.CI_PROJECT_ID, source: 'CI_PROJECT_ID' }
  return undefined
}
