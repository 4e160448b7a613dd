// Whose labels or milestones a lookup or list covers: some projects' and some groups' (each row has exactly one of
// project_id and group_id, a CHECK of migration 023).
import { inIds } from './db.js'

export interface OwnerScope { projectIds: number[]; groupIds: number[] }

/** The scope as a condition on the columns of `alias`; nothing matches an empty scope. */
export function scopeClause(s: OwnerScope, args: Record<string, unknown>, alias = ''): string {
  const parts: string[] = []
  if (s.projectIds.length) parts.push(`${alias}project_id ${inIds('projects', s.projectIds, args)}`)
  if (s.groupIds.length) parts.push(`${alias}group_id ${inIds('groups', s.groupIds, args)}`)
  return parts.length ? `(${parts.join(' OR ')})` : '0'
}
