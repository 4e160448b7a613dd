// Credentials to callers: token and session lookups, expiry and revocation, scopes, sudo, OAuth password grant.
import { CollabError, forbidden, unauthorized } from '../../../core/errors.js'
import { newToken, sha256 } from '../../../core/ids.js'
import type { AppDeps, Caller } from '../../context.js'
import * as tokens from '../../store/tokens.js'
import * as users from '../../store/users.js'
import { cachedRead, transaction } from '../../store/db.js'
import type { ScopeRule } from '../../../contract/define.js'
import { currentSettings } from '../instance/application-settings.js'
import { checkPassword } from './password-checks.js'

const LAST_USED_RESOLUTION_MS = 10 * 60 * 1000
export const OAUTH_TTL_SECONDS = 7200

const invalidToken = (description: string) =>
  new CollabError('INVALID_TOKEN', description, {
    status: 401,
    body: { error: 'invalid_token', error_description: description },
    headers: { 'WWW-Authenticate': `Bearer realm="collab", error="invalid_token", error_description="${description}"` },
  })

function checkUsable(app: AppDeps, token: tokens.TokenRow) {
  if (token.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.')
  if (token.expires_at) {
    const now = app.clock.now()
    // PAT expiry is a date (valid through that day); OAuth expiry a timestamp.
    const end = token.expires_at.length === 10 ? new Date(`${token.expires_at}T23:59:59.999Z`) : new Date(token.expires_at)
    if (end.getTime() < now.getTime()) throw invalidToken('Token is expired. You can either do re-authorization or token refresh.')
  }
}

function activeUser(app: AppDeps, id: number) {
  const user = users.findUserById(app.db, id)
  if (!user) throw unauthorized()
  refuseInactive(user)
  return user
}

/** Its own code: git's sign-in treats a blocked user's token as no credential at all (GitLab's personal_access_token_check). */
export const userBlocked = () => new CollabError('USER_BLOCKED', '403 Forbidden - Your account has been blocked.', { status: 403 })

/** GitLab's UserAccessDeniedReason: a banned user is a blocked one; a deactivated one must sign in again on the web. */
function refuseInactive(user: users.UserRow) {
  if (user.state === 'blocked' || user.state === 'banned') throw userBlocked()
  if (user.state === 'deactivated') throw forbidden('Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account')
}

interface Credential { token: tokens.TokenRow; user: users.UserRow; scopes: string[]; lastUsed: number }

/**
 * Token and user rows are remembered by token hash until the next database write (the store's `cachedRead`), so a
 * revocation, a new password or a blocked user is seen by the very next request while the hot path skips two queries.
 */
function lookupCredential(app: AppDeps, hash: string): Credential | null {
  return cachedRead(app.db, `credential:${hash}`, ['tokens', 'users'], () => {
    const token = tokens.findTokenByHash(app.db, hash)
    if (!token) return null
    const user = users.findUserById(app.db, token.user_id)
    const lastUsed = token.last_used_at ? Date.parse(token.last_used_at) : -Infinity
    return user ? { token, user, scopes: token.scopes.split(' ').filter(Boolean), lastUsed } : null
  })
}

/** The caller a token's SHA-256 names (see `tokenHash`). */
export function callerFromToken(app: AppDeps, hash: string): Caller {
  const found = lookupCredential(app, hash)
  if (!found) throw unauthorized()
  const { token, user } = found
  checkUsable(app, token)
  refuseInactive(user)
  const now = app.clock.now().getTime()
  // Write at most every ten minutes: a write per read would cost the hot path, and GitLab does the same.
  if (now - found.lastUsed > LAST_USED_RESOLUTION_MS) tokens.touchToken(app.db, token.id, new Date(now).toISOString())
  return { user, token, scopes: found.scopes, sudoer: null }
}

export const tokenHash = (secret: string) => sha256(secret)

export function callerFromSession(app: AppDeps, sessionId: string, method: string, csrf: string | undefined): Caller | null {
  const session = tokens.findSession(app.db, sha256(sessionId))
  if (!session || Date.parse(session.expires_at) < app.clock.now().getTime()) return null
  // A cookie alone authenticates reads; writes also need the session's CSRF token, as on GitLab.
  if (method !== 'GET' && method !== 'HEAD' && csrf !== session.csrf_token) return null
  return { user: activeUser(app, session.user_id), token: null, scopes: null, sudoer: null }
}

/** A web page's caller and the session's CSRF token, which its forms carry (null: no live session). */
export function webSession(app: AppDeps, sessionId: string): { caller: Caller; csrfToken: string } | null {
  const session = tokens.findSession(app.db, sha256(sessionId))
  if (!session || Date.parse(session.expires_at) < app.clock.now().getTime()) return null
  return { caller: { user: activeUser(app, session.user_id), token: null, scopes: null, sudoer: null }, csrfToken: session.csrf_token }
}

const SCOPES_FOR: Record<ScopeRule, string[]> = {
  write: ['api'],
  read: ['api', 'read_api'],
  user: ['api', 'read_api', 'read_user'],
  // GitLab 17.9's self_rotate lets a token rotate itself and do nothing else.
  rotate: ['api', 'self_rotate'],
}

export function checkScope(caller: Caller, rule: ScopeRule) {
  if (!caller.scopes) return
  const allowed = SCOPES_FOR[rule]
  if (!caller.scopes.some((s) => allowed.includes(s))) throw insufficientScope(allowed.join(' '))
}

export const insufficientScope = (scope: string) =>
  new CollabError('INSUFFICIENT_SCOPE', 'insufficient_scope', {
    status: 403,
    body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope },
    headers: { 'WWW-Authenticate': `Bearer realm="collab", error="insufficient_scope", scope="${scope}"` },
  })

export function findUserByIdOrUsername(app: AppDeps, value: string) {
  return /^\d+$/.test(value) ? users.findUserById(app.db, Number(value)) : users.findUserByUsername(app.db, value)
}

/** Sudo, with GitLab's three failures in GitLab's order: not admin, no sudo scope, unknown user. */
export function applySudo(app: AppDeps, caller: Caller, target: string): Caller {
  if (!caller.user?.is_admin) throw forbidden('Must be admin to use sudo')
  if (!caller.token || !caller.scopes?.includes('sudo')) throw insufficientScope('sudo')
  const user = findUserByIdOrUsername(app, target)
  if (!user) throw new CollabError('USER_NOT_FOUND', `404 User with ID or username '${target}' Not Found`, { status: 404 })
  return { ...caller, user, sudoer: caller.user }
}

export interface OAuthGrant { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string; scope: string; created_at: number }

const invalidGrant = () => new CollabError('INVALID_GRANT', 'invalid_grant', {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.' },
})

const KNOWN_SCOPES = new Set(['api', 'read_api', 'read_user', 'sudo', 'read_repository', 'write_repository'])

function issueOAuthToken(app: AppDeps, userId: number, scopes: string[]): OAuthGrant {
  const now = app.clock.now()
  const access = newToken('')
  const refresh = newToken('')
  tokens.insertToken(app.db, {
    user_id: userId, kind: 'oauth', name: 'oauth', token_hash: sha256(access), refresh_hash: sha256(refresh),
    scopes: scopes.join(' '), expires_at: new Date(now.getTime() + OAUTH_TTL_SECONDS * 1000).toISOString(), created_at: now.toISOString(),
  })
  return { access_token: access, token_type: 'Bearer', expires_in: OAUTH_TTL_SECONDS, refresh_token: refresh, scope: scopes.join(' '), created_at: Math.floor(now.getTime() / 1000) }
}

/** A form or JSON field as text; an object or array (qs and JSON make them of any field) is no credential. */
export const credentialText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined

export async function oauthGrant(app: AppDeps, params: Record<string, unknown>): Promise<OAuthGrant> {
  const requested = params.scope === undefined ? 'api' : credentialText(params.scope)
  const scopes = (requested ?? '').split(/[\s+]+/).filter(Boolean)
  if (requested === undefined || !scopes.every((s) => KNOWN_SCOPES.has(s))) {
    throw new CollabError('INVALID_SCOPE', 'invalid_scope', { status: 400, body: { error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' } })
  }
  if (params.grant_type === 'password') {
    // GitLab finds no user by password at all when password authentication for the web is off.
    if (!currentSettings(app).password_authentication_enabled_for_web) throw invalidGrant()
    const login = credentialText(params.username) ?? ''
    const user = users.findUserByUsername(app.db, login) ?? users.findUserByEmail(app.db, login)
    if (!user || user.state !== 'active' || !(await checkPassword(app, credentialText(params.password) ?? '', user.password_hash))) throw invalidGrant()
    return transaction(app.db, () => {
      users.touchUserSignIn(app.db, user.id, app.clock.now().toISOString())
      return issueOAuthToken(app, user.id, scopes)
    })
  }
  if (params.grant_type === 'refresh_token') {
    const old = tokens.findTokenByRefreshHash(app.db, sha256(credentialText(params.refresh_token) ?? ''))
    if (!old || old.revoked) throw invalidGrant()
    // One unit: a failure after the revocation must not leave the client with neither the old pair nor a new one.
    return transaction(app.db, () => {
      tokens.revokeToken(app.db, old.id)
      return issueOAuthToken(app, old.user_id, old.scopes.split(' '))
    })
  }
  throw new CollabError('UNSUPPORTED_GRANT', 'unsupported_grant_type', {
    status: 400, body: { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' },
  })
}

export function revokeOAuthToken(app: AppDeps, secret: string) {
  const hash = sha256(secret)
  const token = tokens.findTokenByHash(app.db, hash) ?? tokens.findTokenByRefreshHash(app.db, hash)
  if (token?.kind === 'oauth') tokens.revokeToken(app.db, token.id)
}

export interface SignIn { sessionId: string; csrfToken: string; expiresAt: string; userId: number }

export async function signIn(app: AppDeps, login: string, password: string): Promise<SignIn | null> {
  const settings = currentSettings(app)
  if (!settings.password_authentication_enabled_for_web) return null
  const user = users.findUserByUsername(app.db, login) ?? users.findUserByEmail(app.db, login)
  if (!user || user.state !== 'active' || !(await checkPassword(app, password, user.password_hash))) return null
  const now = app.clock.now()
  const sessionId = newToken('')
  const csrfToken = newToken('')
  // session_expire_delay is in minutes; GitLab needs a restart to apply it, collab applies it to the next sign-in.
  const expiresAt = new Date(now.getTime() + settings.session_expire_delay * 60_000).toISOString()
  transaction(app.db, () => {
    tokens.insertSession(app.db, { id_hash: sha256(sessionId), user_id: user.id, csrf_token: csrfToken, created_at: now.toISOString(), expires_at: expiresAt })
    users.touchUserSignIn(app.db, user.id, now.toISOString())
  })
  return { sessionId, csrfToken, expiresAt, userId: user.id }
}

export const signOut = (app: AppDeps, sessionId: string) => tokens.deleteSession(app.db, sha256(sessionId))

/** GitLab's answer to an account password over git when password_authentication_enabled_for_git is off; git prints it. */
export const gitPasswordRefused = () => new CollabError('GIT_PASSWORD_DISABLED',
  "HTTP Basic: Access denied\nYou must use a personal access token with 'read_repository' or 'write_repository' scope for Git over HTTP.", {
    status: 401, headers: { 'WWW-Authenticate': 'Basic realm="collab"' },
  })

/**
 * Git over HTTP with `login:password` where the password is the account's (not a token): the caller, or null when
 * they do not match; refused outright while password_authentication_enabled_for_git is off, as GitLab does.
 */
export async function callerFromGitPassword(app: AppDeps, login: string, password: string): Promise<Caller | null> {
  const user = users.findUserByUsername(app.db, login) ?? users.findUserByEmail(app.db, login)
  if (!user || user.state !== 'active' || !(await checkPassword(app, password, user.password_hash))) return null
  if (!currentSettings(app).password_authentication_enabled_for_git) throw gitPasswordRefused()
  return { user, token: null, scopes: null, sudoer: null }
}
