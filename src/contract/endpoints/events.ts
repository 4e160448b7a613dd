// The events feed (lib/api/events.rb, GET /projects/:id/events) and users' last activity days (GET /user/activities).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Note } from '../entities/issues.js'
import { UserBasic } from '../entities/users.js'
import { WikiPageBasic } from '../entities/wikis.js'
import { dateOnly, isoDate, oneOf, ref } from '../params.js'

const int = z.number().int()

export const PushData = z.object({
  commit_count: int,
  action: z.enum(['pushed', 'created', 'removed']),
  ref_type: z.enum(['branch', 'tag']),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  // Null on a bulk push event (more refs of one type and action than the limit), which gives ref_count instead.
  ref: z.string().nullable(),
  commit_title: z.string().nullable(),
  ref_count: int.nullable(),
})

export const Event = z.object({
  id: int,
  project_id: int,
  action_name: z.string(),
  target_id: int.nullable(),
  target_iid: int.nullable(),
  target_type: z.string().nullable(),
  author_id: int,
  target_title: z.string().nullable(),
  created_at: z.string(),
  /** On comments: the note, its noteable a kind GitLab names (Issue, MergeRequest, Snippet, Commit). */
  note: Note.extend({ noteable_id: int.nullable(), noteable_type: z.string(), noteable_iid: int.nullable() }).optional(),
  author: UserBasic,
  wiki_page: WikiPageBasic.optional(),
  imported: z.boolean(),
  imported_from: z.string(),
  push_data: PushData.optional(),
  author_username: z.string(),
})
export type Event = z.infer<typeof Event>

export const UserActivity = z.object({ username: z.string(), last_activity_on: z.string(), last_activity_at: z.string() })

export const EVENT_ACTIONS = ['created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved'] as const
export const EVENT_TARGET_TYPES = ['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user', 'wiki', 'design'] as const

const Filters = {
  action: oneOf(EVENT_ACTIONS).optional(),
  target_type: oneOf(EVENT_TARGET_TYPES).optional(),
  before: dateOnly().optional(),
  after: dateOnly().optional(),
  sort: oneOf(['asc', 'desc']).optional(),
}

export const listEvents = defineEndpoint({
  method: 'GET', path: '/events', summary: "List the caller's events, or with scope=all those of every project they belong to",
  scope: 'user', paginated: true, input: { ...Filters, scope: z.string().max(255).optional() }, responses: { 200: z.array(Event) },
})

export const listUserEvents = defineEndpoint({
  method: 'GET', path: '/users/:id/events', summary: "List a user's contribution events (id or username) in projects the caller can see",
  auth: 'optional', scope: 'user', paginated: true, params: { id: ref() }, input: Filters, responses: { 200: z.array(Event) },
})

export const listProjectEvents = defineEndpoint({
  method: 'GET', path: '/projects/:id/events', summary: "List a project's visible events",
  auth: 'optional', paginated: true, params: { id: ref() }, input: Filters, responses: { 200: z.array(Event) },
})

export const listUserActivities = defineEndpoint({
  method: 'GET', path: '/user/activities', summary: 'List the last activity day of users active since a day (private profiles for administrators)',
  scope: 'user', paginated: true, input: { from: isoDate().optional() }, responses: { 200: z.array(UserActivity) },
})
