// The discussion layer's services, the same for every noteable kind: subscriptions, todos, time tracking,
// participants, system notes, and the issuables' labels, assignees and milestone. Issues and merge requests call these with their row and kind.
import { forbidden, notModified, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canAdminIssues, canReadProject } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { usersByIds } from '../../store/issues.js'
import * as store from '../../store/noteables.js'
import { hasPendingTodo, insertNote, insertTodo, userNoteBodiesWithMentions } from '../../store/notes.js'
import { usableMilestone } from './milestones.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUsersByUsernames, type UserRow } from '../../store/users.js'
import { humanDuration, parseTimeSpent } from '../../../core/durations.js'
import { resolveLabels } from './labels.js'
import { mentionedUsernames } from '../markup/markdown.js'

export type { NoteableKind, NoteableRow } from '../../store/noteables.js'

/** A noteable: its kind and the row of its kind's table. */
export interface Noteable { kind: store.NoteableKind; row: store.NoteableRow }

export function addSystemNote(ctx: RequestContext, noteableId: number, body: string, at: string) {
  insertNote(ctx.app.db, { noteable_id: noteableId, author_id: ctx.user!.id, body, system: 1, created_at: at, updated_at: at })
}

/** A noteable as participants are found from it: issues and merge requests also mention people in their description. */
type Participable = Pick<store.NoteableRow, 'id' | 'author_id' | 'project_id'> & { description?: string | null }

/** Usernames mentioned in the description and the user notes, in order of appearance. */
function mentionedIn(ctx: RequestContext, row: Participable): string[] {
  const texts = [row.description ?? '', ...userNoteBodiesWithMentions(ctx.app.db, row.id)]
  return [...new Set(texts.flatMap(mentionedUsernames))]
}

/** An explicit subscribe or unsubscribe wins; otherwise participants, mentioned users included, are subscribed (compat-notes §4). */
export function isSubscribed(ctx: RequestContext, row: Participable, assigneeIds?: number[]): boolean {
  const user = ctx.user
  if (!user) return false
  const explicit = store.explicitSubscription(ctx.app.db, row.id, user.id)
  if (explicit !== undefined) return explicit
  if (row.author_id === user.id || assigneeIds?.includes(user.id)) return true
  return store.participantIds(ctx.app.db, row).includes(user.id) || mentionedIn(ctx, row).includes(user.username)
}

/** 304 when the caller is already in the asked state. */
export function setSubscribed(ctx: RequestContext, row: store.NoteableRow, on: boolean) {
  if (isSubscribed(ctx, row) === on) throw notModified()
  store.setSubscription(ctx.app.db, row.id, ctx.user!.id, on)
}

/** A `marked` todo for the caller; 304 while one is pending. */
export function createTodo(ctx: RequestContext, row: store.NoteableRow): number {
  const db = ctx.app.db
  const user = ctx.user!
  if (hasPendingTodo(db, user.id, row.id)) throw notModified()
  const at = nowIso(ctx)
  return insertTodo(db, { user_id: user.id, author_id: user.id, project_id: row.project_id, noteable_id: row.id, action_name: 'marked', body: row.title, created_at: at, updated_at: at })
}

/** `assigned` todos for newly assigned users other than the caller. */
export function assignedTodos(ctx: RequestContext, row: Pick<store.NoteableRow, 'id' | 'project_id' | 'title'>, userIds: number[], at: string) {
  for (const id of userIds) {
    if (id === ctx.user!.id) continue
    insertTodo(ctx.app.db, { user_id: id, author_id: ctx.user!.id, project_id: row.project_id, noteable_id: row.id, action_name: 'assigned', body: row.title, created_at: at, updated_at: at })
  }
}

function requireTimeTracking(ctx: RequestContext, p: ProjectView) {
  if (!canAdminIssues(ctx, p)) throw forbidden()
}

const reread = (ctx: RequestContext, n: Noteable) => store.findNoteableRow(ctx.app.db, n.kind, n.row.id)!

export function setTimeEstimate(ctx: RequestContext, p: ProjectView, n: Noteable, duration: string | null): store.NoteableRow {
  requireTimeTracking(ctx, p)
  const seconds = duration === null ? 0 : parseTimeSpent(duration)
  if (seconds === null || seconds < 0) throw validationFailed({ time_estimate: ['has an invalid format'] })
  if (seconds === n.row.time_estimate) return reread(ctx, n)
  const at = nowIso(ctx)
  transaction(ctx.app.db, () => {
    store.updateNoteable(ctx.app.db, n.kind, n.row.id, { time_estimate: seconds, updated_at: at })
    addSystemNote(ctx, n.row.id, seconds ? `changed time estimate to ${humanDuration(seconds)}` : 'removed time estimate', at)
  })
  return reread(ctx, n)
}

/** Adds (negative: subtracts) spent time; `null` resets it. */
export function addSpentTime(ctx: RequestContext, p: ProjectView, n: Noteable, duration: string | null): store.NoteableRow {
  requireTimeTracking(ctx, p)
  const at = nowIso(ctx)
  const db = ctx.app.db
  const { row } = n
  if (duration === null) {
    if (row.total_time_spent === 0) return row
    transaction(db, () => {
      store.updateNoteable(db, n.kind, row.id, { total_time_spent: 0, updated_at: at })
      addSystemNote(ctx, row.id, 'removed time spent', at)
    })
    return reread(ctx, n)
  }
  const seconds = parseTimeSpent(duration)
  if (seconds === null || seconds === 0) throw validationFailed({ time_spent: ['has an invalid format'] })
  if (seconds < 0 && -seconds > row.total_time_spent) throw validationFailed({ time_spent: ['Time to subtract exceeds the total time spent'] })
  transaction(db, () => {
    store.updateNoteable(db, n.kind, row.id, { total_time_spent: row.total_time_spent + seconds, updated_at: at })
    addSystemNote(ctx, row.id, seconds > 0 ? `added ${humanDuration(seconds)} of time spent` : `subtracted ${humanDuration(-seconds)} of time spent`, at)
  })
  return reread(ctx, n)
}

/**
 * Author, assignees, commenters in the order they first commented, then the users mentioned who can read the project
 * (GitLab's Participable: a mention of someone who cannot see the project does not make them a participant).
 */
export function participants(ctx: RequestContext, row: Participable) {
  const ids = store.participantIds(ctx.app.db, row)
  const users = usersByIds(ctx.app.db, ids)
  const found = ids.flatMap((id) => users.get(id) ?? [])
  const project = findProjectById(ctx.app.db, row.project_id)
  const names = mentionedIn(ctx, row)
  const mentioned = findUsersByUsernames(ctx.app.db, names)
    .filter((u) => !ids.includes(u.id) && project !== undefined && canReadProject({ user: u, app: ctx.app }, project))
    .sort((a, b) => names.indexOf(a.username) - names.indexOf(b.username))
  return [...found, ...mentioned]
}

/** Assignees must exist and be able to read the project; others are dropped, as GitLab does. */
export function assignable(ctx: RequestContext, p: ProjectView, ids: number[]): number[] {
  const wanted = [...new Set(ids.filter((id) => id > 0))]
  const users = usersByIds(ctx.app.db, wanted)
  return wanted.filter((id) => {
    const u = users.get(id)
    return u !== undefined && canReadProject({ user: u, app: ctx.app }, p)
  })
}

/** `milestone_id` of this project or an ancestor group, 0 unassigns; any other is ignored, as GitLab does. */
export function milestoneFor(ctx: RequestContext, p: ProjectView, id: number): number | null | undefined {
  if (id === 0) return null
  return usableMilestone(ctx, p, id) ? id : undefined
}

export const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x))
const userRefs = (users: Map<number, UserRow>, ids: number[]) => ids.map((id) => `@${users.get(id)?.username ?? id}`).join(', ')

/** GitLab's system-note wording for label changes: `added ~1 ~2 labels and removed ~3 label`. */
export function labelNote(added: number[], removed: number[]): string {
  const part = (verb: string, ids: number[]) => `${verb} ${ids.map((id) => `~${id}`).join(' ')} label${ids.length > 1 ? 's' : ''}`
  return [added.length ? part('added', added) : '', removed.length ? part('removed', removed) : ''].filter(Boolean).join(' and ')
}

export function assigneeNote(users: Map<number, UserRow>, added: number[], removed: number[]): string {
  return [added.length ? `assigned to ${userRefs(users, added)}` : '', removed.length ? `unassigned ${userRefs(users, removed)}` : ''].filter(Boolean).join(' and ')
}

/** Labels after `labels` (replace), `add_labels` and `remove_labels`. */
export function nextLabels(ctx: RequestContext, p: ProjectView, current: number[], input: { labels?: string[]; add_labels?: string[]; remove_labels?: string[] }): number[] | undefined {
  if (input.labels === undefined && input.add_labels === undefined && input.remove_labels === undefined) return undefined
  let ids = input.labels !== undefined ? resolveLabels(ctx, p, input.labels, true).map((l) => l.id) : [...current]
  if (input.add_labels) ids.push(...resolveLabels(ctx, p, input.add_labels, true).map((l) => l.id))
  if (input.remove_labels) {
    const drop = new Set(resolveLabels(ctx, p, input.remove_labels, false).map((l) => l.id))
    ids = ids.filter((id) => !drop.has(id))
  }
  return [...new Set(ids)].sort((a, b) => a - b)
}

/** `namespace/project` by project id, each looked up once: a page of issuables names the same few projects. */
export function projectPaths(ctx: RequestContext): (projectId: number) => string {
  const paths = new Map<number, string>()
  return (projectId) => {
    let path = paths.get(projectId)
    if (path === undefined) {
      const p = findProjectById(ctx.app.db, projectId)!
      paths.set(projectId, (path = `${p.ns_full_path}/${p.path}`))
    }
    return path
  }
}
