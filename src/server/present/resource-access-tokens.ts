// Project and group access tokens as GitLab's Entities::ResourceAccessToken(WithToken) serializes them.
import type { ResourceAccessToken } from '../../contract/entities/resource-access-tokens.js'
import type { Resource, ResourceTokenRow } from '../store/resource-access-tokens.js'
import { presentToken } from './users.js'

export function presentResourceAccessToken(t: ResourceTokenRow, resource: Resource, now: Date): ResourceAccessToken {
  const { id, name, revoked, created_at, scopes, user_id, last_used_at, active, expires_at } = presentToken(t, now)
  return {
    id, name, revoked, created_at, description: t.description, scopes, user_id, last_used_at, active, expires_at,
    access_level: t.access_level, resource_type: resource.kind, resource_id: resource.id,
  }
}

export const presentResourceAccessTokenWithToken = (t: ResourceTokenRow, resource: Resource, now: Date, plain: string) =>
  ({ ...presentResourceAccessToken(t, resource, now), token: plain })
