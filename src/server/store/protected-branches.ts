// Protected branch rules of a project: read all at once (projects have few), written one row at a time.
import { cachedRead, stmt, write, type Db } from './db.js'

export interface ProtectedBranchRow {
  id: number
  project_id: number
  name: string
  push_access_level: number
  merge_access_level: number
  unprotect_access_level: number | null
  allow_force_push: number
  code_owner_approval_required: number
  created_at: string
  updated_at: string
}

export type ProtectedBranchPatch = Partial<Pick<ProtectedBranchRow,
  'push_access_level' | 'merge_access_level' | 'unprotect_access_level' | 'allow_force_push' | 'code_owner_approval_required' | 'updated_at'>>

// Every branch listed, pushed or committed to consults the rules: remember them until a rule changes.
export const listProtectedBranches = (db: Db, projectId: number) => cachedRead(db, `protected-branches:${projectId}`, ['protected_branches'], () =>
  stmt(db, 'SELECT * FROM protected_branches WHERE project_id = ? ORDER BY id').all(projectId) as ProtectedBranchRow[])

export const findProtectedBranch = (db: Db, projectId: number, name: string) =>
  stmt(db, 'SELECT * FROM protected_branches WHERE project_id = ? AND name = ?').get(projectId, name) as ProtectedBranchRow | undefined

export function insertProtectedBranch(db: Db, row: Omit<ProtectedBranchRow, 'id'>): number {
  return Number(write(db, 'protected_branches', `INSERT INTO protected_branches (project_id, name, push_access_level, merge_access_level, unprotect_access_level,
      allow_force_push, code_owner_approval_required, created_at, updated_at)
    VALUES (@project_id, @name, @push_access_level, @merge_access_level, @unprotect_access_level,
      @allow_force_push, @code_owner_approval_required, @created_at, @updated_at)`).run(row).lastInsertRowid)
}

export function updateProtectedBranch(db: Db, id: number, patch: ProtectedBranchPatch) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'protected_branches', `UPDATE protected_branches SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteProtectedBranch = (db: Db, id: number) => write(db, 'protected_branches', 'DELETE FROM protected_branches WHERE id = ?').run(id)
