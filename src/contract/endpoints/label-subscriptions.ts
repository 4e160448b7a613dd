// Subscribing to a project label (found by id or name); 304 when nothing changes.
import { defineEndpoint } from '../define.js'
import { Label } from '../entities/issues.js'
import { ref, str } from '../params.js'

const LabelRef = { id: ref(), label_id: str(1024) }

export const subscribeProjectLabel = defineEndpoint({
  method: 'POST', path: '/projects/:id/labels/:label_id/subscribe', summary: 'Subscribe to a label',
  params: LabelRef, responses: { 201: Label, 304: null },
})

export const unsubscribeProjectLabel = defineEndpoint({
  method: 'POST', path: '/projects/:id/labels/:label_id/unsubscribe', summary: 'Unsubscribe from a label',
  params: LabelRef, responses: { 201: Label, 304: null },
})
