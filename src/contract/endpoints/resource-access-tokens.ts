// Project and group access tokens (GitLab's lib/api/resource_access_tokens.rb): tokens of a bot user who is a member of
// the project or group. Maintainers manage a project's, owners a group's.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ResourceAccessToken, ResourceAccessTokenWithToken } from '../entities/resource-access-tokens.js'
import { bool, dateOnly, int, list, oneOf, ref, str, text } from '../params.js'
import { Level } from './members.js'

/** Gitlab::Auth.resource_bot_scopes: what a bot's token may hold (no read_user, sudo or admin_mode). */
export const RESOURCE_BOT_SCOPES = ['api', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry',
  'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'self_rotate'] as const

const Id = { id: ref() }
const TokenId = { ...Id, token_id: int() }

function accessTokenEndpoints(source: 'projects' | 'groups', what: 'project' | 'group') {
  const base = `/${source}/:id/access_tokens`
  return {
    list: defineEndpoint({
      method: 'GET', path: base, summary: `List ${what} access tokens`, params: Id, paginated: true,
      input: { state: oneOf(['active', 'inactive']).optional(), revoked: bool().optional(), search: str().optional() },
      responses: { 200: z.array(ResourceAccessToken) },
    }),
    get: defineEndpoint({
      method: 'GET', path: `${base}/:token_id`, summary: `Get a ${what} access token`, params: TokenId,
      responses: { 200: ResourceAccessToken },
    }),
    create: defineEndpoint({
      method: 'POST', path: base, summary: `Create a ${what} access token (and its bot user)`, params: Id,
      input: {
        name: str(), description: text().optional(),
        scopes: list(oneOf(RESOURCE_BOT_SCOPES)).refine((s) => s.length > 0, { error: 'is missing' }),
        expires_at: dateOnly().optional(), access_level: Level.optional(),
      },
      responses: { 201: ResourceAccessTokenWithToken },
    }),
    revoke: defineEndpoint({
      method: 'DELETE', path: `${base}/:token_id`, summary: `Revoke a ${what} access token (its bot user is deleted)`,
      params: TokenId, responses: { 204: null },
    }),
    rotate: defineEndpoint({
      method: 'POST', path: `${base}/:token_id/rotate`, summary: `Rotate a ${what} access token: a new token, the old one revoked`,
      params: TokenId, input: { expires_at: dateOnly().optional() }, responses: { 200: ResourceAccessTokenWithToken },
    }),
  }
}

const project = accessTokenEndpoints('projects', 'project')
const group = accessTokenEndpoints('groups', 'group')

export const listProjectAccessTokens = project.list
export const getProjectAccessToken = project.get
export const createProjectAccessToken = project.create
export const revokeProjectAccessToken = project.revoke
export const rotateProjectAccessToken = project.rotate
export const listGroupAccessTokens = group.list
export const getGroupAccessToken = group.get
export const createGroupAccessToken = group.create
export const revokeGroupAccessToken = group.revoke
export const rotateGroupAccessToken = group.rotate
