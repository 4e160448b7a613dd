// Label subscriptions (Subscribable on labels): a reader of the project subscribes to hear of issues given the label.
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import * as store from '../../store/label-subscriptions.js'
import type { LabelRow } from '../../store/labels.js'

export const labelSubscribed = (ctx: RequestContext, l: LabelRow) => (ctx.user ? store.isSubscribedToLabel(ctx.app.db, l.id, ctx.user.id) : false)

// GitLab answers a subscribe that changes nothing with 304 Not Modified and no body.
const notModified = () => new CollabError('NOT_MODIFIED', '304 Not Modified', { status: 304 })

export function setLabelSubscription(ctx: RequestContext, l: LabelRow, on: boolean) {
  const changed = on ? store.subscribeToLabel(ctx.app.db, l.id, ctx.user!.id) : store.unsubscribeFromLabel(ctx.app.db, l.id, ctx.user!.id)
  if (!changed) throw notModified()
}
