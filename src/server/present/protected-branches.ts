// Protected branch rules as GitLab serializes them: one access level per list (push, merge, unprotect).
import type { ProtectedBranchRow } from '../store/protected-branches.js'

/** `ProtectedRefAccess::HUMAN_ACCESS_LEVELS`. */
const DESCRIPTIONS: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Administrators' }

// Each level stands for one row of GitLab's *_access_levels tables; the rule's id serves as its id.
export const presentRefAccess = (id: number, level: number, deployKey = false) => ({
  id, access_level: level, access_level_description: DESCRIPTIONS[level] ?? String(level),
  // Push and tag create levels may name a deploy key (CE exposes the column); collab has none.
  ...(deployKey ? { deploy_key_id: null } : {}),
  user_id: null, group_id: null,
})

export const presentProtectedBranch = (r: ProtectedBranchRow) => ({
  id: r.id,
  name: r.name,
  push_access_levels: [presentRefAccess(r.id, r.push_access_level, true)],
  merge_access_levels: [presentRefAccess(r.id, r.merge_access_level)],
  unprotect_access_levels: r.unprotect_access_level === null ? [] : [presentRefAccess(r.id, r.unprotect_access_level)],
  allow_force_push: r.allow_force_push === 1,
  code_owner_approval_required: r.code_owner_approval_required === 1,
})
