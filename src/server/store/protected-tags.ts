// Protected tag rules of a project: read all at once (projects have few), written one row at a time.
import { cachedRead, stmt, write, type Db } from './db.js'

export interface ProtectedTagRow {
  id: number
  project_id: number
  name: string
  create_access_level: number
  created_at: string
  updated_at: string
}

// Every tag pushed, created or deleted, and every tag pipeline, consults the rules: remember them until a rule changes.
export const listProtectedTags = (db: Db, projectId: number) => cachedRead(db, `protected-tags:${projectId}`, ['protected_tags'], () =>
  stmt(db, 'SELECT * FROM protected_tags WHERE project_id = ? ORDER BY id').all(projectId) as ProtectedTagRow[])

export const findProtectedTag = (db: Db, projectId: number, name: string) =>
  stmt(db, 'SELECT * FROM protected_tags WHERE project_id = ? AND name = ?').get(projectId, name) as ProtectedTagRow | undefined

export function insertProtectedTag(db: Db, row: Omit<ProtectedTagRow, 'id'>): number {
  return Number(write(db, 'protected_tags', `INSERT INTO protected_tags (project_id, name, create_access_level, created_at, updated_at)
    VALUES (@project_id, @name, @create_access_level, @created_at, @updated_at)`).run(row).lastInsertRowid)
}

export const deleteProtectedTag = (db: Db, id: number) => write(db, 'protected_tags', 'DELETE FROM protected_tags WHERE id = ?').run(id)
