// Project labels and milestones.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentLabel, presentMilestone } from '../present/issues.js'
import { listIssueVersions } from '../services/issuables/index.js'
import { labelSubscribed } from '../services/issuables/index.js'
import * as labels from '../services/issuables/index.js'
import * as milestones from '../services/issuables/index.js'
import * as mrs from '../services/merge-requests/index.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { findVisibleProject } from '../services/projects/index.js'
import { presentList } from './issues.js'

type ProjectView = ReturnType<typeof findVisibleProject>

const label = (ctx: RequestContext, p: ProjectView, l: labels.LabelRow) => presentLabel(l, labels.labelCounts(ctx, p, l), labelSubscribed(ctx, l))
const milestone = (ctx: RequestContext, p: ProjectView, m: milestones.MilestoneRow) => presentMilestone(m, `${p.ns_full_path}/${p.path}`, nowIso(ctx).slice(0, 10), ctx)

const labelByParam = (ctx: RequestContext, p: ProjectView, input: { name?: string; label_id?: number }) => labels.findLabel(ctx, p, labels.labelRefParam(input))

export const labelHandlers = {
  listProjectLabels: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const { rows, total } = labels.listLabels(ctx, p, input)
    return { status: 200, body: rows.map((l) => label(ctx, p, l)), total }
  },

  getProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: label(ctx, p, labels.findLabel(ctx, p, input.label_id, true)) }
  },

  createProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 201, body: label(ctx, p, labels.createLabel(ctx, p, input)) }
  },

  editProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: label(ctx, p, labels.editLabel(ctx, p, labels.findLabel(ctx, p, input.label_id), input)) }
  },

  editProjectLabelByName: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: label(ctx, p, labels.editLabel(ctx, p, labelByParam(ctx, p, input), input)) }
  },

  deleteProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    labels.deleteLabel(ctx, p, labels.findLabel(ctx, p, input.label_id))
    return { status: 204 }
  },

  deleteProjectLabelByName: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    labels.deleteLabel(ctx, p, labelByParam(ctx, p, input))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.labels>

export const milestoneHandlers = {
  listProjectMilestones: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const { rows, total } = milestones.listMilestones(ctx, p, input)
    return { status: 200, body: rows.map((m) => milestone(ctx, p, m)), total }
  },

  getProjectMilestone: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: milestone(ctx, p, milestones.findMilestone(ctx, p, input.milestone_id)) }
  },

  createProjectMilestone: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 201, body: milestone(ctx, p, milestones.createMilestone(ctx, p, input)) }
  },

  editProjectMilestone: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: milestone(ctx, p, milestones.editMilestone(ctx, p, milestones.findMilestone(ctx, p, input.milestone_id), input)) }
  },

  deleteProjectMilestone: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    milestones.deleteMilestone(ctx, p, milestones.findMilestone(ctx, p, input.milestone_id))
    return { status: 204 }
  },

  listMilestoneMergeRequests: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const m = milestones.findMilestone(ctx, p, input.milestone_id)
    const { rows, total } = mrs.listMergeRequests(ctx, {}, { project: p, milestoneId: m.id })
    return { status: 200, body: mrs.bundles(ctx, rows).map((b) => presentMergeRequestBasic(b, ctx)), total }
  },

  listMilestoneIssues: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const m = milestones.findMilestone(ctx, p, input.milestone_id)
    return presentList(ctx, listIssueVersions(ctx, {}, { project: p, milestoneId: m.id }))
  },
} satisfies Handlers<typeof contract.milestones>
