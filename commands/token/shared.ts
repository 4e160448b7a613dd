// What the token verbs share: the list's columns, lifetimes (glab's --duration and --expires-at), and finding a token by
// id or by the name of an active one.
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { usageError } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import type { Owner } from '../label/owner.js'

export type AccessToken = ResponseOf<'getProjectAccessToken'>

const LEVELS: Record<number, string> = { 10: 'guest', 20: 'reporter', 30: 'developer', 40: 'maintainer', 50: 'owner' }

export const tokenColumns = (io: IO): Column<AccessToken>[] => [
  { header: 'ID', value: (t) => t.id },
  { header: 'NAME', value: (t) => t.name, style: (text) => io.color.bold(text) },
  { header: 'ACCESS LEVEL', value: (t) => (t.access_level === null ? '' : LEVELS[t.access_level] ?? String(t.access_level)) },
  { header: 'ACTIVE', value: (t) => String(t.active) },
  { header: 'REVOKED', value: (t) => String(t.revoked) },
  { header: 'CREATED', value: (t) => t.created_at, time: true },
  { header: 'EXPIRES', value: (t) => t.expires_at ?? '' },
  { header: 'LAST USED', value: (t) => t.last_used_at ?? '', time: true },
  { header: 'SCOPES', value: (t) => t.scopes.join(','), flex: true },
]

/** `guest` … `owner`, or the number. */
export function accessLevel(value: string): number {
  const named = Object.entries(LEVELS).find(([, name]) => name === value.toLowerCase())
  const level = named ? Number(named[0]) : Number(value)
  if (!(level in LEVELS)) throw new InvalidArgumentError(`expected one of ${Object.values(LEVELS).join(', ')}`)
  return level
}

/** glab's --duration: days (30d), weeks (4w) or hours in whole days (720h); at most a year. Answers days. */
export function durationDays(value: string): number {
  const m = /^(\d+)([dwh])$/.exec(value.trim())
  const days = m ? (m[2] === 'w' ? Number(m[1]) * 7 : m[2] === 'h' ? Number(m[1]) / 24 : Number(m[1])) : NaN
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new InvalidArgumentError('expected days (30d), weeks (4w) or whole days in hours (720h), at most 365d')
  return days
}

export function expiryDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('expected a date such as 2030-01-31')
  return value
}

export const withLifetime = (command: Command) => command
  .option('-D, --duration <duration>', 'lifetime: days (30d), weeks (4w) or hours in whole days (720h), at most 365d', durationDays)
  .option('-E, --expires-at <date>', 'the expiry date (YYYY-MM-DD) instead of --duration', expiryDate)

export interface Lifetime { duration?: number; expiresAt?: string }

export const lifetime = (flags: OptionValues): Lifetime => ({ duration: flags.duration, expiresAt: flags.expiresAt })

/** The expiry date to send: --expires-at, else today (UTC) plus --duration or `defaultDays`; none without a clock. */
export function expiresAt(io: IO, l: Lifetime, defaultDays?: number): string | undefined {
  if (l.duration !== undefined && l.expiresAt !== undefined) throw usageError('pass --duration or --expires-at, not both')
  if (l.expiresAt !== undefined) return l.expiresAt
  const days = l.duration ?? defaultDays
  const now = io.now?.()
  return days === undefined || now === undefined ? undefined : new Date(now + days * 86_400_000).toISOString().slice(0, 10)
}

/** A token by id, or the active token of that name. */
export async function findToken(owner: Owner, idOrName: string): Promise<AccessToken> {
  const { api, group, id } = owner
  if (/^\d+$/.test(idOrName)) return api.get(route(group ? 'getGroupAccessToken' : 'getProjectAccessToken', { id, token_id: idOrName }))
  const page = await api.list(route(group ? 'listGroupAccessTokens' : 'listProjectAccessTokens', { id }), { state: 'active', per_page: 100 }, { all: true })
  const token = page.items.find((t) => t.name === idOrName)
  if (!token) throw usageError(`no active access token named "${idOrName}" in ${id}`)
  return token
}
