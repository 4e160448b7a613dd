// User shapes of api-v4.md and compat-notes §2: UserBasic, the public /user entity, the admin entity, tokens.
import { z } from 'zod'

const nstr = z.string().nullable()

export const UserBasic = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  state: z.enum(['active', 'blocked', 'banned', 'deactivated']),
  avatar_url: nstr,
  web_url: z.string(),
})
export type UserBasic = z.infer<typeof UserBasic>

export const User = UserBasic.extend({
  created_at: z.string(),
  bio: z.string(),
  location: z.string(),
  public_email: nstr,
  skype: z.string(),
  linkedin: z.string(),
  twitter: z.string(),
  website_url: z.string(),
  organization: z.string(),
  job_title: z.string(),
  pronouns: nstr,
  bot: z.boolean(),
  work_information: nstr,
  followers: z.number().int(),
  following: z.number().int(),
  local_time: nstr,
})
export type User = z.infer<typeof User>

/** Entities::Identity with EE's saml_provider_id. */
export const Identity = z.object({ provider: z.string(), extern_uid: z.string(), saml_provider_id: z.number().int().nullable() })

export const UserPublic = User.extend({
  last_sign_in_at: nstr,
  confirmed_at: nstr,
  last_activity_on: nstr,
  email: z.string(),
  theme_id: z.number().int(),
  color_scheme_id: z.number().int(),
  projects_limit: z.number().int(),
  current_sign_in_at: nstr,
  identities: z.array(Identity),
  can_create_group: z.boolean(),
  can_create_project: z.boolean(),
  two_factor_enabled: z.boolean(),
  external: z.boolean(),
  private_profile: z.boolean(),
  commit_email: z.string(),
  is_admin: z.boolean().optional(),
  note: nstr.optional(),
})
export type UserPublic = z.infer<typeof UserPublic>

export const PersonalAccessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  revoked: z.boolean(),
  created_at: z.string(),
  scopes: z.array(z.string()),
  user_id: z.number().int(),
  last_used_at: nstr,
  active: z.boolean(),
  expires_at: nstr,
  impersonation: z.boolean().optional(),
  token: z.string().optional(),
})
export type PersonalAccessToken = z.infer<typeof PersonalAccessToken>

export const Version = z.object({ version: z.string(), revision: z.string(), kas: z.object({ enabled: z.boolean(), externalUrl: nstr, version: nstr }), enterprise: z.boolean() })

export const OAuthToken = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string(),
  scope: z.string(),
  created_at: z.number().int(),
})
