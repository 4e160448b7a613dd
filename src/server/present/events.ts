// Events as GitLab's Entities::Event shows them, and users' last activity days (Entities::UserActivity).
import type { Event } from '../../contract/endpoints/events.js'
import type { RequestContext } from '../context.js'
import type { EventView } from '../services/users/events-feed.js'
import type { ListedEventRow, UserActivityRow } from '../store/events.js'
import { presentNote } from './issues.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

/** GitLab's Event#action_name: what the feed says a user did. */
function actionName(row: ListedEventRow): string {
  if (row.action === 'pushed') return row.push_action === 'created' ? 'pushed new' : row.push_action === 'removed' ? 'deleted' : 'pushed to'
  const named: Record<string, string> = {
    closed: 'closed', merged: 'accepted', joined: 'joined', left: 'left', expired: 'removed due to membership expiration from',
    destroyed: 'destroyed', commented: 'commented on', approved: 'approved',
  }
  if (named[row.action]) return named[row.action]
  if (row.target_type === 'WikiPage::Meta' && (row.action === 'created' || row.action === 'updated')) return row.action
  if (row.action === 'created' && row.target_type === null) return 'created'
  // Opened and reopened issues and merge requests alike.
  return 'opened'
}

function pushData(row: ListedEventRow) {
  return {
    commit_count: row.push_commit_count!, action: row.push_action!, ref_type: row.push_ref_type!, commit_from: row.push_commit_from,
    commit_to: row.push_commit_to, ref: row.push_ref, commit_title: row.push_commit_title, ref_count: row.push_ref_count,
  }
}

function noteOf(note: NonNullable<EventView['note']>, ctx: Urls) {
  const { noteable } = note
  const shown = presentNote(note.row, note.author, { id: noteable.id, iid: noteable.iid ?? 0 }, ctx)
  // A commit's notes name no noteable row (GitLab shows the commit by its sha instead).
  return { ...shown, noteable_id: noteable.kind === 'Commit' ? null : noteable.id, noteable_type: noteable.kind, noteable_iid: noteable.iid }
}

export function presentEvent(v: EventView, ctx: Urls): Event {
  const { row } = v
  return {
    id: row.id,
    project_id: row.project_id,
    action_name: actionName(row),
    target_id: row.target_id,
    target_iid: v.target?.iid ?? row.target_id,
    target_type: row.target_type,
    author_id: row.author_id,
    target_title: v.target?.title ?? null,
    created_at: row.created_at,
    ...(v.note ? { note: noteOf(v.note, ctx) } : {}),
    author: presentUserBasic(v.author, ctx),
    ...(row.target_type === 'WikiPage::Meta' ? { wiki_page: { format: row.wiki_format!, slug: row.wiki_slug!, title: row.target_title! } } : {}),
    imported: false,
    imported_from: 'none',
    ...(row.action === 'pushed' ? { push_data: pushData(row) } : {}),
    author_username: v.author.username,
  }
}

/** `last_activity_at` is GitLab's deprecated twin of `last_activity_on`. */
export const presentUserActivity = (a: UserActivityRow) => ({ username: a.username, last_activity_on: a.last_activity_on, last_activity_at: a.last_activity_on })
