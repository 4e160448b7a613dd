// Recording the events feed: one listener of what the services announce (the announcements webhooks hear, whether or
// not a hook exists) and of moved refs; events-feed.ts reads it.
import type { AppDeps } from '../../context.js'
import { repositoryDir } from '../../git/repository.js'
import { mergeBase } from '../../git/merge/history.js'
import { readCommitInfo, readRef } from '../../git/read.js'
import { commitShaOf } from '../../store/discussions.js'
import * as store from '../../store/events.js'
import { onHookEvent, type HookEvent } from '../hooks/webhook-events.js'
import { onRefsMoved, type PushEvent, type RefChange } from '../repository/git-access.js'
import { pushedCommits } from '../hooks/webhook-payloads-ci.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUserById } from '../../store/users.js'

type Recorded = Pick<store.NewEvent, 'action' | 'target_type' | 'target_id'> & Partial<Pick<store.NewEvent, 'target_title' | 'wiki_slug' | 'wiki_format'>>

const ISSUABLE_ACTIONS = { open: 'created', close: 'closed', reopen: 'reopened', merge: 'merged' } as const
const WIKI_ACTIONS = { create: 'created', update: 'updated', delete: 'destroyed' } as const
const MEMBER_ACTIONS = { join: 'joined', leave: 'left', expire: 'expired' } as const
const MILESTONE_ACTIONS = { create: 'created', close: 'closed', reopen: 'reopened', destroy: 'destroyed' } as const

/** What an announcement records, or null for what GitLab keeps out of the feed (edits of issues and merge requests). */
function eventOf(app: AppDeps, e: Exclude<HookEvent, { kind: 'system' }>): Recorded | null {
  switch (e.kind) {
    case 'project': return { action: 'created', target_type: null, target_id: null }
    case 'member': return { action: MEMBER_ACTIONS[e.action], target_type: null, target_id: null }
    case 'issue':
      return e.action === 'update' ? null : { action: ISSUABLE_ACTIONS[e.action], target_type: 'Issue', target_id: e.issueId }
    case 'merge_request':
      return e.action === 'update' ? null : { action: ISSUABLE_ACTIONS[e.action], target_type: 'MergeRequest', target_id: e.mergeRequestId }
    case 'merge_request_approval': return { action: 'approved', target_type: 'MergeRequest', target_id: e.mergeRequestId }
    case 'milestone': return { action: MILESTONE_ACTIONS[e.action], target_type: 'Milestone', target_id: e.milestoneId, target_title: e.title }
    case 'note': {
      const note = store.findNoteWithKind(app.db, e.noteId)
      // GitLab's target_type is the note's class: DiffNote, DiscussionNote … or Note.
      return note && !note.system ? { action: 'commented', target_type: note.type ?? 'Note', target_id: note.id } : null
    }
    case 'wiki_page':
      return { action: WIKI_ACTIONS[e.action], target_type: 'WikiPage::Meta', target_id: null, target_title: e.page.title, wiki_slug: e.page.slug, wiki_format: e.page.format }
    // Event has no Release target in GitLab: a release is not in the feed, the tag it creates is (as a pushed tag).
    case 'release': return null
  }
}

function insert(app: AppDeps, at: string, projectId: number, userId: number, r: Recorded, push?: store.PushPayloadRow) {
  // The project or the user may be gone by the time a background listener runs: nothing to record then.
  const user = findUserById(app.db, userId)
  if (!findProjectById(app.db, projectId) || !user) return
  store.insertEvent(app.db, {
    project_id: projectId, author_id: userId, action: r.action, target_type: r.target_type, target_id: r.target_id,
    target_title: r.target_title ?? null, wiki_slug: r.wiki_slug ?? null, wiki_format: r.wiki_format ?? null, created_at: at,
  }, push)
  // Once a day per user: any write to users forgets every remembered read of it (tokens, users, issue texts), so the
  // UPDATE runs only when the day actually moves.
  const day = at.slice(0, 10)
  if (user.last_activity_on === null || user.last_activity_on < day) store.touchLastActivity(app.db, userId, day)
}

async function record(app: AppDeps, at: string, e: HookEvent) {
  if (e.kind === 'system') return
  const r = eventOf(app, e)
  if (!r) return
  // A commit's title never changes and is read from git: kept with the event, as a note on it shows it.
  if (e.kind === 'note' && e.noteableKind === 'Commit') r.target_title = await commitTitle(app, e.projectId, e.noteableId)
  insert(app, at, e.projectId, e.userId, r)
}

async function commitTitle(app: AppDeps, projectId: number, noteableId: number): Promise<string | null> {
  const sha = commitShaOf(app.db, noteableId)
  const commit = sha ? await readCommitInfo(repositoryDir(app.layout.repositories, projectId), sha).catch(() => null) : null
  return commit ? commit.message.split('\n')[0] : null
}

const titleOf = (message: string) => {
  const line = message.split('\n')[0]
  return line.length > 70 ? `${line.slice(0, 67)}...` : line
}

/** A new branch counts only the commits the default branch lacks, as GitLab's push data does. */
async function countedFrom(gitdir: string, p: ProjectView, change: RefChange): Promise<string | null> {
  if (change.before !== null || !p.default_branch || change.ref === `refs/heads/${p.default_branch}` || change.after === null) return change.before
  const head = await readRef(gitdir, `refs/heads/${p.default_branch}`).catch(() => null)
  return head ? mergeBase(gitdir, head, change.after).catch(() => null) : null
}

/** GitLab's PushEventPayload of one moved ref: pushed to, pushed new or deleted, a branch or a tag. */
async function pushPayloadOf(app: AppDeps, p: ProjectView, change: RefChange): Promise<store.PushPayloadRow | null> {
  const tag = change.ref.startsWith('refs/tags/')
  if (!tag && !change.ref.startsWith('refs/heads/')) return null
  const gitdir = repositoryDir(app.layout.repositories, p.id)
  const action = change.before === null ? 'created' : change.after === null ? 'removed' : 'pushed'
  let count = 0
  let title: string | null = null
  if (change.after !== null) {
    if (tag) {
      const head = await readCommitInfo(gitdir, change.after).catch(() => null)
      count = head ? 1 : 0
      title = head ? titleOf(head.message) : null
    } else {
      const { commits, total } = await pushedCommits(gitdir, { ...change, before: await countedFrom(gitdir, p, change) })
      count = total
      title = commits.length ? titleOf(commits[0].message) : null
    }
  }
  return {
    commit_count: count, action, ref_type: tag ? 'tag' : 'branch', commit_from: change.before, commit_to: change.after,
    ref: change.ref.replace(/^refs\/(heads|tags)\//, ''), commit_title: title, ref_count: null,
  }
}

/** GitLab's push_event_activities_limit (its default): more refs of one type and action than this make one bulk event. */
const PUSH_EVENT_ACTIVITIES_LIMIT = 3

const refTypeOf = (ref: string) => (ref.startsWith('refs/tags/') ? 'tag' : ref.startsWith('refs/heads/') ? 'branch' : null)
const pushActionOf = (c: RefChange) => (c.before === null ? 'created' : c.after === null ? 'removed' : 'pushed')

/**
 * A push's refs grouped by type and action, as GitLab's ProcessRefChangesService groups them: a group over the limit is
 * one bulk event (no ref, no commits, ref_count), the others one event per ref.
 */
async function recordPush(app: AppDeps, at: string, e: PushEvent) {
  const groups = new Map<string, RefChange[]>()
  for (const change of e.changes) {
    const type = refTypeOf(change.ref)
    if (!type) continue
    const key = `${type} ${pushActionOf(change)}`
    groups.set(key, [...(groups.get(key) ?? []), change])
  }
  const pushed = { action: 'pushed', target_type: null, target_id: null } as const
  for (const [key, changes] of groups) {
    if (changes.length > PUSH_EVENT_ACTIVITIES_LIMIT) {
      const [type, action] = key.split(' ') as [store.PushPayloadRow['ref_type'], store.PushPayloadRow['action']]
      insert(app, at, e.project.id, e.user.id, pushed, {
        commit_count: 0, action, ref_type: type, commit_from: null, commit_to: null, ref: null, commit_title: null, ref_count: changes.length,
      })
      continue
    }
    for (const change of changes) {
      const push = await pushPayloadOf(app, e.project, change)
      if (push) insert(app, at, e.project.id, e.user.id, pushed, push)
    }
  }
}

const queues = new WeakMap<AppDeps, Promise<unknown>>()

/**
 * Records announcements one after another, in the order they arrive, each stamped with its arrival: a push's git
 * reads must not let a later comment, or a later push, take an earlier id.
 */
function inOrder<E>(work: (app: AppDeps, at: string, e: E) => unknown) {
  return (app: AppDeps, e: E) => {
    const at = app.clock.now().toISOString()
    const run = (queues.get(app) ?? Promise.resolve()).then(() => work(app, at, e))
    queues.set(app, run.catch(() => undefined))
    return run.then(() => undefined)
  }
}

/** Starts recording this server's events; the returned function stops it. */
export function watchEvents(app: AppDeps): () => void {
  const offs = [onHookEvent(app, inOrder(record)), onRefsMoved(app, inOrder(recordPush))]
  return () => offs.forEach((off) => off())
}
