// Push mirrors of a project: the URL without credentials, the credentials sealed (opened only here, on read), and the
// state of the last update.
import { stmt, write, type Db } from './db.js'
import { opened, sealNullable } from './secrets.js'

export type MirrorStatus = 'none' | 'started' | 'finished' | 'to_retry' | 'failed'

export interface RemoteMirrorRow {
  id: number
  project_id: number
  /** Without user or password. */
  url: string
  /** JSON `{"user","password"}` once opened; null when the URL named neither. */
  credentials: string | null
  enabled: number
  auth_method: string
  only_protected_branches: number
  keep_divergent_refs: number
  mirror_branch_regex: string | null
  update_status: MirrorStatus
  last_update_at: string | null
  last_update_started_at: string | null
  last_successful_update_at: string | null
  last_error: string | null
  created_at: string
  updated_at: string
}

export type MirrorSettings = Pick<RemoteMirrorRow, 'enabled' | 'auth_method' | 'only_protected_branches' | 'keep_divergent_refs' | 'mirror_branch_regex'>
export type MirrorState = Partial<Pick<RemoteMirrorRow, 'update_status' | 'last_update_at' | 'last_update_started_at' | 'last_successful_update_at' | 'last_error'>>

const open = (db: Db, row: RemoteMirrorRow | undefined) => (row ? opened(db, 'credentials', row) : undefined)

export function findRemoteMirror(db: Db, id: number): RemoteMirrorRow | undefined {
  return open(db, stmt(db, 'SELECT * FROM remote_mirrors WHERE id = ?').get(id) as RemoteMirrorRow | undefined)
}

export function listRemoteMirrors(db: Db, projectId: number, limit: number, offset: number) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM remote_mirrors WHERE project_id = ?').get(projectId) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM remote_mirrors WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?').all(projectId, limit, offset) as RemoteMirrorRow[]
  return { rows: rows.map((r) => open(db, r)!), total }
}

/** The ids of a project's enabled mirrors: what a push updates. */
export const enabledMirrorIds = (db: Db, projectId: number) =>
  (stmt(db, 'SELECT id FROM remote_mirrors WHERE project_id = ? AND enabled = 1 ORDER BY id').all(projectId) as { id: number }[]).map((r) => r.id)

/** Enabled mirrors whose update a stop of the server cut short (started, or waiting to retry). */
export const unfinishedMirrorIds = (db: Db) =>
  (stmt(db, "SELECT id FROM remote_mirrors WHERE enabled = 1 AND update_status IN ('started', 'to_retry') ORDER BY id").all() as { id: number }[]).map((r) => r.id)

export function insertRemoteMirror(db: Db, row: MirrorSettings & Pick<RemoteMirrorRow, 'project_id' | 'url' | 'credentials' | 'created_at'>): RemoteMirrorRow {
  const inserted = write(db, 'remote_mirrors', `INSERT INTO remote_mirrors (project_id, url, credentials, enabled, auth_method, only_protected_branches,
      keep_divergent_refs, mirror_branch_regex, created_at, updated_at)
    VALUES (@project_id, @url, @credentials, @enabled, @auth_method, @only_protected_branches, @keep_divergent_refs, @mirror_branch_regex,
      @created_at, @created_at) RETURNING *`).get({ ...row, credentials: sealNullable(db, row.credentials) }) as RemoteMirrorRow
  return open(db, inserted)!
}

export function updateRemoteMirrorSettings(db: Db, id: number, s: MirrorSettings & { updated_at: string }) {
  write(db, 'remote_mirrors', `UPDATE remote_mirrors SET enabled = @enabled, auth_method = @auth_method, only_protected_branches = @only_protected_branches,
    keep_divergent_refs = @keep_divergent_refs, mirror_branch_regex = @mirror_branch_regex, updated_at = @updated_at WHERE id = @id`).run({ ...s, id })
}

/** Records how an update went; the columns not given keep their values. */
export function recordMirrorState(db: Db, id: number, state: MirrorState) {
  const names = Object.keys(state) as (keyof MirrorState)[]
  if (!names.length) return
  write(db, 'remote_mirrors', `UPDATE remote_mirrors SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`).run({ ...state, id })
}

export const deleteRemoteMirror = (db: Db, id: number) => write(db, 'remote_mirrors', 'DELETE FROM remote_mirrors WHERE id = ?').run(id)
