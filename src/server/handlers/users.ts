// Users and tokens.
import type { contract } from '../../contract/index.js'
import { nowIso } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentToken, presentUser, presentUserBasic, presentUserPublic } from '../present/users.js'
import { isAdmin } from '../policy.js'
import * as users from '../services/users/index.js'
import { checkAvatar, saveAvatar } from '../services/markup/index.js'

export const userHandlers = {
  getCurrentUser: (_input, ctx) => ({ status: 200, body: presentUserPublic(ctx.user!, ctx, users.publicFacts(ctx.app, ctx.user!)) }),

  listUsers: (input, ctx) => {
    const { rows, total } = users.listUsers(ctx, {
      username: input.username, search: input.search, active: input.active, blocked: input.blocked, admins: input.admins,
      withoutProjectBots: input.without_project_bots,
      extern_uid: input.extern_uid, provider: input.provider, orderBy: input.order_by ?? 'id', sort: input.sort ?? 'desc',
    })
    const present = isAdmin(ctx) ? (u: (typeof rows)[number]) => presentUserPublic(u, ctx, users.publicFacts(ctx.app, u)) : (u: (typeof rows)[number]) => presentUserBasic(u, ctx)
    return { status: 200, body: rows.map(present), total }
  },

  getUser: (input, ctx) => {
    const user = users.getUser(ctx, input.id)
    return { status: 200, body: isAdmin(ctx) ? presentUserPublic(user, ctx, users.publicFacts(ctx.app, user)) : presentUser(user, ctx) }
  },

  createUser: async (input, ctx) => {
    checkAvatar(input.avatar)
    let user = await users.createUser(ctx.app, input, nowIso(ctx))
    if (input.avatar) user = await saveAvatar(ctx.app, user.id, input.avatar)
    return { status: 201, body: presentUserPublic(user, ctx, users.publicFacts(ctx.app, user)) }
  },

  createPersonalAccessToken: (input, ctx) => {
    const { row, plain } = users.createToken(ctx.app, input.id, 'personal', input)
    return { status: 201, body: presentToken(row, ctx.app.clock.now(), plain) }
  },

  createImpersonationToken: (input, ctx) => {
    const { row, plain } = users.createToken(ctx.app, input.id, 'impersonation', input)
    return { status: 201, body: presentToken(row, ctx.app.clock.now(), plain) }
  },

  listImpersonationTokens: (input, ctx) => {
    users.getUser(ctx, input.id)
    const active = input.state === 'active' ? true : input.state === 'inactive' ? false : undefined
    const { rows, total } = users.listTokens(ctx, 'impersonation', input.id, active)
    return { status: 200, body: rows.map((t) => presentToken(t, ctx.app.clock.now())), total }
  },

  revokeImpersonationToken: (input, ctx) => {
    users.revokeToken(ctx, input.token_id, 'impersonation', input.id)
    return { status: 204 }
  },

  listPersonalAccessTokens: (input, ctx) => {
    const active = input.state === 'active' ? true : input.state === 'inactive' ? false : input.revoked === true ? false : undefined
    const { rows, total } = users.listTokens(ctx, 'personal', input.user_id, active)
    return { status: 200, body: rows.map((t) => presentToken(t, ctx.app.clock.now())), total }
  },

  getCurrentPersonalAccessToken: (_input, ctx) => ({ status: 200, body: presentToken(users.currentToken(ctx), ctx.app.clock.now()) }),

  rotateCurrentPersonalAccessToken: (input, ctx) => {
    const { row, plain } = users.rotateToken(ctx.app, users.currentToken(ctx), input.expires_at)
    return { status: 200, body: presentToken(row, ctx.app.clock.now(), plain) }
  },

  rotatePersonalAccessToken: (input, ctx) => {
    const { row, plain } = users.rotateToken(ctx.app, users.tokenToManage(ctx, input.token_id), input.expires_at)
    return { status: 200, body: presentToken(row, ctx.app.clock.now(), plain) }
  },

  revokeCurrentPersonalAccessToken: (_input, ctx) => {
    const token = users.currentToken(ctx)
    users.revokeToken(ctx, token.id, token.kind === 'impersonation' ? 'impersonation' : 'personal')
    return { status: 204 }
  },

  revokePersonalAccessToken: (input, ctx) => {
    users.revokeToken(ctx, input.token_id, 'personal')
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.users>
