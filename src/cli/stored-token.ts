// The token a command sends to a host: --token or the environment first, else what `auth login` or `collab serve`
// stored, read from the OS keyring when it is there and, for an expired OAuth token, renewed first.
import type { ApiClient } from '../client/http.js'
import type { ConfigFile } from './config.js'
import type { Env } from './io.js'
import { explicitToken, type ConnectionFlags, type ResolvedToken } from './resolve.js'

export interface StoreAccess {
  configDir: Promise<string>
  env: Env
  now?: () => number
  clientFor(host: string): ApiClient
}

export async function resolveStoredToken(host: string, flags: ConnectionFlags, config: ConfigFile, access: StoreAccess): Promise<ResolvedToken | undefined> {
  const explicit = explicitToken(host, flags, access.env)
  if (explicit) return explicit
  const entry = config.hosts[host]
  if (!entry) return undefined
  let token = entry.token
  if (entry.token_in_keyring) token = await (await import('./keyring.js')).readFromKeyring(access.env, host)
  if (!token) return undefined
  if (entry.token_type === 'oauth') {
    const { freshToken } = await import('./oauth.js')
    token = (await freshToken(await access.configDir, host, { ...entry, token }, access.clientFor(host), access.now?.() ?? 0, access.env)) ?? token
  }
  return { token, header: entry.token_type === 'oauth' ? 'Authorization' : 'PRIVATE-TOKEN', source: entry.token_in_keyring ? 'keyring' : 'config' }
}
