// Who writes each copied item on the target. Users are matched by username. With an administrator's token that
// has the `sudo` scope, an item is written as its author when that user exists on the target and may set
// history there (`created_at`, an issue's `iid`: administrators and the project's owners, as GitLab and collab
// serve both require); otherwise the token's user writes it and the text starts with GitLab's importer header.
import { route } from '../../src/client/paths.js'
import { at } from './migrate-context.js'
import type { Side } from './migrate-side.js'
import { statusOf } from './migrate-side.js'

interface TargetUser {
  id: number
  username: string
  state?: string
  is_admin?: boolean
}

export interface Writer {
  /** The username to send as `Sudo`, when not the token's own user. */
  sudo?: string
  /** Whether the target will show the original author (and keep `created_at`). */
  kept: boolean
}

export interface People {
  /** Who writes an item authored by `username` (history: iid and created_at) on the target project. */
  author(username: string): Promise<Writer>
  /** Who awards an emoji for `username` (any user who exists on the target); undefined when nobody can. */
  awarder(username: string): Promise<Writer | undefined>
  /** The target's user id for a source username (assignees, reviewers). */
  userId(username: string): Promise<number | undefined>
  /** The token's user on the target. */
  readonly me: string
  readonly sudo: boolean
}

const OWNER = 50

export async function people(target: Side, projectId: () => number): Promise<People> {
  const me = await target.get<TargetUser>(route('getCurrentUser', {}))
  let sudo = false
  if (me.is_admin) {
    // GitLab answers 404 here before 15.5; such a token is tried without sudo.
    const token = await target.find<{ scopes?: string[] }>(route('getCurrentPersonalAccessToken', {}))
    sudo = token?.scopes?.includes('sudo') === true
  }
  const users = new Map<string, Promise<TargetUser | undefined>>()
  const lookup = (username: string) => {
    let found = users.get(username)
    if (!found) {
      found = target.get<TargetUser[]>(route('listUsers', {}), { username }).then((list) => list.find((u) => u.username.toLowerCase() === username.toLowerCase()))
      users.set(username, found)
    }
    return found
  }
  const owners = new Map<number, Promise<boolean>>()
  const ownsProject = (user: TargetUser) => {
    let owns = owners.get(user.id)
    if (!owns) {
      owns = target.get<{ access_level: number }>(at('getAllProjectMember', { id: projectId(), user_id: user.id }))
        .then((m) => m.access_level >= OWNER, (err) => (statusOf(err) === 404 ? false : Promise.reject(err)))
      owners.set(user.id, owns)
    }
    return owns
  }
  const active = (user: TargetUser | undefined): user is TargetUser => !!user && (user.state === undefined || user.state === 'active')
  return {
    me: me.username,
    sudo,
    async author(username) {
      if (username === me.username) return { kept: true }
      if (!sudo) return { kept: false }
      const user = await lookup(username)
      if (!active(user)) return { kept: false }
      if (user.is_admin || (await ownsProject(user))) return { sudo: user.username, kept: true }
      return { kept: false }
    },
    async awarder(username) {
      if (username === me.username) return { kept: true }
      if (!sudo) return undefined
      const user = await lookup(username)
      return active(user) ? { sudo: user.username, kept: true } : undefined
    },
    async userId(username) {
      if (username === me.username) return me.id
      return (await lookup(username))?.id
    },
  }
}

/**
 * GitLab's importers' header for an item whose author the target cannot show ("*Created by: username*"), with the
 * original time when the target cannot keep that either.
 */
export function authorHeader(username: string, authorKept: boolean, createdAt: string, dateKept: boolean): string {
  if (authorKept && dateKept) return ''
  if (authorKept) return `*Created at: ${createdAt}*\n\n`
  return dateKept ? `*Created by: ${username}*\n\n` : `*Created by: ${username} at ${createdAt}*\n\n`
}
