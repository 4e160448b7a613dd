// Events of the activity feed and their push payloads (migration 020).
import { inIds, stmt, write, type Db } from './db.js'
import type { NoteRow } from './notes.js'

export type EventAction = 'created' | 'updated' | 'closed' | 'reopened' | 'pushed' | 'commented' | 'merged' | 'joined' | 'left' | 'destroyed' | 'approved' | 'expired'

export interface PushPayloadRow {
  commit_count: number
  action: 'pushed' | 'created' | 'removed'
  ref_type: 'branch' | 'tag'
  commit_from: string | null
  commit_to: string | null
  /** Null on a bulk push event, which counts its refs in ref_count instead. */
  ref: string | null
  commit_title: string | null
  ref_count: number | null
}

export interface NewEvent {
  project_id: number
  author_id: number
  action: EventAction
  target_type: string | null
  target_id: number | null
  target_title: string | null
  wiki_slug: string | null
  wiki_format: string | null
  created_at: string
}

export interface EventRow extends NewEvent { id: number }

/** An event as listed: its row, its push payload's columns (prefixed) when it is a push. */
export type ListedEventRow = EventRow & { [K in keyof PushPayloadRow as `push_${K}`]: PushPayloadRow[K] | null }

export function insertEvent(db: Db, e: NewEvent, push?: PushPayloadRow): number {
  const id = Number(write(db, 'events', `INSERT INTO events (project_id, author_id, action, target_type, target_id, target_title, wiki_slug, wiki_format, created_at)
    VALUES (@project_id, @author_id, @action, @target_type, @target_id, @target_title, @wiki_slug, @wiki_format, @created_at)`).run(e).lastInsertRowid)
  if (push) {
    write(db, 'push_event_payloads', `INSERT INTO push_event_payloads (event_id, commit_count, action, ref_type, commit_from, commit_to, ref, commit_title, ref_count)
      VALUES (@event_id, @commit_count, @action, @ref_type, @commit_from, @commit_to, @ref, @commit_title, @ref_count)`).run({ ...push, event_id: id })
  }
  return id
}

/** GitLab's filters: `before` and `after` are whole days, both exclusive. */
export interface EventFilter {
  authorId?: number
  /** Only these projects (the ones the caller may see); absent, any. */
  projectIds?: readonly number[]
  action?: string
  targetType?: string
  /** Events created strictly before this instant. */
  before?: string
  /** Events created strictly after this instant. */
  after?: string
}

const PUSH_COLUMNS = 'p.commit_count AS push_commit_count, p.action AS push_action, p.ref_type AS push_ref_type, p.commit_from AS push_commit_from, ' +
  'p.commit_to AS push_commit_to, p.ref AS push_ref, p.commit_title AS push_commit_title, p.ref_count AS push_ref_count'

function whereOf(f: EventFilter, args: Record<string, unknown>): string {
  const where: string[] = []
  const add = (sql: string, name: string, value: unknown) => (where.push(sql), (args[name] = value))
  if (f.authorId !== undefined) add('e.author_id = @author', 'author', f.authorId)
  if (f.projectIds !== undefined) where.push(`e.project_id ${inIds('project', f.projectIds, args)}`)
  if (f.action !== undefined) add('e.action = @action', 'action', f.action)
  if (f.targetType !== undefined) add('e.target_type = @type', 'type', f.targetType)
  if (f.before !== undefined) add('e.created_at < @before', 'before', f.before)
  if (f.after !== undefined) add('e.created_at > @after', 'after', f.after)
  return where.length ? `WHERE ${where.join(' AND ')}` : ''
}

/** A page of the events matching a filter, by id, and how many match in all. */
export function listEvents(db: Db, f: EventFilter, page: { sort: 'asc' | 'desc'; limit: number; offset: number }) {
  const args: Record<string, unknown> = {}
  const where = whereOf(f, args)
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM events e ${where}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT e.*, ${PUSH_COLUMNS} FROM events e LEFT JOIN push_event_payloads p ON p.event_id = e.id
    ${where} ORDER BY e.id ${page.sort === 'asc' ? 'ASC' : 'DESC'} LIMIT @limit OFFSET @offset`).all({ ...args, limit: page.limit, offset: page.offset }) as ListedEventRow[]
  return { rows, total }
}

/** The projects an author's events (or, without one, any events) are in. */
export const eventProjectIds = (db: Db, authorId?: number) =>
  (authorId === undefined
    ? stmt(db, 'SELECT DISTINCT project_id FROM events').all()
    : stmt(db, 'SELECT DISTINCT project_id FROM events WHERE author_id = ?').all(authorId) as { project_id: number }[]
  ).map((r) => (r as { project_id: number }).project_id)

/** The author's last activity day moves forward only. */
export const touchLastActivity = (db: Db, userId: number, day: string) =>
  write(db, 'users', 'UPDATE users SET last_activity_on = ? WHERE id = ? AND (last_activity_on IS NULL OR last_activity_on < ?)').run(day, userId, day)

export interface UserActivityRow { username: string; last_activity_on: string }

/** GET /user/activities: users active on or after a day, least recent first; `everyone` also counts private profiles. */
export function listUserActivities(db: Db, from: string, everyone: boolean, page: { limit: number; offset: number }) {
  const where = `last_activity_on >= ?${everyone ? '' : ' AND private_profile = 0'}`
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM users WHERE ${where}`).get(from) as { n: number }).n
  const rows = stmt(db, `SELECT username, last_activity_on FROM users WHERE ${where} ORDER BY last_activity_on, id LIMIT ? OFFSET ?`)
    .all(from, page.limit, page.offset) as UserActivityRow[]
  return { rows, total }
}

export type NoteWithKind = NoteRow & { noteable_kind: string; type?: string | null }

/** A note by id with its noteable's kind (`type`, GitLab's note class, exists once discussions are stored). */
export const findNoteWithKind = (db: Db, noteId: number) =>
  stmt(db, 'SELECT n.*, k.kind AS noteable_kind FROM notes n JOIN noteables k ON k.id = n.noteable_id WHERE n.id = ?').get(noteId) as NoteWithKind | undefined
