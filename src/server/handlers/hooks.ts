// Project hooks (/projects/:id/hooks…) and system hooks (/hooks…).
import type { contract } from '../../contract/index.js'
import { nowIso } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentHookLog, presentProjectHook, presentSystemHook } from '../present/hooks.js'
import * as hooks from '../services/hooks.js'
import { resendHookLog, testProjectHook, testSystemHook } from '../services/hooks-test.js'

export const hookHandlers = {
  listProjectHooks: (input, ctx) => {
    const { rows, total } = hooks.listProjectHooks(ctx, hooks.hooksProject(ctx, input.id))
    const now = nowIso(ctx)
    return { status: 200, body: rows.map((h) => presentProjectHook(h, now)), total }
  },
  getProjectHook: (input, ctx) => {
    const project = hooks.hooksProject(ctx, input.id)
    return { status: 200, body: presentProjectHook(hooks.findProjectHook(ctx, project, input.hook_id), nowIso(ctx)) }
  },
  createProjectHook: (input, ctx) => {
    const { id, ...fields } = input
    return { status: 201, body: presentProjectHook(hooks.createProjectHook(ctx, hooks.hooksProject(ctx, id), fields), nowIso(ctx)) }
  },
  updateProjectHook: (input, ctx) => {
    const { id, hook_id, ...fields } = input
    const project = hooks.hooksProject(ctx, id)
    return { status: 200, body: presentProjectHook(hooks.updateHook(ctx, hooks.findProjectHook(ctx, project, hook_id), fields), nowIso(ctx)) }
  },
  deleteProjectHook: (input, ctx) => {
    const project = hooks.hooksProject(ctx, input.id)
    hooks.deleteHook(ctx, hooks.findProjectHook(ctx, project, input.hook_id))
    return { status: 204 }
  },
  listProjectHookEvents: (input, ctx) => {
    const hook = hooks.findProjectHook(ctx, hooks.hooksProject(ctx, input.id), input.hook_id)
    const { rows, total } = hooks.listHookLogs(ctx, hook, input.status)
    return { status: 200, body: rows.map(presentHookLog), total }
  },
  resendProjectHookEvent: async (input, ctx) => {
    const hook = hooks.findProjectHook(ctx, hooks.hooksProject(ctx, input.id), input.hook_id)
    return { status: 201, body: await resendHookLog(ctx, hook, hooks.findHookLog(ctx, hook, input.hook_event_id)) }
  },
  testProjectHook: async (input, ctx) => {
    const project = hooks.hooksProject(ctx, input.id)
    await testProjectHook(ctx, project, hooks.findProjectHook(ctx, project, input.hook_id), input.trigger)
    return { status: 201, body: { message: '201 Created' } }
  },
  listSystemHooks: (_input, ctx) => {
    const { rows, total } = hooks.listSystemHooks(ctx)
    const now = nowIso(ctx)
    return { status: 200, body: rows.map((h) => presentSystemHook(h, now)), total }
  },
  getSystemHook: (input, ctx) => ({ status: 200, body: presentSystemHook(hooks.findSystemHook(ctx, input.hook_id), nowIso(ctx)) }),
  createSystemHook: (input, ctx) => ({ status: 201, body: presentSystemHook(hooks.createSystemHook(ctx, input), nowIso(ctx)) }),
  updateSystemHook: (input, ctx) => {
    const { hook_id, ...fields } = input
    return { status: 200, body: presentSystemHook(hooks.updateHook(ctx, hooks.findSystemHook(ctx, hook_id), fields), nowIso(ctx)) }
  },
  testSystemHook: async (input, ctx) => ({ status: 201, body: await testSystemHook(ctx, hooks.findSystemHook(ctx, input.hook_id)) }),
  deleteSystemHook: (input, ctx) => {
    hooks.deleteHook(ctx, hooks.findSystemHook(ctx, input.hook_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.hooks>
