// Resource label, milestone and state events: rows per noteable, read oldest first.
import { stmt, write, type Db } from './db.js'
import { byIds } from './noteables.js'

export type EventKind = 'label' | 'milestone' | 'state'

interface EventBase { id: number; noteable_id: number; user_id: number; created_at: string }
export interface LabelEventRow extends EventBase { label_id: number | null; action: 'add' | 'remove' }
export interface MilestoneEventRow extends EventBase { milestone_id: number | null; action: 'add' | 'remove'; state: string }
export interface StateEventRow extends EventBase { state: string; source_commit: string | null; source_merge_request_id: number | null }
export interface EventRows { label: LabelEventRow; milestone: MilestoneEventRow; state: StateEventRow }

const TABLE: Record<EventKind, string> = { label: 'resource_label_events', milestone: 'resource_milestone_events', state: 'resource_state_events' }

export function insertLabelEvent(db: Db, e: Omit<LabelEventRow, 'id'>) {
  write(db, 'resource_label_events', `INSERT INTO resource_label_events (noteable_id, user_id, label_id, action, created_at)
    VALUES (@noteable_id, @user_id, @label_id, @action, @created_at)`).run(e)
}

export function insertMilestoneEvent(db: Db, e: Omit<MilestoneEventRow, 'id'>) {
  write(db, 'resource_milestone_events', `INSERT INTO resource_milestone_events (noteable_id, user_id, milestone_id, action, state, created_at)
    VALUES (@noteable_id, @user_id, @milestone_id, @action, @state, @created_at)`).run(e)
}

export function insertStateEvent(db: Db, e: Omit<StateEventRow, 'id'>) {
  write(db, 'resource_state_events', `INSERT INTO resource_state_events (noteable_id, user_id, state, source_commit, source_merge_request_id, created_at)
    VALUES (@noteable_id, @user_id, @state, @source_commit, @source_merge_request_id, @created_at)`).run(e)
}

export function listEvents<K extends EventKind>(db: Db, kind: K, noteableId: number, page: { limit: number; offset: number }) {
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM ${TABLE[kind]} WHERE noteable_id = ?`).get(noteableId) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM ${TABLE[kind]} WHERE noteable_id = ? ORDER BY id LIMIT ? OFFSET ?`)
    .all(noteableId, page.limit, page.offset) as EventRows[K][]
  return { rows, total }
}

export const findEvent = <K extends EventKind>(db: Db, kind: K, noteableId: number, id: number) =>
  stmt(db, `SELECT * FROM ${TABLE[kind]} WHERE noteable_id = ? AND id = ?`).get(noteableId, id) as EventRows[K] | undefined

/** What the events record of an issue or merge request: its state and milestone (its labels come from noteables). */
export const issuableFacts = (db: Db, id: number) => stmt(db, `SELECT COALESCE(i.state, m.state) AS state, COALESCE(i.milestone_id, m.milestone_id) AS milestone_id
  FROM noteables n LEFT JOIN issues i ON i.id = n.id LEFT JOIN merge_requests m ON m.id = n.id WHERE n.id = ?`).get(id) as { state: string; milestone_id: number | null } | undefined

export interface EventLabelRow { id: number; name: string; color: string; description: string | null }

export function labelsByIds(db: Db, ids: number[]): Map<number, EventLabelRow> {
  const rows = byIds<EventLabelRow>(db, (m) => `SELECT id, name, color, description FROM labels WHERE id ${m}`, ids)
  return new Map(rows.map((r) => [r.id, r]))
}

/**
 * A moved issue's history, as GitLab's CopyResourceEventsService copies it: label and state events as they were,
 * milestone additions only where the target project has a milestone of that title (mapped to it), removals without one.
 */
export function copyEvents(db: Db, from: number, to: number, targetProjectId: number) {
  const args = { from, to, project: targetProjectId }
  write(db, 'resource_label_events', `INSERT INTO resource_label_events (noteable_id, user_id, label_id, action, created_at)
    SELECT @to, user_id, label_id, action, created_at FROM resource_label_events WHERE noteable_id = @from ORDER BY id`).run(args)
  write(db, 'resource_milestone_events', `INSERT INTO resource_milestone_events (noteable_id, user_id, milestone_id, action, state, created_at)
    SELECT @to, e.user_id, CASE WHEN e.action = 'remove' THEN NULL ELSE t.id END, e.action, e.state, e.created_at
    FROM resource_milestone_events e LEFT JOIN milestones o ON o.id = e.milestone_id
    LEFT JOIN milestones t ON t.project_id = @project AND t.title = o.title
    WHERE e.noteable_id = @from AND (e.action = 'remove' OR t.id IS NOT NULL) ORDER BY e.id`).run(args)
  write(db, 'resource_state_events', `INSERT INTO resource_state_events (noteable_id, user_id, state, source_commit, source_merge_request_id, created_at)
    SELECT @to, user_id, state, source_commit, source_merge_request_id, created_at FROM resource_state_events WHERE noteable_id = @from ORDER BY id`).run(args)
}
