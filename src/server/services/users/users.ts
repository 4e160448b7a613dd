// Users and their tokens: reads, admin creation, token issue and revocation, and the first-start administrator.
import { badRequest, conflict, CollabError, forbidden, notFound, unauthorized, validationFailed } from '../../../core/errors.js'
import { hashPassword, hashPasswordSync, newToken, sha256 } from '../../../core/ids.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { isAdmin, isExternalUser } from '../../policy.js'
import { insertNamespace } from '../../store/namespaces.js'
import * as tokens from '../../store/tokens.js'
import * as users from '../../store/users.js'
import { currentSettings, publicVisibilityRestricted } from '../instance/application-settings.js'
import { isReservedTopLevel, isValidPath } from '../projects/naming.js'
import { transaction } from '../../store/db.js'
import { emitUserSystemEvent } from '../hooks/webhook-system-events.js'
import { countPersonalProjects } from '../../store/projects.js'
import { assignIdentity, identityParams, userIdentities, type IdentityParams } from './identities.js'

export function getUser(ctx: RequestContext, id: number) {
  const user = users.findUserById(ctx.app.db, id)
  // With the public level restricted, profiles are for signed-in users only (GitLab's read_user).
  if (!user || (!ctx.user && publicVisibilityRestricted(ctx.app))) throw notFound('User')
  return user
}

export function listUsers(ctx: RequestContext, f: Omit<users.UserFilters, 'limit' | 'offset' | 'identity'> & IdentityParams) {
  const { provider, extern_uid, ...filters } = f
  const identity = identityParams({ provider, extern_uid })
  // Looking users up by their external identity is for administrators (GitLab's authenticated_as_admin!).
  if (identity && !isAdmin(ctx)) throw ctx.user ? forbidden() : unauthorized()
  // Anonymous callers may only look a user up by username (GitLab refuses them the list of everyone), and not at all
  // with the public level restricted.
  if (!ctx.user && (f.username === undefined || publicVisibilityRestricted(ctx.app))) throw forbidden('Not authorized to access /api/v4/users')
  return users.listUsers(ctx.app.db, {
    ...filters, identity: identity ?? undefined, admins: isAdmin(ctx) ? f.admins : undefined, limit: ctx.page.limit, offset: ctx.page.offset,
  })
}

export interface CreateUserInput {
  email: string
  name: string
  username: string
  password?: string
  reset_password?: boolean
  force_random_password?: boolean
  admin?: boolean
  [key: string]: unknown
}

const PROFILE_FIELDS = ['bio', 'location', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title', 'note', 'pronouns', 'public_email', 'commit_email'] as const

export async function createUser(app: AppDeps, input: CreateUserInput, at: string): Promise<users.UserRow> {
  const identity = identityParams({ provider: input.provider, extern_uid: input.extern_uid })
  if (!input.password && !input.reset_password && !input.force_random_password) {
    throw validationFailed({ password: ["can't be blank"] })
  }
  const errors: Record<string, string[]> = {}
  if (!isValidPath(input.username) || isReservedTopLevel(input.username)) errors.username = ['is invalid']
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) errors.email = ['is invalid']
  if (input.password !== undefined && input.password.length < 8) errors.password = ['is too short (minimum is 8 characters)']
  // A new user owns one email, the primary: the public and commit emails can only be it.
  for (const field of ['public_email', 'commit_email'] as const) {
    const value = input[field]
    if (typeof value === 'string' && value !== '' && value.toLowerCase() !== input.email.toLowerCase()) errors[field] = ['is not an email you own']
  }
  if (Object.keys(errors).length) throw validationFailed(errors)
  // Hashed before the uniqueness checks, so they and the insert run in one turn and no other request slips between them.
  const passwordHash = input.password ? await hashPassword(input.password) : null
  // One transaction: a taken identity leaves no user behind.
  const user = transaction(app.db, () => {
    const created = insertNewUser(app, input, passwordHash, at)
    if (identity) assignIdentity(app, created.id, identity, at)
    return created
  })
  emitUserSystemEvent(app, 'user_create', user)
  return user
}

function insertNewUser(app: AppDeps, input: CreateUserInput, passwordHash: string | null, at: string): users.UserRow {
  if (users.findUserByEmail(app.db, input.email)) throw conflict('Email has already been taken')
  if (users.findUserByUsername(app.db, input.username)) throw conflict('Username has already been taken')
  const profile = Object.fromEntries(PROFILE_FIELDS.filter((k) => typeof input[k] === 'string' && !(k.endsWith('_email') && input[k] === '')).map((k) => [k, input[k] as string]))
  // New users take the instance's defaults unless the administrator creating them says otherwise.
  const settings = currentSettings(app)
  return transaction(app.db, () => {
    const id = users.insertUser(app.db, {
      username: input.username,
      email: input.email,
      name: input.name,
      password_hash: passwordHash,
      is_admin: input.admin ? 1 : 0,
      created_at: at,
      ...profile,
      projects_limit: typeof input.projects_limit === 'number' ? input.projects_limit : settings.default_projects_limit,
      ...(typeof input.can_create_group === 'boolean' ? { can_create_group: input.can_create_group ? 1 : 0 } : {}),
      external: (typeof input.external === 'boolean' ? input.external : settings.user_default_external) ? 1 : 0,
      ...(typeof input.theme_id === 'number' ? { theme_id: input.theme_id } : {}),
      ...(typeof input.color_scheme_id === 'number' ? { color_scheme_id: input.color_scheme_id } : {}),
      ...(typeof input.private_profile === 'boolean' ? { private_profile: input.private_profile ? 1 : 0 } : {}),
    })
    // A namespace path may collide with a group's: the username wins only if free, as GitLab refuses otherwise.
    try {
      insertNamespace(app.db, { kind: 'user', name: input.name, path: input.username, full_path: input.username, full_name: input.name,
        parent_id: null, owner_id: id, description: '', visibility: 'public', created_at: at })
    } catch (err) {
      if (err instanceof Error && /UNIQUE/.test(err.message)) throw conflict('Username has already been taken')
      throw err
    }
    return users.findUserById(app.db, id)!
  })
}

/** GitLab's can_create_project?: personal projects still allowed under the user's projects_limit (0 for external users). */
export const canCreateProject = (app: AppDeps, u: users.UserRow) =>
  !isExternalUser(u) && countPersonalProjects(app.db, u.id) < u.projects_limit

/** What presentUserPublic shows beyond the row. */
export const publicFacts = (app: AppDeps, u: users.UserRow) => ({ canCreateProject: canCreateProject(app, u), identities: userIdentities(app, u.id) })

export interface TokenInput { name: string; scopes: string[]; expires_at?: string; description?: string | null }

export function createToken(app: AppDeps, userId: number, kind: 'personal' | 'impersonation', input: TokenInput, plain = newToken()) {
  if (!users.findUserById(app.db, userId)) throw notFound('User')
  const now = app.clock.now()
  if (input.expires_at && input.expires_at < now.toISOString().slice(0, 10)) {
    throw validationFailed({ expires_at: ['must be in the future'] })
  }
  const id = tokens.insertToken(app.db, {
    user_id: userId, kind, name: input.name, token_hash: sha256(plain),
    scopes: [...new Set(input.scopes)].join(' '), expires_at: input.expires_at ?? null, created_at: now.toISOString(),
    description: input.description ?? null,
  })
  return { row: tokens.findTokenById(app.db, id)!, plain }
}

/** PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS, with expiry required as GitLab 17 has it by default. */
const MAX_LIFETIME_DAYS = 365
// PersonalAccessTokens::RotateService::EXPIRATION_PERIOD: a rotated token without a date lives a week.
const ROTATED_LIFETIME_DAYS = 7

const daysFromToday = (app: AppDeps, days: number) => new Date(app.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10)

/**
 * The expiry date a new token gets under GitLab's required expiry: the given one, which may be at most a year away
 * (the model's "Expires at must be before …", answered as a 400), or `defaultDays` from today.
 */
export function requiredExpiry(app: AppDeps, expiresAt: string | undefined, defaultDays = MAX_LIFETIME_DAYS): string {
  const latest = daysFromToday(app, MAX_LIFETIME_DAYS)
  if (expiresAt && expiresAt > latest) throw badRequest(`Expires at must be before ${latest}`)
  return expiresAt ?? daysFromToday(app, defaultDays)
}

/**
 * PersonalAccessTokens::RotateService: one transaction revokes the token and makes its successor (same owner, kind,
 * name, description and scopes) with a new secret; answers the successor and its secret.
 */
export function rotateToken(app: AppDeps, token: tokens.TokenRow, expiresAt: string | undefined) {
  if (token.revoked) throw badRequest('Token already revoked')
  if (token.kind === 'oauth') throw notFound('Personal Access Token')
  const expires = requiredExpiry(app, expiresAt, ROTATED_LIFETIME_DAYS)
  return transaction(app.db, () => {
    tokens.revokeToken(app.db, token.id)
    return createToken(app, token.user_id, token.kind as 'personal' | 'impersonation', {
      name: token.name, scopes: token.scopes.split(' ').filter(Boolean), expires_at: expires, description: token.description,
    })
  })
}

export function listTokens(ctx: RequestContext, kind: 'personal' | 'impersonation', userId: number | undefined, active?: boolean) {
  if (!isAdmin(ctx)) {
    if (userId !== undefined && userId !== ctx.user!.id) throw forbidden()
    userId = ctx.user!.id
  }
  return tokens.listTokens(ctx.app.db, { userId, kind, active, today: nowIso(ctx).slice(0, 10), limit: ctx.page.limit, offset: ctx.page.offset })
}

export function revokeToken(ctx: RequestContext, tokenId: number, kind: 'personal' | 'impersonation', userId?: number) {
  const token = tokens.findTokenById(ctx.app.db, tokenId)
  const mine = token && token.user_id === ctx.user!.id
  if (!token || token.kind !== kind || (userId !== undefined && token.user_id !== userId) || (!mine && !isAdmin(ctx))) {
    throw notFound(kind === 'personal' ? 'Personal Access Token' : 'Impersonation Token')
  }
  if (token.revoked) throw new CollabError('TOKEN_REVOKED', '400 Bad request - Token already revoked', { status: 400 })
  tokens.revokeToken(ctx.app.db, token.id)
}

export const notFoundForAdmin = () => new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })

/**
 * A personal access token the caller may rotate: their own, or anyone's for an administrator. Only administrators
 * learn that a token does not exist (404); everyone else is refused alike (401), as GitLab answers.
 */
export function tokenToManage(ctx: RequestContext, tokenId: number) {
  const token = tokens.findTokenById(ctx.app.db, tokenId)
  if (token && token.kind !== 'oauth' && (token.user_id === ctx.user!.id || isAdmin(ctx))) return token
  throw isAdmin(ctx) ? notFoundForAdmin() : unauthorized()
}

export function currentToken(ctx: RequestContext) {
  if (!ctx.token || ctx.token.kind === 'oauth') throw notFound('Personal Access Token')
  return ctx.token
}

/**
 * On a fresh database: the administrator `root` and a token with scopes api and sudo.
 * On an existing one, a given token is added for root if it is new, so scripts can pin it.
 */
export function bootstrapRoot(app: AppDeps, givenToken: string | undefined): { created: string | null; token: string | null } {
  const at = nowIso({ app })
  if (users.countUsers(app.db) === 0) {
    const root = insertNewUser(app, {
      username: 'root', name: 'Administrator', email: 'root@localhost', admin: true, force_random_password: true,
    }, null, at)
    const { plain } = createToken(app, root.id, 'personal', { name: 'collab serve', scopes: ['api', 'sudo'] }, givenToken ?? newToken())
    return { created: givenToken ? null : plain, token: plain }
  }
  if (givenToken && !tokens.findTokenByHash(app.db, sha256(givenToken))) {
    const root = users.findUserByUsername(app.db, 'root')
    if (root) createToken(app, root.id, 'personal', { name: 'collab serve', scopes: ['api', 'sudo'] }, givenToken)
  }
  return { created: null, token: givenToken ?? null }
}

export function setRootPassword(app: AppDeps, password: string) {
  const root = users.findUserByUsername(app.db, 'root')
  if (root) users.setPassword(app.db, root.id, hashPasswordSync(password))
}
