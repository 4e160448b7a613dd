// The CLI's config file: hosts with their tokens, the default host and settings; written 0600 in a 0700 directory.
// node:fs's promise API loads on first use (a start-up cost most commands never need), so it is reached through `fs.promises`.
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { failure, usageError } from './errors.js'
import type { Env } from './io.js'

export interface HostEntry {
  /** Absent when the token is in the OS keyring (token_in_keyring). */
  token?: string
  token_in_keyring?: boolean
  user?: string
  git_protocol?: string
  /** The data directory of the `collab serve` that stored this host: its restarts on another port take over the default. */
  serve_data?: string
  /** `oauth`: the token is an OAuth access token from `auth login --username` (sent as Bearer), renewed with refresh_token. */
  token_type?: 'oauth'
  refresh_token?: string
  /** When the OAuth access token stops working (ISO 8601). */
  expires_at?: string
}

export interface ConfigFile {
  default_host?: string
  hosts: Record<string, HostEntry>
  settings: Record<string, string>
  /** `collab alias set`: name -> command line (src/cli/aliases.ts). */
  aliases?: Record<string, string>
}

/** COLLAB_CONFIG_DIR, else env-paths' config directory: loaded only then, since a command given its host and token by
 * flags or environment may never open the config. */
export const configDirFrom = async (env: Env): Promise<string> =>
  env.COLLAB_CONFIG_DIR || (await import('../core/paths.js')).defaultConfigDir()
export const configFilePath = (dir: string) => join(dir, 'config.json')

/**
 * A host is a base URL; a bare hostname (GITLAB_HOST=gitlab.example.com) means https.
 * Trailing slashes and an `/api/v4` suffix are dropped, so every spelling keys the same entry.
 */
export function normalizeHost(value: string): string {
  let host = value.trim()
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) host = `https://${host}`
  let url: URL
  try {
    url = new URL(host)
  } catch {
    throw usageError(`invalid host '${value}': expected a URL such as http://127.0.0.1:3000 or a hostname`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`invalid host '${value}': only http and https are supported`)
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '')
  return `${url.protocol}//${url.host}${path}`
}

export async function readConfig(dir: string): Promise<ConfigFile> {
  const file = configFilePath(dir)
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { hosts: {}, settings: {} }
    throw err
  }
  let data: Partial<ConfigFile>
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw failure(`cannot read ${file}: ${(err as Error).message}`, 'fix or remove the file, then log in again')
  }
  return { ...data, hosts: data.hosts ?? {}, settings: data.settings ?? {} }
}

/** Written to a temporary file and renamed, so a crash never leaves half a config (or a token) behind. */
export async function writeConfig(dir: string, config: ConfigFile): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
  const file = configFilePath(dir)
  const { randomBytes } = await import('node:crypto')
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  const { default_host, hosts, settings, ...rest } = config
  await fs.writeFile(temp, `${JSON.stringify({ default_host, hosts, settings, ...rest }, null, 2)}\n`, { mode: 0o600 })
  await fs.chmod(temp, 0o600)
  await fs.rename(temp, file)
}

/**
 * Stores a token (and the user it belongs to) for a host; the first host stored, or with `makeDefault` this one, becomes
 * the default. With `keyring` (the environment), the token goes to the OS keyring when one answers and config.json keeps
 * only that it is there; answers where it went.
 */
export async function saveHostToken(
  configDir: string, host: string, token: string, user?: string, makeDefault = false, extra: Partial<HostEntry> = {}, keyring?: Env,
): Promise<'keyring' | 'config'> {
  const config = await readConfig(configDir)
  const key = normalizeHost(host)
  const inKeyring = keyring !== undefined && (await (await import('./keyring.js')).storeInKeyring(keyring, key, token)) === undefined
  // A new token replaces the old one's kind too: an OAuth token's refresh data never sticks to a personal access token.
  const entry: HostEntry = {
    ...config.hosts[key], token_type: undefined, refresh_token: undefined, expires_at: undefined, ...extra,
    token: inKeyring ? undefined : token, token_in_keyring: inKeyring || undefined,
  }
  if (user !== undefined) entry.user = user
  config.hosts[key] = entry
  if (makeDefault) config.default_host = key
  config.default_host ??= key
  await writeConfig(configDir, config)
  return inKeyring ? 'keyring' : 'config'
}

/** Forgets a host; when it was the default, the next remaining host (if any) takes its place. */
export function removeHost(config: ConfigFile, host: string): boolean {
  if (!(host in config.hosts)) return false
  delete config.hosts[host]
  if (config.default_host === host) {
    const next = Object.keys(config.hosts)[0]
    if (next) config.default_host = next
    else delete config.default_host
  }
  return true
}
