// A user's SSH keys, GPG keys, emails and status (lib/api/users.rb, lib/api/keys.rb): the caller's own under /user,
// anyone's under /users/:id, writes there for administrators only.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Email, GpgKey, SshKey, SshKeyWithUser, UserStatus } from '../entities/user-keys.js'
import { bool, int, isoDate, oneOf, ref, str, text } from '../params.js'

const KeyId = { key_id: int() }
const AnyUser = { id: ref() }
const AdminUser = { id: int() }
const SshKeyInput = {
  title: str(), key: text(), expires_at: isoDate().optional(),
  usage_type: oneOf(['auth', 'signing', 'auth_and_signing']).optional(),
}

export const listOwnSshKeys = defineEndpoint({ method: 'GET', path: '/user/keys', summary: "List the caller's SSH keys", scope: 'user', paginated: true, responses: { 200: z.array(SshKey) } })
export const getOwnSshKey = defineEndpoint({ method: 'GET', path: '/user/keys/:key_id', summary: "Get one of the caller's SSH keys", scope: 'user', params: KeyId, responses: { 200: SshKey } })
export const addOwnSshKey = defineEndpoint({ method: 'POST', path: '/user/keys', summary: 'Add an SSH key for the caller', input: SshKeyInput, responses: { 201: SshKey } })
export const deleteOwnSshKey = defineEndpoint({ method: 'DELETE', path: '/user/keys/:key_id', summary: "Delete one of the caller's SSH keys", params: KeyId, responses: { 204: null } })
export const listUserSshKeys = defineEndpoint({ method: 'GET', path: '/users/:id/keys', summary: "List a user's SSH keys (id or username)", auth: 'optional', scope: 'user', paginated: true, params: AnyUser, responses: { 200: z.array(SshKey) } })
export const getUserSshKey = defineEndpoint({ method: 'GET', path: '/users/:id/keys/:key_id', summary: "Get one of a user's SSH keys", auth: 'optional', scope: 'user', params: { ...AnyUser, ...KeyId }, responses: { 200: SshKey } })
export const addUserSshKey = defineEndpoint({ method: 'POST', path: '/users/:id/keys', summary: 'Add an SSH key for a user (administrators only)', auth: 'admin', params: AdminUser, input: SshKeyInput, responses: { 201: SshKey } })
export const deleteUserSshKey = defineEndpoint({ method: 'DELETE', path: '/users/:id/keys/:key_id', summary: "Delete a user's SSH key (administrators only)", auth: 'admin', params: { ...AdminUser, ...KeyId }, responses: { 204: null } })
export const getSshKeyById = defineEndpoint({ method: 'GET', path: '/keys/:key_id', summary: 'Get an SSH key with its owner (administrators only)', auth: 'admin', params: KeyId, responses: { 200: SshKeyWithUser } })
export const findSshKeyByFingerprint = defineEndpoint({ method: 'GET', path: '/keys', summary: 'Find an SSH key by its MD5 or SHA256 fingerprint (administrators only)', auth: 'admin', input: { fingerprint: str() }, responses: { 200: SshKeyWithUser } })

export const listOwnGpgKeys = defineEndpoint({ method: 'GET', path: '/user/gpg_keys', summary: "List the caller's GPG keys", scope: 'user', paginated: true, responses: { 200: z.array(GpgKey) } })
export const getOwnGpgKey = defineEndpoint({ method: 'GET', path: '/user/gpg_keys/:key_id', summary: "Get one of the caller's GPG keys", scope: 'user', params: KeyId, responses: { 200: GpgKey } })
export const addOwnGpgKey = defineEndpoint({ method: 'POST', path: '/user/gpg_keys', summary: 'Add a GPG key for the caller', input: { key: text() }, responses: { 201: GpgKey } })
export const deleteOwnGpgKey = defineEndpoint({ method: 'DELETE', path: '/user/gpg_keys/:key_id', summary: "Delete one of the caller's GPG keys", params: KeyId, responses: { 204: null } })
export const listUserGpgKeys = defineEndpoint({ method: 'GET', path: '/users/:id/gpg_keys', summary: "List a user's GPG keys", auth: 'optional', scope: 'user', paginated: true, params: AdminUser, responses: { 200: z.array(GpgKey) } })
export const getUserGpgKey = defineEndpoint({ method: 'GET', path: '/users/:id/gpg_keys/:key_id', summary: "Get one of a user's GPG keys", auth: 'optional', scope: 'user', params: { ...AdminUser, ...KeyId }, responses: { 200: GpgKey } })
export const addUserGpgKey = defineEndpoint({ method: 'POST', path: '/users/:id/gpg_keys', summary: 'Add a GPG key for a user (administrators only)', auth: 'admin', params: AdminUser, input: { key: text() }, responses: { 201: GpgKey } })
export const deleteUserGpgKey = defineEndpoint({ method: 'DELETE', path: '/users/:id/gpg_keys/:key_id', summary: "Delete a user's GPG key (administrators only)", auth: 'admin', params: { ...AdminUser, ...KeyId }, responses: { 204: null } })
// Revoking also unverifies the commits the key signed; collab verifies no signatures, so it is a delete answering 202.
export const revokeOwnGpgKey = defineEndpoint({ method: 'POST', path: '/user/gpg_keys/:key_id/revoke', summary: "Revoke one of the caller's GPG keys", params: KeyId, responses: { 202: null } })
export const revokeUserGpgKey = defineEndpoint({ method: 'POST', path: '/users/:id/gpg_keys/:key_id/revoke', summary: "Revoke a user's GPG key (administrators only)", auth: 'admin', params: { ...AdminUser, ...KeyId }, responses: { 202: null } })

const EmailId = { email_id: int() }
const EmailInput = { email: str(), skip_confirmation: bool().optional() }
export const listOwnEmails = defineEndpoint({ method: 'GET', path: '/user/emails', summary: "List the caller's secondary emails", scope: 'user', paginated: true, responses: { 200: z.array(Email) } })
export const getOwnEmail = defineEndpoint({ method: 'GET', path: '/user/emails/:email_id', summary: "Get one of the caller's secondary emails", scope: 'user', params: EmailId, responses: { 200: Email } })
export const addOwnEmail = defineEndpoint({ method: 'POST', path: '/user/emails', summary: 'Add a secondary email for the caller', input: { email: str() }, responses: { 201: Email } })
export const deleteOwnEmail = defineEndpoint({ method: 'DELETE', path: '/user/emails/:email_id', summary: "Delete one of the caller's secondary emails", params: EmailId, responses: { 204: null } })
export const listUserEmails = defineEndpoint({ method: 'GET', path: '/users/:id/emails', summary: "List a user's secondary emails (administrators only)", auth: 'admin', paginated: true, params: AdminUser, responses: { 200: z.array(Email) } })
export const addUserEmail = defineEndpoint({ method: 'POST', path: '/users/:id/emails', summary: 'Add a secondary email for a user (administrators only)', auth: 'admin', params: AdminUser, input: EmailInput, responses: { 201: Email } })
export const deleteUserEmail = defineEndpoint({ method: 'DELETE', path: '/users/:id/emails/:email_id', summary: "Delete a user's secondary email (administrators only)", auth: 'admin', params: { ...AdminUser, ...EmailId }, responses: { 204: null } })

const StatusInput = {
  emoji: str(128).optional(), message: str(100).optional(), availability: oneOf(['not_set', 'busy']).optional(),
  clear_status_after: oneOf(['30_minutes', '3_hours', '8_hours', '1_day', '3_days', '7_days', '30_days']).optional(),
}
export const getOwnStatus = defineEndpoint({ method: 'GET', path: '/user/status', summary: "Get the caller's status", scope: 'user', responses: { 200: UserStatus } })
export const setOwnStatus = defineEndpoint({ method: 'PUT', path: '/user/status', summary: "Set the caller's status (fields left out are cleared)", input: StatusInput, responses: { 200: UserStatus } })
export const patchOwnStatus = defineEndpoint({ method: 'PATCH', path: '/user/status', summary: "Change the given fields of the caller's status", input: StatusInput, responses: { 200: UserStatus } })
export const getUserStatus = defineEndpoint({ method: 'GET', path: '/users/:id/status', summary: "Get a user's status (id or username)", auth: 'optional', scope: 'user', params: AnyUser, responses: { 200: UserStatus } })
