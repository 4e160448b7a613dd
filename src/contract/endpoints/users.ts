// Users and their tokens (compat-notes §2).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { PersonalAccessToken, User, UserBasic, UserPublic } from '../entities/users.js'
import { bool, dateOnly, int, list, oneOf, str, text } from '../params.js'
import { avatarFile } from './user-admin.js'

const UserId = { id: int() }
const Scope = oneOf(['api', 'read_api', 'read_user', 'sudo', 'read_repository', 'write_repository'])

export const getCurrentUser = defineEndpoint({
  method: 'GET', path: '/user', summary: 'Get the authenticated user', cacheable: true,
  responses: { 200: UserPublic }, scope: 'user',
})

export const listUsers = defineEndpoint({
  method: 'GET', path: '/users', summary: 'List users', scope: 'user', auth: 'optional', paginated: true,
  input: {
    username: str().optional(), search: str().optional(), active: bool().optional(), blocked: bool().optional(),
    admins: bool().optional(), without_project_bots: bool().optional(), extern_uid: str().optional(), provider: str().optional(), order_by: oneOf(['id', 'name', 'username', 'created_at', 'updated_at']).optional(),
    sort: oneOf(['asc', 'desc']).optional(),
  },
  responses: { 200: z.array(UserBasic) },
})

export const getUser = defineEndpoint({
  method: 'GET', path: '/users/:id', summary: 'Get a single user', scope: 'user', auth: 'optional', cacheable: true,
  params: UserId, responses: { 200: User },
})

export const createUser = defineEndpoint({
  method: 'POST', path: '/users', summary: 'Create a user (administrators only)', auth: 'admin',
  input: {
    email: str(), name: str(), username: str(),
    password: str(128).optional(), reset_password: bool().optional(), force_random_password: bool().optional(),
    admin: bool().optional(), bio: text().optional(), location: str().optional(), skype: str().optional(),
    linkedin: str().optional(), twitter: str().optional(), website_url: str().optional(), organization: str().optional(),
    job_title: str().optional(), projects_limit: int().optional(), can_create_group: bool().optional(),
    external: bool().optional(), private_profile: bool().optional(), note: text().optional(),
    skip_confirmation: bool().optional(), avatar: avatarFile().optional(), public_email: str().optional(),
    commit_email: str().optional(), pronouns: str(50).optional(), theme_id: int().optional(), color_scheme_id: int().optional(),
    extern_uid: str().optional(), provider: str().optional(),
  },
  responses: { 201: UserPublic },
})

const TokenInput = {
  name: str(),
  scopes: list(Scope).refine((s) => s.length > 0, { error: 'is missing' }),
  expires_at: dateOnly().optional(),
}

export const createPersonalAccessToken = defineEndpoint({
  method: 'POST', path: '/users/:id/personal_access_tokens', summary: 'Create a personal access token for a user (administrators only)',
  auth: 'admin', params: UserId, input: TokenInput, responses: { 201: PersonalAccessToken },
})

export const createImpersonationToken = defineEndpoint({
  method: 'POST', path: '/users/:id/impersonation_tokens', summary: 'Create an impersonation token (administrators only)',
  auth: 'admin', params: UserId, input: TokenInput, responses: { 201: PersonalAccessToken },
})

export const listImpersonationTokens = defineEndpoint({
  method: 'GET', path: '/users/:id/impersonation_tokens', summary: 'List impersonation tokens of a user (administrators only)',
  auth: 'admin', params: UserId, paginated: true, input: { state: oneOf(['all', 'active', 'inactive']).optional() },
  responses: { 200: z.array(PersonalAccessToken) },
})

export const revokeImpersonationToken = defineEndpoint({
  method: 'DELETE', path: '/users/:id/impersonation_tokens/:token_id', summary: 'Revoke an impersonation token (administrators only)',
  auth: 'admin', params: { ...UserId, token_id: int() }, responses: { 204: null },
})

export const listPersonalAccessTokens = defineEndpoint({
  method: 'GET', path: '/personal_access_tokens', summary: 'List personal access tokens (own; all for administrators)',
  paginated: true, input: { user_id: int().optional(), state: oneOf(['active', 'inactive']).optional(), revoked: bool().optional() },
  responses: { 200: z.array(PersonalAccessToken) },
})

export const getCurrentPersonalAccessToken = defineEndpoint({
  method: 'GET', path: '/personal_access_tokens/self', summary: 'Get the token used for this request', scope: 'user',
  responses: { 200: PersonalAccessToken },
})

export const rotateCurrentPersonalAccessToken = defineEndpoint({
  method: 'POST', path: '/personal_access_tokens/self/rotate', summary: 'Rotate the token used for this request: a new token, this one revoked',
  scope: 'rotate', input: { expires_at: dateOnly().optional() }, responses: { 200: PersonalAccessToken },
})

export const rotatePersonalAccessToken = defineEndpoint({
  method: 'POST', path: '/personal_access_tokens/:token_id/rotate', summary: 'Rotate a personal access token (own; any for administrators)',
  params: { token_id: int() }, input: { expires_at: dateOnly().optional() }, responses: { 200: PersonalAccessToken },
})

export const revokeCurrentPersonalAccessToken = defineEndpoint({
  method: 'DELETE', path: '/personal_access_tokens/self', summary: 'Revoke the token used for this request',
  responses: { 204: null },
})

export const revokePersonalAccessToken = defineEndpoint({
  method: 'DELETE', path: '/personal_access_tokens/:token_id', summary: 'Revoke a personal access token (own; any for administrators)',
  params: { token_id: int() }, responses: { 204: null },
})
