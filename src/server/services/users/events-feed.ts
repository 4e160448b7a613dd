// Reading the events feed (GitLab's EventsFinder): the caller's own events, a user's, a project's, or those of every
// project the caller belongs to, filtered, then kept only where the caller may see the project and the target.
import type { EVENT_ACTIONS, EVENT_TARGET_TYPES } from '../../../contract/endpoints/events.js'
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { canReadCode, canReadIssue, canReadProject, GUEST, isAdmin, projectLevel } from '../../policy.js'
import * as store from '../../store/events.js'
import { findIssueById } from '../../store/issues.js'
import { findMergeRequestById } from '../../store/merge-requests.js'
import { findMilestone } from '../../store/milestones.js'
import { assigneeIdsOf } from '../../store/noteables.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findSnippet } from '../../store/snippets.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { canReadSnippet } from '../snippets/snippets.js'

/** The class names each `target_type` filter selects (GitLab's Event::TARGET_TYPES). */
const TARGET_CLASSES: Record<(typeof EVENT_TARGET_TYPES)[number], string> = {
  issue: 'Issue', milestone: 'Milestone', merge_request: 'MergeRequest', note: 'Note', project: 'Project', snippet: 'Snippet',
  user: 'User', wiki: 'WikiPage::Meta', design: 'DesignManagement::Design',
}

export interface EventFilters {
  action?: (typeof EVENT_ACTIONS)[number]
  target_type?: (typeof EVENT_TARGET_TYPES)[number]
  before?: string
  after?: string
  sort?: 'asc' | 'desc'
}

/** The noteable a note event is about, as its note entity shows it. */
export interface NoteableRef { kind: string; id: number; iid: number | null; title: string | null }

export interface EventView {
  row: store.ListedEventRow
  author: UserRow
  /** The target's iid and live title (issues, merge requests); a note's is the noteable's title. */
  target: { iid: number | null; title: string | null } | null
  note: { row: store.NoteWithKind; author: UserRow; noteable: NoteableRef } | null
}

export type FeedSource = { kind: 'mine' } | { kind: 'all' } | { kind: 'user'; user: UserRow } | { kind: 'project'; project: ProjectView }

const noAuth = () => new CollabError('UNAUTHORIZED', '401 Unauthorized', { status: 401 })

/**
 * A page of the events a caller may see from a source. As GitLab's EventsFinder: the projects the caller may not see
 * are left out before paging, and events whose target they may not see (a confidential issue, a private project's
 * code) are dropped from the page after it, so `total` counts those and a page may come out short.
 */
export function listFeed(ctx: RequestContext, source: FeedSource, f: EventFilters): { views: EventView[]; total: number } {
  if ((source.kind === 'mine' || source.kind === 'all') && !ctx.user) throw noAuth()
  // A private profile's events are for the user and administrators (GitLab's read_user_profile).
  if (source.kind === 'user' && source.user.private_profile && ctx.user?.id !== source.user.id && !isAdmin(ctx)) return { views: [], total: 0 }
  const authorId = source.kind === 'mine' ? ctx.user!.id : source.kind === 'user' ? source.user.id : undefined
  const viewer = new Viewer(ctx, source.kind === 'all')
  const projectIds = source.kind === 'project' ? [source.project.id] : store.eventProjectIds(ctx.app.db, authorId).filter((id) => viewer.project(id))
  if (!projectIds.length) return { views: [], total: 0 }
  const { rows, total } = store.listEvents(ctx.app.db, {
    authorId, projectIds, action: f.action, targetType: f.target_type && TARGET_CLASSES[f.target_type],
    // Whole days: before the start of `before`, after the end of `after`.
    before: f.before ? `${f.before}T00:00:00.000Z` : undefined,
    after: f.after ? `${f.after}T23:59:59.999Z` : undefined,
  }, { sort: f.sort ?? 'desc', limit: ctx.page.limit, offset: ctx.page.offset })
  const views: EventView[] = []
  for (const row of rows) {
    const view = viewer.view(row)
    if (view) views.push(view)
  }
  return { views, total }
}

/** Decides event by event what the caller sees, remembering projects and users across one listing. */
class Viewer {
  private projects = new Map<number, ProjectView | null>()
  private users = new Map<number, UserRow | undefined>()
  constructor(private ctx: RequestContext, private membersOnly: boolean) {}

  project(id: number): ProjectView | null {
    if (!this.projects.has(id)) {
      const p = findProjectById(this.ctx.app.db, id)
      const readable = p && canReadProject(this.ctx, p) && (!this.membersOnly || projectLevel(this.ctx, p) >= GUEST)
      this.projects.set(id, readable ? p : null)
    }
    return this.projects.get(id)!
  }

  private user(id: number) {
    if (!this.users.has(id)) this.users.set(id, findUserById(this.ctx.app.db, id))
    return this.users.get(id)
  }

  view(row: store.ListedEventRow): EventView | null {
    const p = this.project(row.project_id)
    const author = this.user(row.author_id)
    if (!p || !author) return null
    const base = { row, author, target: null, note: null }
    if (row.action === 'pushed') return canReadCode(this.ctx, p) ? base : null
    switch (row.target_type) {
      case null: return base
      case 'WikiPage::Meta': return { ...base, target: { iid: null, title: row.target_title } }
      case 'Issue': return this.issuable(base, p, 'Issue', row.target_id!)
      case 'MergeRequest': return this.issuable(base, p, 'MergeRequest', row.target_id!)
      case 'Milestone': {
        // A destroyed milestone keeps the title it had.
        const m = findMilestone(this.ctx.app.db, p.id, row.target_id!)
        return { ...base, target: { iid: m?.iid ?? null, title: m?.title ?? row.target_title } }
      }
      default: return this.noteView(base, p, row.target_id!)
    }
  }

  /** The noteable an event names, while it exists and the caller may read it (a confidential issue, a private snippet). */
  private noteable(p: ProjectView, kind: string, id: number): NoteableRef | null {
    const db = this.ctx.app.db
    if (kind === 'Issue') {
      const issue = findIssueById(db, id)
      if (!issue || !canReadIssue(this.ctx, p, issue, assigneeIdsOf(db, [id]).get(id) ?? [])) return null
      return { kind, id, iid: issue.iid, title: issue.title }
    }
    if (kind === 'MergeRequest') {
      const mr = findMergeRequestById(db, id)
      return mr && canReadCode(this.ctx, p) ? { kind, id, iid: mr.iid, title: mr.title } : null
    }
    if (kind === 'Snippet') {
      const s = findSnippet(db, id)
      return s && canReadSnippet(this.ctx, s, p) ? { kind, id, iid: null, title: s.title } : null
    }
    // Commits (and kinds to come) are read with the code.
    return canReadCode(this.ctx, p) ? { kind, id, iid: null, title: null } : null
  }

  private issuable(base: EventView, p: ProjectView, kind: string, id: number): EventView | null {
    const target = this.noteable(p, kind, id)
    return target ? { ...base, target: { iid: target.iid, title: target.title } } : null
  }

  private noteView(base: EventView, p: ProjectView, noteId: number): EventView | null {
    const note = store.findNoteWithKind(this.ctx.app.db, noteId)
    const noteAuthor = note && this.user(note.author_id)
    const noteable = note && noteAuthor ? this.noteable(p, note.noteable_kind, note.noteable_id) : null
    if (!note || !noteAuthor || !noteable) return null
    return { ...base, target: { iid: note.id, title: noteable.title ?? base.row.target_title }, note: { row: note, author: noteAuthor, noteable } }
  }
}

/** GET /user/activities: from a day (six months back by default); private profiles only for administrators. */
export function userActivities(ctx: RequestContext, from?: string) {
  if (!ctx.user) throw noAuth()
  const sixMonthsBack = new Date(ctx.app.clock.now().getTime())
  sixMonthsBack.setUTCMonth(sixMonthsBack.getUTCMonth() - 6)
  const since = from ?? sixMonthsBack.toISOString()
  return store.listUserActivities(ctx.app.db, since.slice(0, 10), isAdmin(ctx), { limit: ctx.page.limit, offset: ctx.page.offset })
}
