// Group, namespace and member shapes (compat-notes §2).
import { z } from 'zod'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()
export const Visibility = z.enum(['private', 'internal', 'public'])

export const Namespace = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  kind: z.enum(['user', 'group']),
  full_path: z.string(),
  parent_id: z.number().int().nullable(),
  avatar_url: nstr,
  web_url: z.string(),
})
export type Namespace = z.infer<typeof Namespace>

export const Group = z.object({
  id: z.number().int(),
  web_url: z.string(),
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility: Visibility,
  share_with_group_lock: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  two_factor_grace_period: z.number().int(),
  project_creation_level: z.string(),
  subgroup_creation_level: z.string(),
  lfs_enabled: z.boolean(),
  default_branch: nstr,
  request_access_enabled: z.boolean(),
  full_name: z.string(),
  full_path: z.string(),
  created_at: z.string(),
  parent_id: z.number().int().nullable(),
  avatar_url: nstr,
})
export type Group = z.infer<typeof Group>

export const GroupDetail = Group.extend({ projects: z.array(z.unknown()), shared_projects: z.array(z.unknown()) })

export const Member = UserBasic.extend({
  access_level: z.number().int(),
  created_at: z.string(),
  expires_at: nstr,
})
export type Member = z.infer<typeof Member>
