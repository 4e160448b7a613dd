// Group labels, and promoting a project label to its group's.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentGroupLabel } from '../present/group-labels.js'
import * as groupLabels from '../services/issuables/index.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { labelSubscribed, setLabelSubscription } from '../services/issuables/index.js'
import type { LabelRow } from '../services/issuables/index.js'
import { findLabel, labelRefParam } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'

type Group = ReturnType<typeof findVisibleGroup>

const label = (ctx: RequestContext, g: Group, l: LabelRow, subscribed = labelSubscribed(ctx, l)) =>
  presentGroupLabel(l, groupLabels.groupLabelCounts(ctx, l), subscribed)

const labelByParam = (ctx: RequestContext, g: Group, input: { name?: string; label_id?: number }) => groupLabels.findGroupLabel(ctx, g, labelRefParam(input))

function toggle(ctx: RequestContext, input: { id: string; label_id: string }, on: boolean) {
  const g = findVisibleGroup(ctx, input.id)
  const l = groupLabels.findGroupLabel(ctx, g, input.label_id, {})
  setLabelSubscription(ctx, l, on)
  return { status: 201, body: label(ctx, g, l, on) }
}

export const groupLabelHandlers = {
  listGroupLabels: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    const { rows, total } = groupLabels.listGroupLabels(ctx, g, input)
    return { status: 200, body: rows.map((l) => label(ctx, g, l)), total }
  },

  getGroupLabel: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    return { status: 200, body: label(ctx, g, groupLabels.findGroupLabel(ctx, g, input.label_id, input)) }
  },

  createGroupLabel: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    return { status: 201, body: label(ctx, g, groupLabels.createGroupLabel(ctx, g, input)) }
  },

  editGroupLabel: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    return { status: 200, body: label(ctx, g, groupLabels.editGroupLabel(ctx, g, groupLabels.findGroupLabel(ctx, g, input.label_id), input)) }
  },

  editGroupLabelByName: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    return { status: 200, body: label(ctx, g, groupLabels.editGroupLabel(ctx, g, labelByParam(ctx, g, input), input)) }
  },

  deleteGroupLabel: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    groupLabels.deleteGroupLabel(ctx, g, groupLabels.findGroupLabel(ctx, g, input.label_id))
    return { status: 204 }
  },

  deleteGroupLabelByName: (input, ctx) => {
    const g = findVisibleGroup(ctx, input.id)
    groupLabels.deleteGroupLabel(ctx, g, labelByParam(ctx, g, input))
    return { status: 204 }
  },

  subscribeGroupLabel: (input, ctx) => toggle(ctx, input, true),
  unsubscribeGroupLabel: (input, ctx) => toggle(ctx, input, false),

  promoteProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const promoted = groupLabels.promoteLabel(ctx, p, findLabel(ctx, p, input.label_id))
    return { status: 200, body: label(ctx, promoted.group, promoted.label) }
  },
} satisfies Handlers<typeof contract.groupLabels>
