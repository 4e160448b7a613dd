// Group labels, and promoting a project label to its group's.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentGroupLabel } from '../present/group-labels.js'
import { findVisibleGroup } from '../services/groups/index.js'
import * as labels from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { labelVerbs } from './label-verbs.js'

const groupLabels = labelVerbs(findVisibleGroup, (ctx, _g, l, subscribed = labels.labelSubscribed(ctx, l)) =>
  presentGroupLabel(l, labels.groupLabelCounts(ctx, l), subscribed))

export const groupLabelHandlers = {
  listGroupLabels: groupLabels.list,
  getGroupLabel: groupLabels.get,
  createGroupLabel: groupLabels.create,
  editGroupLabel: groupLabels.edit,
  editGroupLabelByName: groupLabels.editByName,
  deleteGroupLabel: groupLabels.delete,
  deleteGroupLabelByName: groupLabels.deleteByName,
  subscribeGroupLabel: groupLabels.subscribe,
  unsubscribeGroupLabel: groupLabels.unsubscribe,

  promoteProjectLabel: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    const promoted = labels.promoteLabel(ctx, p, labels.findLabel(ctx, p, input.label_id))
    return { status: 200, body: presentGroupLabel(promoted.label, labels.groupLabelCounts(ctx, promoted.label), labels.labelSubscribed(ctx, promoted.label)) }
  },
} satisfies Handlers<typeof contract.groupLabels>
