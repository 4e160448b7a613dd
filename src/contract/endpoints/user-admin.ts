// Administration of users (lib/api/users.rb): update, delete, and the state changes block, ban, deactivate.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { UserPublic } from '../entities/users.js'
import { bool, int, str, text } from '../params.js'

const UserId = { id: int() }

/** A multipart part as the body parser hands it over; anything else under `avatar` is not a file. */
export const avatarFile = () => z.custom<{ filename: string; mimeType: string; data: Buffer }>(
  (v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as { data?: unknown }).data), { error: 'is invalid' },
)

export const updateUser = defineEndpoint({
  method: 'PUT', path: '/users/:id', summary: 'Modify a user (administrators only)', auth: 'admin', params: UserId,
  input: {
    email: str().optional(), name: str().optional(), username: str().optional(), password: str(128).optional(),
    skip_reconfirmation: bool().optional(), admin: bool().optional(), bio: text().optional(), location: str().optional(),
    skype: str().optional(), linkedin: str().optional(), twitter: str().optional(), website_url: str().optional(),
    organization: str().optional(), job_title: str().optional(), projects_limit: int().optional(),
    can_create_group: bool().optional(), external: bool().optional(), private_profile: bool().optional(),
    note: text().optional(), avatar: avatarFile().optional(), public_email: str().optional(), commit_email: str().optional(),
    pronouns: str(50).optional(), theme_id: int().optional(), color_scheme_id: int().optional(),
    extern_uid: str().optional(), provider: str().optional(),
  },
  responses: { 200: UserPublic },
})

export const setOwnAvatar = defineEndpoint({
  method: 'PUT', path: '/user/avatar', summary: "Upload the caller's avatar (multipart, field avatar)",
  input: { avatar: avatarFile() }, responses: { 200: z.object({ avatar_url: z.string().nullable() }) },
})

export const deleteUser = defineEndpoint({
  method: 'DELETE', path: '/users/:id', summary: 'Delete a user (administrators only); hard_delete also removes contributions',
  auth: 'admin', params: UserId, input: { hard_delete: bool().optional() }, responses: { 204: null },
})

export const deleteUserIdentity = defineEndpoint({
  method: 'DELETE', path: '/users/:id/identities/:provider', summary: "Delete a user's identity at a provider (administrators only)",
  auth: 'admin', params: { ...UserId, provider: str() }, responses: { 204: null },
})

const stateChange = (action: string) => defineEndpoint({
  method: 'POST', path: `/users/:id/${action}`, summary: `${action[0]!.toUpperCase()}${action.slice(1)} a user (administrators only)`,
  auth: 'admin', params: UserId, responses: { 201: z.boolean().nullable() },
})

export const blockUser = stateChange('block')
export const unblockUser = stateChange('unblock')
export const banUser = stateChange('ban')
export const unbanUser = stateChange('unban')
export const activateUser = stateChange('activate')
export const deactivateUser = stateChange('deactivate')
