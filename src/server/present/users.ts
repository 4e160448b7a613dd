// Users and tokens as GitLab serializes them.
import type { PersonalAccessToken, User, UserBasic, UserPublic } from '../../contract/entities/users.js'
import { userAvatarUrl as avatarUrlAt } from '../../core/avatar-url.js'
import type { RequestContext } from '../context.js'
import type { IdentityRow } from '../store/identities.js'
import type { TokenRow } from '../store/tokens.js'
import type { UserRow } from '../store/users.js'

type Urls = Pick<RequestContext, 'baseUrl'>

/** A user's avatar or identicon under the request's base URL (core/avatar-url.ts has the rule). */
export const userAvatarUrl = (u: Pick<UserRow, 'id' | 'avatar_path'>, ctx: Urls) => avatarUrlAt(ctx.baseUrl, u)

export const presentUserBasic = (u: UserRow, ctx: Urls): UserBasic => ({
  id: u.id,
  username: u.username,
  name: u.name,
  state: u.state,
  avatar_url: userAvatarUrl(u, ctx),
  web_url: `${ctx.baseUrl}/${u.username}`,
})

export const presentUser = (u: UserRow, ctx: Urls): User => ({
  ...presentUserBasic(u, ctx),
  created_at: u.created_at,
  bio: u.bio,
  location: u.location,
  public_email: u.public_email ?? null,
  skype: u.skype,
  linkedin: u.linkedin,
  twitter: u.twitter,
  website_url: u.website_url,
  organization: u.organization,
  job_title: u.job_title,
  pronouns: u.pronouns ?? null,
  bot: u.user_type === 'project_bot',
  work_information: null,
  followers: 0,
  following: 0,
  local_time: null,
})

/** What the public entity shows beyond the row: GitLab's projects_limit_left > 0 (it counts personal projects), identities. */
export interface UserPublicFacts { canCreateProject: boolean; identities: IdentityRow[] }

/** The entity of GET /user and of admin reads; `is_admin` and `note` only for administrators. */
export function presentUserPublic(u: UserRow, ctx: Urls & { user: UserRow | null }, facts: UserPublicFacts): UserPublic {
  const out: UserPublic = {
    ...presentUser(u, ctx),
    last_sign_in_at: u.last_sign_in_at,
    confirmed_at: u.created_at,
    last_activity_on: u.last_activity_on,
    email: u.email,
    theme_id: u.theme_id ?? 1,
    color_scheme_id: u.color_scheme_id ?? 1,
    projects_limit: u.projects_limit,
    current_sign_in_at: u.last_sign_in_at,
    identities: facts.identities.map((i) => ({ provider: i.provider, extern_uid: i.extern_uid, saml_provider_id: i.saml_provider_id })),
    // External users create no groups whatever the flag says (GitLab clears it when it makes them external).
    can_create_group: u.can_create_group === 1 && u.external !== 1,
    can_create_project: facts.canCreateProject,
    two_factor_enabled: false,
    external: u.external === 1,
    private_profile: u.private_profile === 1,
    commit_email: u.commit_email ?? u.email,
  }
  if (ctx.user?.is_admin) {
    out.is_admin = u.is_admin === 1
    out.note = u.note
  }
  return out
}

export function presentToken(t: TokenRow, now: Date, plain?: string): PersonalAccessToken {
  const expired = t.expires_at !== null && Date.parse(`${t.expires_at}T23:59:59.999Z`) < now.getTime()
  const out: PersonalAccessToken = {
    id: t.id,
    name: t.name,
    revoked: t.revoked === 1,
    created_at: t.created_at,
    scopes: t.scopes.split(' ').filter(Boolean),
    user_id: t.user_id,
    last_used_at: t.last_used_at,
    active: t.revoked === 0 && !expired,
    expires_at: t.expires_at,
  }
  if (t.kind === 'impersonation') out.impersonation = true
  if (plain !== undefined) out.token = plain
  return out
}
