// Protected tag shape (GitLab's `Entities::ProtectedTag`): the name or wildcard and who may create matching tags.
import { z } from 'zod'
import { ProtectedRefAccess } from './protected-branches.js'

export const ProtectedTag = z.object({
  name: z.string(),
  create_access_levels: z.array(ProtectedRefAccess),
})
export type ProtectedTag = z.infer<typeof ProtectedTag>
