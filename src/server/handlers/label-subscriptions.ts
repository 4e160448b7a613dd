// Label subscribe and unsubscribe: the label answered with its new `subscribed`.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentLabel } from '../present/issues.js'
import { setLabelSubscription } from '../services/issuables/index.js'
import { findLabel, labelCounts } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'

function toggle(ctx: RequestContext, input: { id: string; label_id: string }, on: boolean) {
  const p = findVisibleProject(ctx, input.id)
  const l = findLabel(ctx, p, input.label_id, true)
  setLabelSubscription(ctx, l, on)
  return { status: 201, body: presentLabel(l, labelCounts(ctx, p, l), on) }
}

export const labelSubscriptionHandlers = {
  subscribeProjectLabel: (input, ctx) => toggle(ctx, input, true),
  unsubscribeProjectLabel: (input, ctx) => toggle(ctx, input, false),
} satisfies Handlers<typeof contract.labelSubscriptions>
