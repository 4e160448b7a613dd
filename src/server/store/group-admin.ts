// Groups under administration: their trees, transfers and deletion.
import { stmt, write, type Db } from './db.js'

/** The ids of group @id and every group below it. */
const TREE = '(WITH RECURSIVE down(id) AS (SELECT @id UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id) SELECT id FROM down)'

export const projectIdsInNamespaces = (db: Db, namespaceIds: number[]) =>
  namespaceIds.flatMap((ns) => (stmt(db, 'SELECT id FROM projects WHERE namespace_id = ? ORDER BY id').all(ns) as { id: number }[]).map((r) => r.id))

export const deleteNamespaceRow = (db: Db, id: number) => write(db, 'namespaces', 'DELETE FROM namespaces WHERE id = ?').run(id)

/** A group and every group below it, deepest first, so rows can be deleted in this order. */
export function groupTree(db: Db, id: number): number[] {
  const rows = stmt(db, `WITH RECURSIVE down(id, depth) AS (SELECT ?, 0 UNION ALL
      SELECT n.id, down.depth + 1 FROM namespaces n JOIN down ON n.parent_id = down.id)
    SELECT id FROM down ORDER BY depth DESC, id`).all(id) as { id: number }[]
  return rows.map((r) => r.id)
}

/** Moves a group under a new parent (or to the top) and rewrites the full paths and names of it and its descendants. */
export function moveGroup(db: Db, group: { id: number; full_path: string; full_name: string; path: string; name: string }, parent: { id: number; full_path: string; full_name: string } | null) {
  const fullPath = parent ? `${parent.full_path}/${group.path}` : group.path
  const fullName = parent ? `${parent.full_name} / ${group.name}` : group.name
  write(db, 'namespaces', 'UPDATE namespaces SET parent_id = ? WHERE id = ?').run(parent?.id ?? null, group.id)
  // Descendants keep what follows the group's own prefix; substr keeps it byte-exact where REPLACE could match twice.
  write(db, 'namespaces', `UPDATE namespaces SET full_path = @fullPath || substr(full_path, length(@oldPath) + 1),
      full_name = @fullName || substr(full_name, length(@oldName) + 1)
    WHERE id IN ${TREE}`)
    .run({ id: group.id, fullPath, fullName, oldPath: group.full_path, oldName: group.full_name })
}

/** Visibility may not exceed the new parent's: the group and its descendants are lowered to it, as GitLab does. */
export function capVisibility(db: Db, groupId: number, allowed: string[]) {
  const args = { id: groupId, top: allowed[allowed.length - 1], allowed: JSON.stringify(allowed) }
  write(db, 'namespaces', `UPDATE namespaces SET visibility = @top WHERE visibility NOT IN (SELECT value FROM json_each(@allowed)) AND id IN ${TREE}`).run(args)
  write(db, 'projects', `UPDATE projects SET visibility = @top WHERE visibility NOT IN (SELECT value FROM json_each(@allowed)) AND namespace_id IN ${TREE}`).run(args)
}

export const projectPathTaken = (db: Db, namespaceId: number, path: string) =>
  stmt(db, 'SELECT 1 FROM projects WHERE namespace_id = ? AND path = ? COLLATE NOCASE').get(namespaceId, path) !== undefined
