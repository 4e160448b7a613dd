// Broadcast messages.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentBroadcastMessage } from '../present/broadcast-messages.js'
import * as messages from '../services/broadcast-messages.js'

export const broadcastMessageHandlers = {
  listBroadcastMessages: (_input, ctx) => {
    const { rows, total } = messages.listBroadcastMessages(ctx)
    return { status: 200, body: rows.map((r) => presentBroadcastMessage(ctx.app, r)), total }
  },
  getBroadcastMessage: (input, ctx) => ({ status: 200, body: presentBroadcastMessage(ctx.app, messages.findBroadcastMessage(ctx, input.id)) }),
  createBroadcastMessage: (input, ctx) => ({ status: 201, body: presentBroadcastMessage(ctx.app, messages.createBroadcastMessage(ctx, input)) }),
  updateBroadcastMessage: (input, ctx) => {
    const { id, ...rest } = input
    return { status: 200, body: presentBroadcastMessage(ctx.app, messages.updateBroadcastMessage(ctx, id, rest)) }
  },
  deleteBroadcastMessage: (input, ctx) => ({ status: 200, body: presentBroadcastMessage(ctx.app, messages.deleteBroadcastMessage(ctx, input.id)) }),
} satisfies Handlers<typeof contract.broadcastMessages>
