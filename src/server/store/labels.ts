// Project and group labels and their issue counts; a project sees its own labels and those of its ancestor groups.
import { cachedRead, inIds, stmt, write, type Db } from './db.js'
import { scopeClause, type OwnerScope } from './owner-scope.js'
import { likePattern } from './users.js'

export interface LabelRow {
  id: number
  /** Exactly one of project_id and group_id is set (a CHECK in migration 023). */
  project_id: number | null
  group_id: number | null
  name: string
  color: string
  description: string | null
  priority: number | null
  created_at: string
  updated_at: string
}

export interface LabelCounts { open_issues_count: number; closed_issues_count: number; open_merge_requests_count: number }

export type NewLabel = Omit<LabelRow, 'id' | 'project_id' | 'group_id'> & ({ project_id: number; group_id?: null } | { group_id: number; project_id?: null })

export function insertLabel(db: Db, l: NewLabel): number {
  return Number(write(db, 'labels', `INSERT INTO labels (project_id, group_id, name, color, description, priority, created_at, updated_at)
    VALUES (@project_id, @group_id, @name, @color, @description, @priority, @created_at, @updated_at)`).run({ project_id: null, group_id: null, ...l }).lastInsertRowid)
}

export function updateLabel(db: Db, id: number, patch: Partial<Pick<LabelRow, 'name' | 'color' | 'description' | 'priority' | 'updated_at'>>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'labels', `UPDATE labels SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteLabelRow = (db: Db, id: number) => write(db, 'labels', 'DELETE FROM labels WHERE id = ?').run(id)

/** A label by id that the project's issuables may carry: its own, or a group's (they only ever hold their ancestors'). */
export const findLabelById = (db: Db, projectId: number, id: number) =>
  stmt(db, 'SELECT * FROM labels WHERE id = ? AND (project_id = ? OR group_id IS NOT NULL)').get(id, projectId) as LabelRow | undefined

export const findLabelByName = (db: Db, projectId: number, name: string) => cachedRead(db, `label:${projectId}:${name}`, ['labels'], () =>
  stmt(db, 'SELECT * FROM labels WHERE project_id = ? AND name = ?').get(projectId, name) as LabelRow | undefined)

/** Labels of the scope with this name, project labels first, then groups in the scope's order (nearest ancestor first). */
export function findLabelsInScopeByName(db: Db, s: OwnerScope, name: string): LabelRow[] {
  const args: Record<string, unknown> = { name }
  const rows = stmt(db, `SELECT * FROM labels WHERE name = @name AND ${scopeClause(s, args)}`).all(args) as LabelRow[]
  const rank = (l: LabelRow) => (l.project_id !== null ? s.projectIds.indexOf(l.project_id) : s.projectIds.length + s.groupIds.indexOf(l.group_id!))
  return rows.sort((a, b) => rank(a) - rank(b))
}

export function findLabelInScopeById(db: Db, s: OwnerScope, id: number): LabelRow | undefined {
  const args: Record<string, unknown> = { id }
  return stmt(db, `SELECT * FROM labels WHERE id = @id AND ${scopeClause(s, args)}`).get(args) as LabelRow | undefined
}

export function listLabelsInScope(db: Db, s: OwnerScope, f: { search?: string; limit: number; offset: number }) {
  const args: Record<string, unknown> = {}
  let clause = scopeClause(s, args)
  if (f.search) { clause += " AND (name LIKE @q ESCAPE '\\' OR description LIKE @q ESCAPE '\\')"; args.q = likePattern(f.search) }
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM labels WHERE ${clause}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM labels WHERE ${clause} ORDER BY name, id LIMIT @limit OFFSET @offset`)
    .all({ ...args, limit: f.limit, offset: f.offset }) as LabelRow[]
  return { rows, total }
}

/**
 * Promotion's merge (Labels::PromoteService): the issues, merge requests and subscribers of `fromIds` move to `toId`,
 * then those labels go. An issuable that held two of them keeps one link; a user subscribed to two keeps one row.
 */
export function mergeLabelsInto(db: Db, fromIds: number[], toId: number) {
  if (!fromIds.length) return
  const args: Record<string, unknown> = { to: toId }
  const from = inIds('from', fromIds, args)
  write(db, 'noteable_labels', `INSERT OR IGNORE INTO noteable_labels (noteable_id, label_id) SELECT noteable_id, @to FROM noteable_labels WHERE label_id ${from}`).run(args)
  write(db, 'label_subscriptions', `INSERT OR IGNORE INTO label_subscriptions (label_id, user_id) SELECT @to, user_id FROM label_subscriptions WHERE label_id ${from}`).run(args)
  write(db, 'resource_label_events', `UPDATE resource_label_events SET label_id = @to WHERE label_id ${from}`).run(args)
  write(db, 'labels', `DELETE FROM labels WHERE id ${from}`).run(args)
}

/** Issue counts, and the open merge request count; `@scope` narrows both to one project (a group label in a project's list). */
const counts = (scope: string) => `SELECT COALESCE(SUM(i.state = 'opened'), 0) AS open_issues_count, COALESCE(SUM(i.state = 'closed'), 0) AS closed_issues_count,
  (SELECT COUNT(*) FROM noteable_labels ml JOIN merge_requests m ON m.id = ml.noteable_id WHERE ml.label_id = @label AND m.state = 'opened'${scope.replace('i.', 'm.')}) AS open_merge_requests_count
  FROM noteable_labels il JOIN issues i ON i.id = il.noteable_id WHERE il.label_id = @label${scope}`
const COUNTS = counts('')
const PROJECT_COUNTS = counts(' AND i.project_id = @project')

/**
 * Issues holding the label, by project: open and closed, all of them and those seen by `viewer` without the right to
 * read confidential issues (public ones, and confidential ones they wrote or are assigned to).
 */
const SEEN = `(i.confidential = 0 OR i.author_id = @viewer
  OR EXISTS (SELECT 1 FROM noteable_assignees a WHERE a.noteable_id = i.id AND a.user_id = @viewer))`

export const issueCountsByProject = (db: Db, labelId: number, viewer: number | null) =>
  stmt(db, `SELECT i.project_id, SUM(i.state = 'opened') AS open_all, SUM(i.state = 'closed') AS closed_all,
      SUM(i.state = 'opened' AND ${SEEN}) AS open_seen, SUM(i.state = 'closed' AND ${SEEN}) AS closed_seen
    FROM noteable_labels il JOIN issues i ON i.id = il.noteable_id WHERE il.label_id = @label GROUP BY i.project_id`)
    .all({ label: labelId, viewer: viewer ?? -1 }) as { project_id: number; open_all: number; closed_all: number; open_seen: number; closed_seen: number }[]

/** Open merge requests holding the label, by project: a group label's count sums those whose projects the caller reads. */
export const openMergeRequestsByProject = (db: Db, labelId: number) =>
  stmt(db, `SELECT m.project_id, COUNT(*) AS n FROM noteable_labels ml JOIN merge_requests m ON m.id = ml.noteable_id
    WHERE ml.label_id = ? AND m.state = 'opened' GROUP BY m.project_id`).all(labelId) as { project_id: number; n: number }[]

/**
 * Open and closed issues with the label that `viewer` may see: every one when they read confidential issues
 * (`readsConfidential`), else the public ones and the confidential ones they wrote or are assigned to. With
 * `projectId`, only that project's issues and merge requests count.
 */
export function labelCounts(db: Db, labelId: number, viewer: { id: number | null; readsConfidential: boolean }, projectId?: number): LabelCounts {
  const sql = projectId === undefined ? COUNTS : PROJECT_COUNTS
  const args = { label: labelId, ...(projectId === undefined ? {} : { project: projectId }) }
  if (viewer.readsConfidential) return stmt(db, sql).get(args) as LabelCounts
  return stmt(db, `${sql} AND (i.confidential = 0 OR i.author_id = @viewer
    OR EXISTS (SELECT 1 FROM noteable_assignees a WHERE a.noteable_id = i.id AND a.user_id = @viewer))`).get({ ...args, viewer: viewer.id }) as LabelCounts
}
