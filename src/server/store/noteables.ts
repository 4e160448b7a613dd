// The discussion layer every noteable kind (issue, merge request) shares: the kinds' table, labels, assignees, votes,
// subscriptions, participants and user agent details, keyed by the noteable id each kind's row shares.
import { inIds, stmt, write, type Db } from './db.js'

/** Each noteable kind and the table of its rows (GitLab's noteable_type names). A new kind is a new entry here. */
export const NOTEABLE_TABLES = { Issue: 'issues', MergeRequest: 'merge_requests', Snippet: 'snippets', Commit: 'commit_noteables' } as const
export type NoteableKind = keyof typeof NOTEABLE_TABLES

/** A new noteable's id, which the kind's row then takes as its own; a personal snippet has no project. */
export const insertNoteable = (db: Db, kind: NoteableKind, projectId: number | null) =>
  Number(write(db, 'noteables', 'INSERT INTO noteables (kind, project_id) VALUES (?, ?)').run(kind, projectId).lastInsertRowid)

/** Deletes a noteable with its kind's row and everything discussed on it (foreign-key cascades). */
export const deleteNoteable = (db: Db, id: number) => write(db, 'noteables', 'DELETE FROM noteables WHERE id = ?').run(id)

export const kindOf = (db: Db, id: number) =>
  (stmt(db, 'SELECT kind FROM noteables WHERE id = ?').get(id) as { kind: NoteableKind } | undefined)?.kind

/** Kinds of some noteables, by id. */
export function kindsOf(db: Db, ids: number[]): Map<number, NoteableKind> {
  return new Map(byIds<{ id: number; kind: NoteableKind }>(db, (m) => `SELECT id, kind FROM noteables WHERE id ${m}`, ids).map((r) => [r.id, r.kind]))
}

/** Rows of `sql … IN (ids)`: a page of 100 issues is one query per table, from a handful of statements for every page size. */
export function byIds<T>(db: Db, sqlFor: (inList: string) => string, ids: number[]): T[] {
  if (!ids.length) return []
  const args: Record<string, unknown> = {}
  return stmt(db, sqlFor(inIds('id', ids, args))).all(args) as T[]
}

export function labelNamesOf(db: Db, noteableIds: number[]): Map<number, string[]> {
  const out = new Map<number, string[]>()
  for (const r of byIds<{ noteable_id: number; name: string }>(db, (m) =>
    `SELECT il.noteable_id, l.name FROM noteable_labels il JOIN labels l ON l.id = il.label_id WHERE il.noteable_id ${m}`, noteableIds)) {
    let list = out.get(r.noteable_id)
    if (!list) out.set(r.noteable_id, (list = []))
    list.push(r.name)
  }
  for (const list of out.values()) list.sort()
  return out
}

export function labelIdsOf(db: Db, noteableId: number): number[] {
  return (stmt(db, 'SELECT label_id FROM noteable_labels WHERE noteable_id = ? ORDER BY label_id').all(noteableId) as { label_id: number }[]).map((r) => r.label_id)
}

export function setLabels(db: Db, noteableId: number, labelIds: number[]) {
  write(db, 'noteable_labels', 'DELETE FROM noteable_labels WHERE noteable_id = ?').run(noteableId)
  addLabels(db, noteableId, labelIds)
}

/** Labels of an issue that has none yet (a new one). */
export function addLabels(db: Db, noteableId: number, labelIds: number[]) {
  for (const id of new Set(labelIds)) write(db, 'noteable_labels', 'INSERT INTO noteable_labels (noteable_id, label_id) VALUES (?, ?)').run(noteableId, id)
}

/** Ordered user lists (assignees, reviewers) by owner id, from rows sorted by owner then position. */
export function userListsByOwner(rows: { owner: number; user_id: number }[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  for (const r of rows) {
    let list = out.get(r.owner)
    if (!list) out.set(r.owner, (list = []))
    list.push(r.user_id)
  }
  return out
}

export const assigneeIdsOf = (db: Db, noteableIds: number[]): Map<number, number[]> =>
  userListsByOwner(byIds(db, (m) =>
    `SELECT noteable_id AS owner, user_id FROM noteable_assignees WHERE noteable_id ${m} ORDER BY noteable_id, position`, noteableIds))

export function setAssignees(db: Db, noteableId: number, userIds: number[]) {
  write(db, 'noteable_assignees', 'DELETE FROM noteable_assignees WHERE noteable_id = ?').run(noteableId)
  ;[...new Set(userIds)].forEach((u, i) => write(db, 'noteable_assignees', 'INSERT INTO noteable_assignees (noteable_id, user_id, position) VALUES (?, ?, ?)').run(noteableId, u, i))
}

export function votesOf(db: Db, noteableIds: number[]): Map<number, { up: number; down: number }> {
  const out = new Map<number, { up: number; down: number }>()
  for (const r of byIds<{ noteable_id: number; up: number; down: number }>(db, (m) =>
    `SELECT noteable_id, SUM(name = 'thumbsup') AS up, SUM(name = 'thumbsdown') AS down FROM award_emoji
      WHERE noteable_id ${m} AND name IN ('thumbsup', 'thumbsdown') GROUP BY noteable_id`, noteableIds)) out.set(r.noteable_id, { up: r.up, down: r.down })
  return out
}


/** The subscription row of a user, or undefined when the default (participants are subscribed) applies. */
export function explicitSubscription(db: Db, noteableId: number, userId: number): boolean | undefined {
  const row = stmt(db, 'SELECT subscribed FROM subscriptions WHERE noteable_id = ? AND user_id = ?').get(noteableId, userId) as { subscribed: number } | undefined
  return row === undefined ? undefined : row.subscribed === 1
}

export function setSubscription(db: Db, noteableId: number, userId: number, on: boolean) {
  write(db, 'subscriptions', `INSERT INTO subscriptions (noteable_id, user_id, subscribed) VALUES (?, ?, ?)
    ON CONFLICT (noteable_id, user_id) DO UPDATE SET subscribed = excluded.subscribed`).run(noteableId, userId, on ? 1 : 0)
}

/** Author, assignees, then authors of user notes in the order they first commented. */
export function participantIds(db: Db, noteable: { id: number; author_id: number }): number[] {
  const assignees = assigneeIdsOf(db, [noteable.id]).get(noteable.id) ?? []
  const commenters = (stmt(db, 'SELECT author_id FROM notes WHERE noteable_id = ? AND system = 0 ORDER BY created_at, id').all(noteable.id) as { author_id: number }[])
    .map((r) => r.author_id)
  return [...new Set([noteable.author_id, ...assignees, ...commenters])]
}

export interface UserAgentRow { user_agent: string; ip_address: string; submitted: number }

export const insertUserAgentDetail = (db: Db, noteableId: number, userAgent: string, ip: string) =>
  write(db, 'user_agent_details', 'INSERT INTO user_agent_details (noteable_id, user_agent, ip_address) VALUES (?, ?, ?)').run(noteableId, userAgent, ip)

export const findUserAgentDetail = (db: Db, noteableId: number) =>
  stmt(db, 'SELECT user_agent, ip_address, submitted FROM user_agent_details WHERE noteable_id = ?').get(noteableId) as UserAgentRow | undefined


/** The columns every kind's row has: what the shared services read and write. */
export interface NoteableRow {
  id: number
  project_id: number
  iid: number
  title: string
  author_id: number
  discussion_locked: number | null
  time_estimate: number
  total_time_spent: number
  updated_at: string
}

export type NoteablePatch = Partial<Pick<NoteableRow, 'time_estimate' | 'total_time_spent' | 'updated_at'>>

/**
 * Inserts a noteable of `kind` with its row (which takes the new noteable id) and returns the stored row, defaults
 * included. `beforeRow` writes what hangs off the noteable id (labels, assignees) between the two inserts.
 */
export function insertKindRow<R>(db: Db, kind: NoteableKind, row: { project_id: number | null } & Record<string, unknown>, beforeRow?: (id: number) => void): R {
  const full = { id: insertNoteable(db, kind, row.project_id), ...row }
  beforeRow?.(full.id)
  const cols = Object.keys(full)
  return write(db, NOTEABLE_TABLES[kind], `INSERT INTO ${NOTEABLE_TABLES[kind]} (${cols.join(', ')}) VALUES (${cols.map((c) => '@' + c).join(', ')}) RETURNING *`).get(full) as R
}

/** Sets the columns of `patch` on the kind's row. */
export function updateNoteable(db: Db, kind: NoteableKind, id: number, patch: NoteablePatch | Record<string, unknown>) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, NOTEABLE_TABLES[kind], `UPDATE ${NOTEABLE_TABLES[kind]} SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const findNoteableRow = (db: Db, kind: NoteableKind, id: number) =>
  stmt(db, `SELECT * FROM ${NOTEABLE_TABLES[kind]} WHERE id = ?`).get(id) as NoteableRow | undefined
