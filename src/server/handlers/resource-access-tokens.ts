// Project and group access tokens: the access_tokens API of projects and groups.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentResourceAccessToken, presentResourceAccessTokenWithToken } from '../present/resource-access-tokens.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as tokens from '../services/projects/index.js'

type Find = (ctx: RequestContext, id: string) => tokens.Target
const inProject: Find = (ctx, id) => ({ kind: 'project', project: findVisibleProject(ctx, id) })
const inGroup: Find = (ctx, id) => ({ kind: 'group', group: findVisibleGroup(ctx, id) })

function handlers(find: Find) {
  const now = (ctx: RequestContext) => ctx.app.clock.now()
  return {
    list: (input: { id: string; state?: 'active' | 'inactive'; revoked?: boolean; search?: string }, ctx: RequestContext) => {
      const t = find(ctx, input.id)
      const { rows, total } = tokens.listAccessTokens(ctx, t, input)
      return { status: 200, body: rows.map((r) => presentResourceAccessToken(r, tokens.resourceOf(t), now(ctx))), total }
    },
    get: (input: { id: string; token_id: number }, ctx: RequestContext) => {
      const t = find(ctx, input.id)
      return { status: 200, body: presentResourceAccessToken(tokens.getAccessToken(ctx, t, input.token_id), tokens.resourceOf(t), now(ctx)) }
    },
    create: (input: { id: string } & tokens.CreateAccessTokenInput, ctx: RequestContext) => {
      const t = find(ctx, input.id)
      const { token, plain } = tokens.createAccessToken(ctx, t, input)
      return { status: 201, body: presentResourceAccessTokenWithToken(token, tokens.resourceOf(t), now(ctx), plain) }
    },
    revoke: async (input: { id: string; token_id: number }, ctx: RequestContext) => {
      await tokens.revokeAccessToken(ctx, find(ctx, input.id), input.token_id)
      return { status: 204 }
    },
    rotate: (input: { id: string; token_id: number; expires_at?: string }, ctx: RequestContext) => {
      const t = find(ctx, input.id)
      const { token, plain } = tokens.rotateAccessToken(ctx, t, input.token_id, input.expires_at)
      return { status: 200, body: presentResourceAccessTokenWithToken(token, tokens.resourceOf(t), now(ctx), plain) }
    },
  }
}

const project = handlers(inProject)
const group = handlers(inGroup)

export const resourceAccessTokenHandlers = {
  listProjectAccessTokens: project.list,
  getProjectAccessToken: project.get,
  createProjectAccessToken: project.create,
  revokeProjectAccessToken: project.revoke,
  rotateProjectAccessToken: project.rotate,
  listGroupAccessTokens: group.list,
  getGroupAccessToken: group.get,
  createGroupAccessToken: group.create,
  revokeGroupAccessToken: group.revoke,
  rotateGroupAccessToken: group.rotate,
} satisfies Handlers<typeof contract.resourceAccessTokens>
