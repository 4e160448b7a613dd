// What a verb's run() receives: io, the config, and lazily resolved API clients and projects (gh's cmdutil.Factory).
import { VERSION } from '../core/version.js'
import { ApiClient } from '../client/http.js'
import { route } from '../client/paths.js'
import { configDirFrom, readConfig, type ConfigFile } from './config.js'
import { authRequired, usageError } from './errors.js'
import { matchRemotes, projectFromGitRemote } from './git-remote.js'
import type { IO } from './io.js'
import { inquirerPrompter, type Prompter } from './prompts.js'
import { resolveStoredToken, type StoreAccess } from './stored-token.js'
import {
  defaultHost, explicitHost, explicitToken, parseProjectArg, projectFromEnv,
  type ConnectionFlags, type ResolvedToken, type Sourced,
} from './resolve.js'

export interface ProjectTarget {
  api: ApiClient
  /** The id or full path, not encoded: `route(name, { id: ref })` encodes it into API paths. */
  ref: string
}

export interface Deps {
  io: IO
  /** The directory of config.json. */
  configDir: Promise<string>
  prompter: Prompter
  config(): Promise<ConfigFile>
  /** A client for the chosen host; fails with exit code 4 when there is no host or no token. */
  api(): Promise<ApiClient>
  /**
   * The project from the argument, -p, COLLAB_PROJECT, CI_PROJECT_ID or the git remote, and a client for its host.
   * With `anonymous`, a host without a token gets a client without one (public projects), instead of exit code 4.
   */
  project(arg?: string, options?: { anonymous?: boolean }): Promise<ProjectTarget>
  /** A client for a given host and token, without the usual resolution (auth login, auth status). */
  clientFor(host: string, token?: ResolvedToken): ApiClient
  /** The token commands send to `host` (flags, environment, then the stored one: keyring, OAuth renewal). */
  tokenFor(host: string): Promise<ResolvedToken | undefined>
  /** The token `auth login` or `collab serve` stored for `host`, never --token or the environment's: a second host's. */
  storedTokenFor(host: string): Promise<ResolvedToken | undefined>
}

/** `clientDefaults.timeoutMs`: for completion, which must answer a TAB promptly or not at all. */
export function createDeps(io: IO, flags: ConnectionFlags, given?: Prompter, clientDefaults: { timeoutMs?: number } = {}): Deps {
  const configDir = configDirFrom(io.env)
  let loaded: Promise<ConfigFile> | undefined
  const config = () => (loaded ??= configDir.then(readConfig))
  const prompter = given ?? inquirerPrompter(io, async () => (await config()).settings.editor)

  const clientFor = (host: string, token?: ResolvedToken) =>
    new ApiClient({ host, token: token?.token, tokenHeader: token?.header, userAgent: `collab/${VERSION}`, ...clientDefaults })

  const storeAccess: StoreAccess = { configDir, env: io.env, now: io.now, clientFor: (host) => clientFor(host) }

  async function connect(host: Sourced<string> | undefined, anonymous = false): Promise<ApiClient> {
    // Host and token from flags or the environment need no config file: start-up skips reading it.
    const early = host && explicitToken(host.value, flags, io.env)
    if (early) return clientFor(host.value, early)
    const cfg = await config()
    const chosen = host ?? defaultHost(cfg)
    if (!chosen) {
      throw authRequired('no host is configured', "run 'collab auth login --host URL', or set COLLAB_HOST and COLLAB_TOKEN")
    }
    const token = await resolveStoredToken(chosen.value, flags, cfg, storeAccess)
    if (!token && anonymous) return clientFor(chosen.value)
    if (!token) throw authRequired(`not logged in to ${chosen.value}`, `run 'collab auth login --host ${chosen.value}'`)
    return clientFor(chosen.value, token)
  }

  /** The caller's username: the one stored with the token, else GET /user. */
  async function ownNamespace(api: ApiClient): Promise<string> {
    const stored = (await config()).hosts[api.host]?.user
    if (stored && !explicitToken(api.host, flags, io.env)) return stored
    if (!api.credentials()) throw usageError('a project name without a namespace needs a login', 'pass group/project, or log in first')
    return (await api.get(route('getCurrentUser', {}))).username
  }

  async function project(arg?: string, { anonymous = false } = {}): Promise<ProjectTarget> {
    const explicit = explicitHost(flags, io.env)
    const hosts = async () => {
      if (explicit) return [explicit.value]
      const cfg = await config()
      return [...new Set([cfg.default_host, ...Object.keys(cfg.hosts)].filter((h): h is string => !!h))]
    }
    const given = arg ?? projectFromEnv(io.env)?.value
    if (given !== undefined) {
      const url = /^https?:\/\//i.test(given) ? matchRemotes([{ name: 'argument', url: given }], await hosts()) : undefined
      const parsed = url ? { ref: url.project, host: url.host } : parseProjectArg(given)
      if (!parsed) throw usageError(`invalid project '${given}': expected an id, a path such as group/project, or a URL`)
      const host = explicit ?? (parsed.host ? { value: parsed.host, source: 'project URL' } : undefined)
      const api = await connect(host, anonymous)
      return { api, ref: parsed.bare ? `${await ownNamespace(api)}/${parsed.ref}` : parsed.ref }
    }
    const remote = await projectFromGitRemote(io.cwd, await hosts())
    if (!remote) {
      throw usageError(
        'could not determine the project',
        'pass -p/--project (an id or group/project), set COLLAB_PROJECT, or run inside a clone whose remote is on a configured host',
      )
    }
    const host = explicit ?? { value: remote.host, source: `git remote ${remote.remote}` }
    return { api: await connect(host, anonymous), ref: remote.project }
  }

  return {
    io,
    configDir,
    prompter,
    config,
    api: () => connect(explicitHost(flags, io.env)),
    project,
    clientFor,
    tokenFor: async (host) => resolveStoredToken(host, flags, await config(), storeAccess),
    storedTokenFor: async (host) => {
      const { COLLAB_TOKEN: _t, GITLAB_TOKEN: _g, CI_JOB_TOKEN: _j, ...env } = io.env
      return resolveStoredToken(host, {}, await config(), { ...storeAccess, env })
    },
  }
}

/**
 * Checks that the project exists and the credentials reach it before a prompt asks anything, so nothing typed is lost
 * to a typo in -p or a missing login.
 */
export async function projectBeforePrompt(deps: Deps, project: string | undefined): Promise<ProjectTarget> {
  const target = await deps.project(project)
  await target.api.call(route('getProject', { id: target.ref }), { query: { simple: true } })
  return target
}
