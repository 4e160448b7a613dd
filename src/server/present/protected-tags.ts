// Protected tag rules as GitLab serializes them: the name and one create access level.
import type { ProtectedTagRow } from '../store/protected-tags.js'
import { presentRefAccess } from './protected-branches.js'

export const presentProtectedTag = (r: ProtectedTagRow) => ({
  name: r.name,
  create_access_levels: [presentRefAccess(r.id, r.create_access_level, true)],
})
