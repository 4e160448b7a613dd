// OAuth tokens for `collab auth login --username`: the password grant that makes one, and the refresh grant that
// renews it when it has expired (GitLab's and collab serve's last two hours), stored back in config.json.
import type { ApiClient } from '../client/http.js'
import { saveHostToken, type HostEntry } from './config.js'
import { authRequired } from './errors.js'
import type { Env } from './io.js'

interface Grant { access_token: string; refresh_token?: string; expires_in?: number }

export interface OAuthToken { token: string; extra: Partial<HostEntry> }

/** POST /oauth/token on the instance (outside /api/v4); a refused grant is an authentication failure (exit 4). */
async function grant(client: ApiClient, body: Record<string, string>, now?: number): Promise<OAuthToken> {
  const response = await client.request('POST', `${client.host}/oauth/token`, { json: body, throwOnError: false })
  let data: Partial<Grant> & { error?: string; error_description?: string } = {}
  try {
    data = JSON.parse(response.text)
  } catch {
    // An HTML 404 from an instance without OAuth: said below.
  }
  if (response.status !== 200 || !data.access_token) {
    const reason = data.error_description ?? data.error ?? `HTTP ${response.status}`
    throw authRequired(`${client.host} refused the ${body.grant_type} grant: ${reason}`, body.grant_type === 'password'
      ? 'check the username and password; the instance must allow password sign-in, else log in with --token'
      : `log in again: collab auth login --host ${client.host} --username USER`)
  }
  const extra: Partial<HostEntry> = { token_type: 'oauth', refresh_token: data.refresh_token }
  if (data.expires_in && now !== undefined) extra.expires_at = new Date(now + data.expires_in * 1000).toISOString()
  return { token: data.access_token, extra }
}

export const passwordGrant = (client: ApiClient, username: string, password: string, now?: number) =>
  grant(client, { grant_type: 'password', username, password }, now)

/** A stored OAuth token that has expired is renewed (a minute early) and saved; any other entry is left alone. */
export async function freshToken(configDir: string, host: string, entry: HostEntry, client: ApiClient, now: number, keyring?: Env): Promise<string | undefined> {
  if (entry.token_type !== 'oauth' || !entry.expires_at || Date.parse(entry.expires_at) - 60_000 > now || !entry.refresh_token) return entry.token
  const renewed = await grant(client, { grant_type: 'refresh_token', refresh_token: entry.refresh_token }, now)
  await saveHostToken(configDir, host, renewed.token, entry.user, false, renewed.extra, keyring)
  return renewed.token
}
