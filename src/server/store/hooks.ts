// Web hooks (project and system) and their delivery log: prepared statements only.
import { cachedRead, stmt, write, type Db } from './db.js'
import { opened, sealNullable } from './secrets.js'

export type HookType = 'ProjectHook' | 'SystemHook'

export interface HookRow {
  id: number
  type: HookType
  project_id: number | null
  url: string
  name: string | null
  description: string | null
  token: string | null
  /** JSON object: variable name -> value, substituted into `{name}` placeholders of the URL. */
  url_variables: string
  custom_headers: string
  custom_webhook_template: string | null
  push_events_branch_filter: string | null
  branch_filter_strategy: string
  /** JSON object of the `*_events` switches. */
  events: string
  enable_ssl_verification: number
  recent_failures: number
  backoff_count: number
  disabled_until: string | null
  permanently_disabled: number
  created_at: string
}

export type HookFields = Omit<HookRow, 'id' | 'recent_failures' | 'backoff_count' | 'disabled_until' | 'permanently_disabled'>

const COLUMNS = ['type', 'project_id', 'url', 'name', 'description', 'token', 'url_variables', 'custom_headers', 'custom_webhook_template',
  'push_events_branch_filter', 'branch_filter_strategy', 'events', 'enable_ssl_verification', 'created_at'] as const

/** The columns stored sealed (see secrets.ts): the token and the values of URL variables and custom headers. */
const SECRET_COLUMNS = ['token', 'url_variables', 'custom_headers'] as const

const sealHookSecrets = <T extends Partial<Pick<HookRow, (typeof SECRET_COLUMNS)[number]>>>(db: Db, f: T): T =>
  ({ ...f, token: sealNullable(db, f.token), url_variables: sealNullable(db, f.url_variables), custom_headers: sealNullable(db, f.custom_headers) })

const openHook = (db: Db, row: HookRow) => SECRET_COLUMNS.reduce((r, column) => opened(db, column, r), row)

export function insertHook(db: Db, f: HookFields): HookRow {
  const sql = `INSERT INTO web_hooks (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) RETURNING *`
  const sealed = sealHookSecrets(db, f)
  return openHook(db, write(db, 'web_hooks', sql).get(...COLUMNS.map((c) => sealed[c])) as HookRow)
}

/** Only the columns an update may touch; names come from this fixed list, never from the request. */
const UPDATABLE = ['url', 'name', 'description', 'token', 'url_variables', 'custom_headers', 'custom_webhook_template',
  'push_events_branch_filter', 'branch_filter_strategy', 'events', 'enable_ssl_verification'] as const
export type HookPatch = Partial<Pick<HookRow, (typeof UPDATABLE)[number]>>

export function updateHook(db: Db, id: number, patch: HookPatch): HookRow {
  const cols = UPDATABLE.filter((c) => patch[c] !== undefined)
  const sealed = sealHookSecrets(db, patch)
  if (cols.length) write(db, 'web_hooks', `UPDATE web_hooks SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...cols.map((c) => sealed[c]), id)
  return findHook(db, id)!
}

export function findHook(db: Db, id: number) {
  const row = stmt(db, 'SELECT * FROM web_hooks WHERE id = ?').get(id) as HookRow | undefined
  return row && openHook(db, row)
}

export const deleteHookRow = (db: Db, id: number) => write(db, 'web_hooks', 'DELETE FROM web_hooks WHERE id = ?').run(id)

export function listHooks(db: Db, where: { projectId: number } | { system: true }, limit: number, offset: number) {
  const [cond, arg] = 'projectId' in where ? ['project_id = ?', where.projectId] : ["type = 'SystemHook' AND ?", 1]
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM web_hooks WHERE ${cond}`).get(arg) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM web_hooks WHERE ${cond} ORDER BY id LIMIT ? OFFSET ?`).all(arg, limit, offset) as HookRow[]
  return { rows: rows.map((r) => openHook(db, r)), total }
}

/**
 * The hooks an event of a project may reach: that project's hooks and every system hook. Every issue or merge request
 * write asks, so the answer is remembered until a write to web_hooks (callers must not change the rows).
 */
export const hooksForProject = (db: Db, projectId: number): readonly HookRow[] => cachedRead(db, `hooks:${projectId}`, ['web_hooks'], () =>
  (stmt(db, "SELECT * FROM web_hooks WHERE project_id = ? OR type = 'SystemHook' ORDER BY id").all(projectId) as HookRow[]).map((r) => openHook(db, r)))

export const systemHooks = (db: Db) => (stmt(db, "SELECT * FROM web_hooks WHERE type = 'SystemHook' ORDER BY id").all() as HookRow[]).map((r) => openHook(db, r))

export function recordHookOutcome(db: Db, id: number, state: Pick<HookRow, 'recent_failures' | 'backoff_count' | 'disabled_until' | 'permanently_disabled'>) {
  write(db, 'web_hooks', 'UPDATE web_hooks SET recent_failures = ?, backoff_count = ?, disabled_until = ?, permanently_disabled = ? WHERE id = ?')
    .run(state.recent_failures, state.backoff_count, state.disabled_until, state.permanently_disabled, id)
}

export interface HookLogRow {
  id: number
  web_hook_id: number
  trigger: string
  url: string
  request_headers: string
  request_data: string
  response_headers: string
  response_body: string
  response_status: string
  execution_duration: number
  internal_error_message: string | null
  created_at: string
}

/** GitLab keeps a hook's log for 7 days: older entries go as new ones come. */
const LOG_DAYS = 7

export function insertHookLog(db: Db, log: Omit<HookLogRow, 'id'>): number {
  const cutoff = new Date(Date.parse(log.created_at) - LOG_DAYS * 86_400_000).toISOString()
  write(db, 'web_hook_logs', 'DELETE FROM web_hook_logs WHERE web_hook_id = ? AND created_at < ?').run(log.web_hook_id, cutoff)
  return Number(write(db, 'web_hook_logs', `INSERT INTO web_hook_logs (web_hook_id, trigger, url, request_headers, request_data, response_headers, response_body,
    response_status, execution_duration, internal_error_message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(log.web_hook_id, log.trigger, log.url, log.request_headers, log.request_data, log.response_headers, log.response_body,
      log.response_status, log.execution_duration, log.internal_error_message, log.created_at).lastInsertRowid)
}

/** Newest first, as GitLab's hook event list; `statuses` narrows to response codes (as text) when given. */
export function listHookLogs(db: Db, hookId: number, statuses: string[] | null, limit: number, offset: number) {
  const filter = statuses ? `AND response_status IN (SELECT value FROM json_each(?))` : 'AND ?'
  const arg = statuses ? JSON.stringify(statuses) : 1
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM web_hook_logs WHERE web_hook_id = ? ${filter}`).get(hookId, arg) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM web_hook_logs WHERE web_hook_id = ? ${filter} ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(hookId, arg, limit, offset) as HookLogRow[]
  return { rows, total }
}

export const findHookLog = (db: Db, hookId: number, id: number) =>
  stmt(db, 'SELECT * FROM web_hook_logs WHERE web_hook_id = ? AND id = ?').get(hookId, id) as HookLogRow | undefined

/** The newest row of a project's issues, merge requests, notes, pipelines or jobs: the sample a hook test sends. */
const LATEST = {
  issue: 'SELECT id FROM issues WHERE project_id = ? ORDER BY id DESC LIMIT 1',
  mergeRequest: 'SELECT id FROM merge_requests WHERE project_id = ? ORDER BY id DESC LIMIT 1',
  note: `SELECT n.id, n.noteable_id, nb.kind FROM notes n JOIN noteables nb ON nb.id = n.noteable_id
    WHERE nb.project_id = ? AND n.system = 0 ORDER BY n.id DESC LIMIT 1`,
  pipeline: 'SELECT id FROM pipelines WHERE project_id = ? ORDER BY id DESC LIMIT 1',
  job: 'SELECT id FROM ci_jobs WHERE project_id = ? ORDER BY id DESC LIMIT 1',
} as const

export const latestOf = (db: Db, what: keyof typeof LATEST, projectId: number) =>
  stmt(db, LATEST[what]).get(projectId) as { id: number; noteable_id?: number; kind?: string } | undefined
