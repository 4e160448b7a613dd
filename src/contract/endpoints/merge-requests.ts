// The Merge Requests API of api-v4.md §Merge requests: three lists, CRUD and the read-only sub-resources of one merge
// request (participants, commits, changes, pipelines, closes_issues). Actions are in merge-request-actions.ts.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import {
  ClosesIssuesEntry, MergeRequest, MergeRequestBasic, MergeRequestChanges, MergeRequestCommit, MergeRequestSimple, PipelineBasic,
} from '../entities/merge-requests.js'
import { Pipeline } from '../entities/pipelines.js'
import { UserBasic } from '../entities/users.js'
import { bool, int, isoDate, list, oneOf, ref, str, text } from '../params.js'
import { clearableId, idList, userFilter } from './issues.js'

const Id = { id: ref() }
export const MergeRequestIid = { id: ref(), merge_request_iid: int() }

export const MergeRequestListFilters = {
  state: oneOf(['opened', 'closed', 'locked', 'merged', 'all']).optional(),
  order_by: oneOf(['created_at', 'updated_at']).optional(),
  sort: oneOf(['asc', 'desc']).optional(),
  milestone: str().optional(),
  /** `simple` answers only iid, URL, title, description and basic state. */
  view: oneOf(['simple']).optional(),
  labels: list(str()).optional(),
  created_after: isoDate().optional(),
  created_before: isoDate().optional(),
  updated_after: isoDate().optional(),
  updated_before: isoDate().optional(),
  scope: oneOf(['created_by_me', 'assigned_to_me', 'all', 'created-by-me', 'assigned-to-me']).optional(),
  author_id: int().optional(),
  author_username: str().optional(),
  assignee_id: userFilter().optional(),
  reviewer_id: userFilter().optional(),
  reviewer_username: str().optional(),
  my_reaction_emoji: str().optional(),
  source_branch: str(1024).optional(),
  target_branch: str(1024).optional(),
  search: str().optional(),
  /** Draft status: `yes` lists drafts only, `no` the others. */
  wip: oneOf(['yes', 'no']).optional(),
  iids: idList().optional(),
}
export type MergeRequestListInput = { [K in keyof typeof MergeRequestListFilters]?: z.output<(typeof MergeRequestListFilters)[K]> }

/** A list answers the basic form, or the simple one with `view=simple`. */
const MergeRequestList = z.array(z.union([MergeRequestBasic, MergeRequestSimple]))

/** What create and update share; `remove_source_branch` is stored as `force_remove_source_branch`. */
const CommonInput = {
  description: text().optional(),
  assignee_id: clearableId().optional(),
  assignee_ids: idList().optional(),
  reviewer_ids: idList().optional(),
  milestone_id: clearableId().optional(),
  labels: list(str()).optional(),
  remove_source_branch: bool().optional(),
  allow_collaboration: bool().optional(),
  /** Deprecated name of `allow_collaboration`. */
  allow_maintainer_to_push: bool().optional(),
  squash: bool().optional(),
}

const CreateInput = {
  source_branch: str(1024),
  target_branch: str(1024),
  title: str(),
  /** For a merge request from a fork: the project to merge into (the path's project is the fork). */
  target_project_id: int().optional(),
  ...CommonInput,
}
export type CreateMergeRequestInput = z.output<z.ZodObject<typeof CreateInput>>

const UpdateInput = {
  target_branch: str(1024).optional(),
  title: str().optional(),
  add_labels: list(str()).optional(),
  remove_labels: list(str()).optional(),
  state_event: oneOf(['close', 'reopen']).optional(),
  discussion_locked: bool().optional(),
  ...CommonInput,
}
export type UpdateMergeRequestInput = { [K in keyof typeof UpdateInput]?: z.output<(typeof UpdateInput)[K]> }

export const listMergeRequests = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/merge_requests', summary: 'List merge requests the caller can see (scope created_by_me by default)', paginated: true, cacheable: true,
  input: MergeRequestListFilters, responses: { 200: MergeRequestList },
})

export const listGroupMergeRequests = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/groups/:id/merge_requests', summary: 'List merge requests of a group and its subgroups', paginated: true, cacheable: true,
  params: Id, input: MergeRequestListFilters, responses: { 200: MergeRequestList },
})

export const listProjectMergeRequests = defineEndpoint({
  method: 'GET', auth: 'optional', jobToken: true, path: '/projects/:id/merge_requests', summary: 'List merge requests of a project', paginated: true, cacheable: true,
  params: Id, input: MergeRequestListFilters, responses: { 200: MergeRequestList },
})

export const getProjectMergeRequest = defineEndpoint({
  method: 'GET', auth: 'optional', jobToken: true, path: '/projects/:id/merge_requests/:merge_request_iid', summary: 'Get a single merge request',
  // Read from the database alone unless the diverged commit count (git) is asked for.
  cacheable: (params) => !params.include_diverged_commits_count,
  params: MergeRequestIid,
  input: { render_html: bool().optional(), include_diverged_commits_count: bool().optional(), include_rebase_in_progress: bool().optional() },
  responses: { 200: MergeRequest },
})

export const createProjectMergeRequest = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests', summary: 'Create a merge request',
  params: Id, input: CreateInput, responses: { 201: MergeRequest },
})

export const updateProjectMergeRequest = defineEndpoint({
  method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid', summary: 'Update a merge request, retarget, close or reopen it',
  params: MergeRequestIid, input: UpdateInput, responses: { 200: MergeRequest },
  // MergeRequests.update_params_at_least_one_of
  atLeastOneOf: [
    'assignee_id', 'assignee_ids', 'reviewer_ids', 'description', 'labels', 'add_labels', 'remove_labels',
    'milestone_id', 'milestone', 'remove_source_branch', 'allow_collaboration', 'allow_maintainer_to_push', 'squash',
    'target_branch', 'title', 'state_event', 'discussion_locked', 'merge_after',
  ],
})

export const deleteProjectMergeRequest = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/merge_requests/:merge_request_iid', summary: 'Delete a merge request (administrators and project owners)',
  params: MergeRequestIid, responses: { 204: null },
})

export const listMergeRequestParticipants = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/participants', summary: 'Participants of a merge request: author, assignees, commenters', paginated: true,
  params: MergeRequestIid, responses: { 200: z.array(UserBasic) },
})

export const listMergeRequestCommits = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/commits', summary: 'Commits of a merge request, newest first', paginated: true,
  params: MergeRequestIid, responses: { 200: z.array(MergeRequestCommit) },
})

export const getMergeRequestChanges = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/changes', summary: 'A merge request with the diff of every changed file',
  params: MergeRequestIid, input: { access_raw_diffs: bool().optional(), unidiff: bool().optional() },
  responses: { 200: MergeRequestChanges },
})

export const listMergeRequestPipelines = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/pipelines', summary: 'Pipelines of a merge request, newest first', paginated: true,
  params: MergeRequestIid, responses: { 200: z.array(PipelineBasic) },
})

/** 200, not 201, as GitLab answers it. */
export const createMergeRequestPipeline = defineEndpoint({
  method: 'POST', path: '/projects/:id/merge_requests/:merge_request_iid/pipelines', summary: "Run a merge request's pipeline in its target project",
  params: MergeRequestIid, responses: { 200: Pipeline },
})

export const listMergeRequestClosesIssues = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/closes_issues', summary: 'Issues that merging the merge request would close', paginated: true,
  params: MergeRequestIid, responses: { 200: z.array(ClosesIssuesEntry) },
})
