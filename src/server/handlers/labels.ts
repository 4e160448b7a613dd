// Project labels and milestones.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentLabel } from '../present/issues.js'
import { listIssueVersions } from '../services/issuables/index.js'
import { labelSubscribed } from '../services/issuables/index.js'
import * as labels from '../services/issuables/index.js'
import * as milestones from '../services/issuables/index.js'
import * as mrs from '../services/merge-requests/index.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { findVisibleProject } from '../services/projects/index.js'
import { presentList } from './issues.js'
import { labelVerbs } from './label-verbs.js'
import { milestoneVerbs, presentOwnMilestone } from './milestone-verbs.js'

const projectMilestones = milestoneVerbs(findVisibleProject)

export const projectLabels = labelVerbs(findVisibleProject, (ctx, p, l, subscribed = labelSubscribed(ctx, l)) => presentLabel(l, labels.labelCounts(ctx, p, l), subscribed))

export const labelHandlers = {
  listProjectLabels: projectLabels.list,
  getProjectLabel: projectLabels.get,
  createProjectLabel: projectLabels.create,
  editProjectLabel: projectLabels.edit,
  editProjectLabelByName: projectLabels.editByName,
  deleteProjectLabel: projectLabels.delete,
  deleteProjectLabelByName: projectLabels.deleteByName,
} satisfies Handlers<typeof contract.labels>

export const milestoneHandlers = {
  listProjectMilestones: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const { rows, total } = milestones.listMilestones(ctx, p, input)
    return { status: 200, body: rows.map((m) => presentOwnMilestone(ctx, p, m)), total }
  },

  getProjectMilestone: projectMilestones.get,
  createProjectMilestone: projectMilestones.create,
  editProjectMilestone: projectMilestones.edit,
  deleteProjectMilestone: projectMilestones.delete,

  listMilestoneMergeRequests: (input, ctx) => {
    const { o: p, m } = projectMilestones.found(ctx, input)
    const { rows, total } = mrs.listMergeRequests(ctx, {}, { project: p, milestoneId: m.id })
    return { status: 200, body: mrs.bundles(ctx, rows).map((b) => presentMergeRequestBasic(b, ctx)), total }
  },

  listMilestoneIssues: (input, ctx) => {
    const { o: p, m } = projectMilestones.found(ctx, input)
    return presentList(ctx, listIssueVersions(ctx, {}, { project: p, milestoneId: m.id }))
  },
} satisfies Handlers<typeof contract.milestones>
