// Protected branch shapes (GitLab's `Entities::ProtectedBranch` and `ProtectedRefAccess`, with EE's user and group fields).
import { z } from 'zod'

export const ProtectedRefAccess = z.object({
  id: z.number().int(),
  access_level: z.number().int(),
  access_level_description: z.string(),
  deploy_key_id: z.number().int().nullable().optional(),
  user_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
})

export const ProtectedBranch = z.object({
  id: z.number().int(),
  name: z.string(),
  push_access_levels: z.array(ProtectedRefAccess),
  merge_access_levels: z.array(ProtectedRefAccess),
  unprotect_access_levels: z.array(ProtectedRefAccess),
  allow_force_push: z.boolean(),
  code_owner_approval_required: z.boolean(),
})
export type ProtectedBranch = z.infer<typeof ProtectedBranch>
