// Broadcast messages.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentBroadcastMessage } from '../present/broadcast-messages.js'
import * as messages from '../services/instance/index.js'
import type { RequestContext } from '../context.js'

const present = (ctx: RequestContext, r: messages.BroadcastMessageRow) => presentBroadcastMessage(r, messages.isActive(ctx.app, r))

export const broadcastMessageHandlers = {
  listBroadcastMessages: (_input, ctx) => {
    const { rows, total } = messages.listBroadcastMessages(ctx)
    return { status: 200, body: rows.map((r) => present(ctx, r)), total }
  },
  getBroadcastMessage: (input, ctx) => ({ status: 200, body: present(ctx, messages.findBroadcastMessage(ctx, input.id)) }),
  createBroadcastMessage: (input, ctx) => ({ status: 201, body: present(ctx, messages.createBroadcastMessage(ctx, input)) }),
  updateBroadcastMessage: (input, ctx) => {
    const { id, ...rest } = input
    return { status: 200, body: present(ctx, messages.updateBroadcastMessage(ctx, id, rest)) }
  },
  deleteBroadcastMessage: (input, ctx) => ({ status: 200, body: present(ctx, messages.deleteBroadcastMessage(ctx, input.id)) }),
} satisfies Handlers<typeof contract.broadcastMessages>
