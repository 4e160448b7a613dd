// Group milestones, their issues and merge requests, and promoting a project milestone to its group's.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { promoteMilestone } from '../services/issuables/index.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { listIssueVersions } from '../services/issuables/index.js'
import * as mrs from '../services/merge-requests/index.js'
import * as milestones from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { presentList } from './issues.js'
import { milestoneVerbs, presentOwnMilestone } from './milestone-verbs.js'

const groupMilestones = milestoneVerbs(findVisibleGroup)
const groupMilestone = groupMilestones.found

export const groupMilestoneHandlers = {
  listGroupMilestones: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    const state = input.state === 'all' ? undefined : input.state
    const ancestors = input.include_parent_milestones === true || input.include_ancestors === true
    const { rows, total } = milestones.listMilestones(ctx, g, { ...input, state, include_parent_milestones: ancestors })
    return { status: 200, body: rows.map((m) => presentOwnMilestone(ctx, g, m)), total }
  },

  getGroupMilestone: groupMilestones.get,
  createGroupMilestone: groupMilestones.create,
  editGroupMilestone: groupMilestones.edit,
  deleteGroupMilestone: groupMilestones.delete,

  // GitLab lists the group's issuables by the milestone's title (MilestoneResponses#build_finder_params).
  listGroupMilestoneIssues: (input, ctx) => {
    const { o: g, m } = groupMilestone(ctx, input)
    return presentList(ctx, listIssueVersions(ctx, { milestone: m.title }, { groupId: g.id }))
  },

  listGroupMilestoneMergeRequests: (input, ctx) => {
    const { o: g, m } = groupMilestone(ctx, input)
    const { rows, total } = mrs.listMergeRequests(ctx, { milestone: m.title }, { groupId: g.id })
    return { status: 200, body: mrs.bundles(ctx, rows).map((b) => presentMergeRequestBasic(b, ctx)), total }
  },

  promoteProjectMilestone: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    promoteMilestone(ctx, p, milestones.findMilestone(ctx, p, input.milestone_id))
    return { status: 200, body: 200 as const }
  },
} satisfies Handlers<typeof contract.groupMilestones>
