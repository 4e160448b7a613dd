// Project and group access tokens (GitLab's ResourceAccessTokens services): a bot user per token, a member of the
// project or group at the token's level, holding one personal access token. Revoking deletes the bot.
import { randomBytes } from 'node:crypto'
import { badRequest, notFound, unauthorized } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { effectiveGroupLevel, effectiveProjectLevel, isAdmin, isExternal, MAINTAINER, OWNER } from '../../policy.js'
import { transaction } from '../../store/db.js'
import * as members from '../../store/members.js'
import * as store from '../../store/resource-access-tokens.js'
import * as users from '../../store/users.js'
import { sourceOf, type Target } from './members.js'
import { deleteUser } from '../users/user-delete.js'
import { createToken, notFoundForAdmin, requiredExpiry, rotateToken } from '../users/users.js'

export type { Target }

export const resourceOf = (t: Target): store.Resource =>
  t.kind === 'project' ? { kind: 'project', id: t.project.id } : { kind: 'group', id: t.group.id }

/** Administrators count as owners (GitLab's max_member_access_for_user for an admin). */
const callerLevel = (ctx: RequestContext, t: Target) =>
  t.kind === 'project' ? effectiveProjectLevel(ctx, t.project) : effectiveGroupLevel(ctx, t.group)

/** GitLab's admin_project (Maintainer) for a project's tokens, admin_group (Owner) for a group's. */
const mayManage = (ctx: RequestContext, t: Target) => callerLevel(ctx, t) >= (t.kind === 'project' ? MAINTAINER : OWNER)

const tokenNotFound = (t: Target) => notFound(`${t.kind} Access Token`)

export function listAccessTokens(ctx: RequestContext, t: Target, f: { state?: 'active' | 'inactive'; revoked?: boolean; search?: string }) {
  if (!mayManage(ctx, t)) throw unauthorized()
  const active = f.state === 'active' ? true : f.state === 'inactive' ? false : undefined
  return store.listResourceTokens(ctx.app.db, resourceOf(t), {
    active, revoked: f.revoked, search: f.search, today: nowIso(ctx).slice(0, 10), limit: ctx.page.limit, offset: ctx.page.offset,
  })
}

export function getAccessToken(ctx: RequestContext, t: Target, tokenId: number) {
  if (!mayManage(ctx, t)) throw unauthorized()
  const token = store.findResourceToken(ctx.app.db, resourceOf(t), tokenId)
  if (!token) throw tokenNotFound(t)
  return token
}

export interface CreateAccessTokenInput {
  name: string
  description?: string
  scopes: string[]
  expires_at?: string
  access_level?: number
}

/** GitLab's Gitlab::Utils::UsernameAndEmailGenerator: `project_<id>_bot_<32 hex>` at `noreply.<host>`. */
function botIdentity(ctx: RequestContext, t: Target) {
  const username = `${t.kind}_${resourceOf(t).id}_bot_${randomBytes(16).toString('hex')}`
  return { username, email: `${username}@noreply.${new URL(ctx.baseUrl).hostname}` }
}

/** ResourceAccessTokens::CreateService, its refusals as its 400s. */
export function createAccessToken(ctx: RequestContext, t: Target, input: CreateAccessTokenInput) {
  // GitLab's policies keep a bot from making bots: such a token cannot create access tokens.
  if (!mayManage(ctx, t) || ctx.user!.user_type === 'project_bot') {
    throw badRequest(`User does not have permission to create ${t.kind} access token`)
  }
  const level = input.access_level ?? MAINTAINER
  if (level > callerLevel(ctx, t)) throw badRequest('Access level of the token contains permissions not held by the creating user')
  // The token model's presence validation, answered as its full message.
  if (!input.name.trim()) throw badRequest("Name can't be blank")
  const expiresAt = requiredExpiry(ctx.app, input.expires_at)
  const db = ctx.app.db
  const at = nowIso(ctx)
  return transaction(db, () => {
    const { username, email } = botIdentity(ctx, t)
    // No password: a bot signs in nowhere but through its token.
    const botId = users.insertUser(db, {
      username, email, name: input.name, password_hash: null, created_at: at, user_type: 'project_bot',
      // A bot made by an external user is external too, so it reaches no more than its maker.
      external: isExternal(ctx) ? 1 : 0,
    })
    store.insertBot(db, botId, resourceOf(t))
    members.insertMember(db, sourceOf(t), { user_id: botId, access_level: level, created_at: at, expires_at: null })
    const { row, plain } = createToken(ctx.app, botId, 'personal', {
      name: input.name, scopes: input.scopes, expires_at: expiresAt, description: input.description ?? null,
    })
    return { token: { ...row, access_level: level }, plain }
  })
}

/** ResourceAccessTokens::RevokeService: the token is revoked and its bot deleted, its contributions moved to the ghost user. */
export async function revokeAccessToken(ctx: RequestContext, t: Target, tokenId: number) {
  const token = store.findResourceToken(ctx.app.db, resourceOf(t), tokenId)
  if (!token) throw tokenNotFound(t)
  const bot = users.findUserById(ctx.app.db, token.user_id)!
  if (!mayManage(ctx, t)) throw badRequest(`${ctx.user!.name} cannot delete ${bot.name}`)
  if (token.access_level === null) throw badRequest('Failed to find bot user')
  await deleteUser(ctx, bot.id, false)
}

/** The rotate endpoint and ProjectAccessTokens/GroupAccessTokens::RotateService. */
export function rotateAccessToken(ctx: RequestContext, t: Target, tokenId: number, expiresAt: string | undefined) {
  const token = mayManage(ctx, t) ? store.findResourceToken(ctx.app.db, resourceOf(t), tokenId) : undefined
  // Only administrators learn that a token does not exist; everyone else is refused alike.
  if (!token) throw isAdmin(ctx) ? notFoundForAdmin() : unauthorized()
  if (token.revoked) throw badRequest('Token already revoked')
  if (!isAdmin(ctx) && (token.access_level ?? 0) > callerLevel(ctx, t)) {
    throw badRequest('Not eligible to rotate tokens with permissions not held by the user')
  }
  const { row, plain } = rotateToken(ctx.app, token, expiresAt)
  return { token: { ...row, access_level: token.access_level }, plain }
}
