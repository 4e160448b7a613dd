// Project milestones (compat-notes §2): the path id is the global id; `state_event` closes or activates.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { IssueBasic, Milestone } from '../entities/issues.js'
import { MergeRequestBasic } from '../entities/merge-requests.js'
import { clearableDate } from './issues.js'
import { bool, int, list, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const MilestoneId = { id: ref(), milestone_id: int() }
/** Grape's Date coercion keeps the day of a timestamp: `2020-01-01T00:00:00Z` is 2020-01-01 (python-gitlab sends datetimes). */
const dayOf = (v: unknown) => (typeof v === 'string' ? v.trim().replace(/^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i, '$1') : v)
const milestoneDate = () => z.preprocess(dayOf, clearableDate())
// MilestoneResponses' update_params, for project and group milestones.
export const EDIT_AT_LEAST_ONE_OF = ['title', 'description', 'start_date', 'due_date', 'state_event']
export const Dates = { due_date: milestoneDate().optional(), start_date: milestoneDate().optional() }

export const listProjectMilestones = defineEndpoint({
  method: 'GET', path: '/projects/:id/milestones', summary: 'List milestones of a project', paginated: true,
  params: Id,
  input: {
    state: oneOf(['active', 'closed']).optional(), iids: list(int()).optional(), title: str().optional(), search: str().optional(),
    include_parent_milestones: bool().optional(),
  },
  responses: { 200: z.array(Milestone) },
})

export const getProjectMilestone = defineEndpoint({
  method: 'GET', path: '/projects/:id/milestones/:milestone_id', summary: 'Get a milestone',
  params: MilestoneId, responses: { 200: Milestone },
})

export const createProjectMilestone = defineEndpoint({
  method: 'POST', path: '/projects/:id/milestones', summary: 'Create a milestone',
  params: Id, input: { title: str(), description: text().optional(), ...Dates }, responses: { 201: Milestone },
})

export const editProjectMilestone = defineEndpoint({
  method: 'PUT', path: '/projects/:id/milestones/:milestone_id', summary: 'Edit, close (`state_event=close`) or activate a milestone',
  params: MilestoneId,
  input: { title: str().optional(), description: text().optional(), state_event: oneOf(['close', 'activate']).optional(), ...Dates },
  atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: Milestone },
})

export const deleteProjectMilestone = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/milestones/:milestone_id', summary: 'Delete a milestone',
  params: MilestoneId, responses: { 204: null },
})

export const listMilestoneMergeRequests = defineEndpoint({
  method: 'GET', path: '/projects/:id/milestones/:milestone_id/merge_requests', summary: 'List the merge requests of a milestone', paginated: true,
  params: MilestoneId, responses: { 200: z.array(MergeRequestBasic) },
})

export const listMilestoneIssues = defineEndpoint({
  method: 'GET', path: '/projects/:id/milestones/:milestone_id/issues', summary: 'List the issues of a milestone', paginated: true,
  params: MilestoneId, responses: { 200: z.array(IssueBasic) },
})
