// Label subscribe and unsubscribe: the label answered with its new `subscribed`.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { projectLabels } from './labels.js'

export const labelSubscriptionHandlers = {
  subscribeProjectLabel: projectLabels.subscribe,
  unsubscribeProjectLabel: projectLabels.unsubscribe,
} satisfies Handlers<typeof contract.labelSubscriptions>
