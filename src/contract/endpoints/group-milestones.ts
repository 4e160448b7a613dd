// Group milestones (lib/api/group_milestones.rb) and promoting a project milestone to one (POST …/milestones/:milestone_id/promote).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { IssueBasic, Milestone } from '../entities/issues.js'
import { MergeRequestBasic } from '../entities/merge-requests.js'
import { bool, int, list, oneOf, ref, str, text } from '../params.js'
import { Dates, EDIT_AT_LEAST_ONE_OF } from './milestones.js'

const Id = { id: ref() }
const MilestoneId = { id: ref(), milestone_id: int() }

export const listGroupMilestones = defineEndpoint({
  method: 'GET', path: '/groups/:id/milestones', summary: 'List milestones of a group', paginated: true,
  params: Id,
  input: {
    state: oneOf(['active', 'closed', 'all']).optional(), iids: list(int()).optional(), title: str().optional(), search: str().optional(),
    include_parent_milestones: bool().optional(), include_ancestors: bool().optional(),
  },
  responses: { 200: z.array(Milestone) },
})

export const getGroupMilestone = defineEndpoint({
  method: 'GET', path: '/groups/:id/milestones/:milestone_id', summary: 'Get a group milestone',
  params: MilestoneId, responses: { 200: Milestone },
})

export const createGroupMilestone = defineEndpoint({
  method: 'POST', path: '/groups/:id/milestones', summary: 'Create a group milestone',
  params: Id, input: { title: str(), description: text().optional(), ...Dates }, responses: { 201: Milestone },
})

export const editGroupMilestone = defineEndpoint({
  method: 'PUT', path: '/groups/:id/milestones/:milestone_id', summary: 'Edit, close (`state_event=close`) or activate a group milestone',
  params: MilestoneId,
  input: { title: str().optional(), description: text().optional(), state_event: oneOf(['close', 'activate']).optional(), ...Dates },
  atLeastOneOf: EDIT_AT_LEAST_ONE_OF, responses: { 200: Milestone },
})

export const deleteGroupMilestone = defineEndpoint({
  method: 'DELETE', path: '/groups/:id/milestones/:milestone_id', summary: 'Delete a group milestone',
  params: MilestoneId, responses: { 204: null },
})

export const listGroupMilestoneIssues = defineEndpoint({
  method: 'GET', path: '/groups/:id/milestones/:milestone_id/issues', summary: 'List the issues of a group milestone', paginated: true,
  params: MilestoneId, responses: { 200: z.array(IssueBasic) },
})

export const listGroupMilestoneMergeRequests = defineEndpoint({
  method: 'GET', path: '/groups/:id/milestones/:milestone_id/merge_requests', summary: 'List the merge requests of a group milestone', paginated: true,
  params: MilestoneId, responses: { 200: z.array(MergeRequestBasic) },
})

export const promoteProjectMilestone = defineEndpoint({
  method: 'POST', path: '/projects/:id/milestones/:milestone_id/promote', summary: "Promote a project milestone to a milestone of the project's group",
  // Grape answers with the value of `status(200)`: the body is the number 200.
  params: MilestoneId, responses: { 200: z.literal(200) },
})
