// Users under administration: profile updates, states, the ghost user, and moving or removing contributions.
import { stmt, write, type Db } from './db.js'
import type { UserRow } from './users.js'

export type UserState = UserRow['state']

const UPDATABLE = new Set(['email', 'name', 'username', 'password_hash', 'is_admin', 'bio', 'location', 'skype', 'linkedin',
  'twitter', 'website_url', 'organization', 'job_title', 'note', 'projects_limit', 'can_create_group', 'external',
  'private_profile', 'avatar_path', 'public_email', 'commit_email', 'pronouns', 'theme_id', 'color_scheme_id'])

export function updateUserRow(db: Db, id: number, patch: Record<string, unknown>) {
  const cols = Object.keys(patch).filter((c) => UPDATABLE.has(c))
  if (!cols.length) return
  write(db, 'users', `UPDATE users SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const setUserState = (db: Db, id: number, state: UserState) =>
  write(db, 'users', 'UPDATE users SET state = ? WHERE id = ?').run(state, id)

export const deleteUserRow = (db: Db, id: number) => write(db, 'users', 'DELETE FROM users WHERE id = ?').run(id)

export const findGhostUser = (db: Db) =>
  stmt(db, "SELECT * FROM users WHERE name = 'Ghost User' AND password_hash IS NULL AND email LIKE 'ghost%@example.com' ORDER BY id LIMIT 1").get() as UserRow | undefined

interface UserColumn { table: string; column: string; onDelete: string }

/**
 * Every column that names a user, read from the schema itself so tables added later are covered without a list to
 * keep up to date. Columns that cascade or go null on delete look after themselves; the rest are contributions.
 */
function contributionColumns(db: Db): UserColumn[] {
  const tables = stmt(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]
  const out: UserColumn[] = []
  for (const { name } of tables) {
    const fks = stmt(db, `SELECT "table" AS target, "from" AS column, on_delete AS onDelete FROM pragma_foreign_key_list(?)`)
      .all(name) as { target: string; column: string; onDelete: string }[]
    for (const fk of fks) {
      if (fk.target === 'users' && !['CASCADE', 'SET NULL'].includes(fk.onDelete)) out.push({ table: name, column: fk.column, onDelete: fk.onDelete })
    }
  }
  return out
}

/** Contributions that stay with the instance even on a hard delete: a project or namespace outlives its creator. */
const KEPT = new Set(['projects.creator_id', 'namespaces.owner_id'])

export function moveContributions(db: Db, from: number, to: number) {
  for (const c of contributionColumns(db)) {
    if (c.table === 'namespaces') continue
    write(db, c.table, `UPDATE "${c.table}" SET "${c.column}" = ? WHERE "${c.column}" = ?`).run(to, from)
  }
}

/** hard_delete: contributions go with their author; notes first, so the issues they sit on are not left half-emptied. */
export function removeContributions(db: Db, userId: number, ghostId: () => number) {
  const cols = contributionColumns(db).sort((a, b) => Number(b.table === 'notes') - Number(a.table === 'notes'))
  for (const c of cols) {
    if (c.table === 'namespaces') continue
    if (KEPT.has(`${c.table}.${c.column}`)) write(db, c.table, `UPDATE "${c.table}" SET "${c.column}" = ? WHERE "${c.column}" = ?`).run(ghostId(), userId)
    else write(db, c.table, `DELETE FROM "${c.table}" WHERE "${c.column}" = ?`).run(userId)
  }
}

/** Groups where this user is an Owner and no one else is. */
export const soleOwnedGroups = (db: Db, userId: number) =>
  stmt(db, `SELECT gm.namespace_id AS id FROM group_members gm WHERE gm.user_id = ? AND gm.access_level = 50
    AND NOT EXISTS (SELECT 1 FROM group_members o WHERE o.namespace_id = gm.namespace_id AND o.user_id != gm.user_id AND o.access_level = 50)`)
    .all(userId).map((r) => (r as { id: number }).id)

export function renameNamespace(db: Db, id: number, path: string, name: string) {
  write(db, 'namespaces', 'UPDATE namespaces SET path = @path, full_path = @path, name = @name, full_name = @name WHERE id = @id').run({ id, path, name })
}

