// Administration of users: profile changes, GitLab's state machine (block, ban, deactivate) and deletion.
import { conflict, CollabError, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import { hashPassword } from '../../../core/ids.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { transaction } from '../../store/db.js'
import { findUserNamespace } from '../../store/namespaces.js'
import * as admin from '../../store/user-admin.js'
import * as users from '../../store/users.js'
import { isReservedTopLevel, isValidPath } from '../projects/naming.js'
import { ownsVerifiedEmail } from './user-emails-status.js'
import { assignIdentity, identityParams } from './identities.js'

const GHOST_BIO = 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.'
// GitLab refuses to deactivate anyone active in the last 90 days (Users::DeactivateService).
const MINIMUM_INACTIVE_DAYS = 90

export function findUserForAdmin(ctx: RequestContext, id: number) {
  const user = users.findUserById(ctx.app.db, id)
  if (!user) throw notFound('User')
  return user
}

// The services behind ban, unban and deactivate answer render_api_error!, a bare message; the rest forbidden!.
const refused = (message: string) => new CollabError('FORBIDDEN', message, { status: 403 })

export interface UpdateUserInput {
  email?: string
  name?: string
  username?: string
  password?: string
  admin?: boolean
  [key: string]: unknown
}

const PLAIN_FIELDS = ['name', 'bio', 'location', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title', 'note', 'projects_limit', 'theme_id', 'color_scheme_id'] as const
const FLAG_FIELDS = ['can_create_group', 'external', 'private_profile'] as const

export async function updateUser(ctx: RequestContext, id: number, input: UpdateUserInput) {
  const db = ctx.app.db
  const identity = identityParams({ provider: input.provider, extern_uid: input.extern_uid })
  const user = findUserForAdmin(ctx, id)
  const otherWith = (row: users.UserRow | undefined) => row !== undefined && row.id !== user.id
  if (input.email !== undefined && otherWith(users.findUserByEmail(db, input.email))) throw conflict('Email has already been taken')
  if (input.username !== undefined && otherWith(users.findUserByUsername(db, input.username))) throw conflict('Username has already been taken')
  const errors: Record<string, string[]> = {}
  if (input.username !== undefined && (!isValidPath(input.username) || isReservedTopLevel(input.username))) errors.username = ['is invalid']
  if (input.email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(input.email)) errors.email = ['is invalid']
  if (input.password !== undefined && input.password.length < 8) errors.password = ['is too short (minimum is 8 characters)']
  if (input.name !== undefined && !input.name.trim()) errors.name = ["can't be blank"]
  for (const field of ['public_email', 'commit_email'] as const) {
    const value = input[field]
    if (typeof value === 'string' && value !== '' && !ownsVerifiedEmail(ctx, user, value)) errors[field] = ['is not an email you own']
  }
  if (Object.keys(errors).length) throw validationFailed(errors)
  const patch: Record<string, unknown> = {}
  for (const k of PLAIN_FIELDS) if (input[k] !== undefined) patch[k] = input[k]
  for (const k of FLAG_FIELDS) if (input[k] !== undefined) patch[k] = input[k] ? 1 : 0
  if (input.admin !== undefined) patch.is_admin = input.admin ? 1 : 0
  if (input.email !== undefined) patch.email = input.email
  if (input.username !== undefined) patch.username = input.username
  // An empty string clears these, as GitLab's forms send it.
  for (const k of ['public_email', 'commit_email', 'pronouns'] as const) if (typeof input[k] === 'string') patch[k] = input[k] || null
  if (input.password) patch.password_hash = await hashPassword(input.password)
  // Re-checked after the hash's await: another request may have taken the name meanwhile.
  if (input.username !== undefined && otherWith(users.findUserByUsername(db, input.username))) throw conflict('Username has already been taken')
  transaction(db, () => {
    if (identity) assignIdentity(ctx.app, user.id, identity, nowIso(ctx))
    admin.updateUserRow(db, user.id, patch)
    const ns = findUserNamespace(db, user.id)
    // The personal namespace follows the username and name, as GitLab renames it with the user.
    if (ns && (input.username !== undefined || input.name !== undefined)) {
      renameUserNamespace(ctx, ns.id, input.username ?? user.username, input.name ?? user.name)
    }
  })
  return users.findUserById(db, user.id)!
}

function renameUserNamespace(ctx: RequestContext, nsId: number, path: string, name: string) {
  try {
    admin.renameNamespace(ctx.app.db, nsId, path, name)
  } catch (err) {
    if (err instanceof Error && /UNIQUE/.test(err.message)) throw conflict('Username has already been taken')
    throw err
  }
}

/** The answers of lib/api/users.rb and the Users::*Service classes, one per action; `true` means a change was made. */
export function changeState(ctx: RequestContext, id: number, action: 'block' | 'unblock' | 'ban' | 'unban' | 'activate' | 'deactivate'): boolean | null {
  const user = findUserForAdmin(ctx, id)
  const set = (state: admin.UserState) => { admin.setUserState(ctx.app.db, user.id, state); return true }
  switch (action) {
    case 'block':
      if (user.id === ctx.user!.id) throw forbidden('The API initiating user cannot be blocked by the API')
      // GitLab's blocked? is also true of banned users: blocking them changes nothing.
      return user.state === 'blocked' || user.state === 'banned' ? null : set('blocked')
    case 'unblock':
      if (user.state === 'deactivated') throw forbidden('Deactivated users cannot be unblocked by the API')
      return user.state === 'active' ? false : set('active')
    case 'ban':
      if (user.state !== 'active') throw refused(`You cannot ban ${user.state} users.`)
      return set('banned')
    case 'unban':
      if (user.state !== 'banned') throw refused(`You cannot unban ${user.state} users.`)
      return set('active')
    case 'activate':
      if (user.state === 'blocked' || user.state === 'banned') throw forbidden('A blocked user must be unblocked to be activated')
      return user.state === 'deactivated' ? set('active') : false
    case 'deactivate':
      return deactivate(ctx, user, set)
  }
}

function deactivate(ctx: RequestContext, user: users.UserRow, set: (s: admin.UserState) => boolean) {
  if (user.state === 'deactivated') return null
  if (user.state !== 'active') throw refused('Error occurred. A blocked user cannot be deactivated')
  const cutoff = new Date(ctx.app.clock.now().getTime() - MINIMUM_INACTIVE_DAYS * 86_400_000).toISOString().slice(0, 10)
  if (user.last_activity_on !== null && user.last_activity_on > cutoff) {
    throw refused(`The user you are trying to deactivate has been active in the past ${MINIMUM_INACTIVE_DAYS} days and cannot be deactivated`)
  }
  return set('deactivated')
}

/** GitLab's User.ghost: made on first need, named ghost, ghost1, … if the name is taken. */
export function ghostUser(ctx: RequestContext): number {
  const db = ctx.app.db
  const found = admin.findGhostUser(db)
  if (found) return found.id
  let n = 0
  const name = () => (n === 0 ? 'ghost' : `ghost${n}`)
  while (users.findUserByUsername(db, name()) || users.findUserByEmail(db, `${name()}@example.com`)) n++
  return users.insertUser(db, {
    username: name(), email: `${name()}@example.com`, name: 'Ghost User', password_hash: null, bio: GHOST_BIO,
    can_create_group: 0, projects_limit: 0, created_at: nowIso(ctx),
  })
}
