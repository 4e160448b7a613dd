// Project hooks (/projects/:id/hooks…) and system hooks (/hooks…).
import type { contract } from '../../contract/index.js'
import { nowIso, type RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentHookLog, presentProjectHook, presentSystemHook } from '../present/hooks.js'
import * as hooks from '../services/hooks/index.js'
import type { HookRow } from '../store/hooks.js'
import { resendHookLog, testProjectHook, testSystemHook } from '../services/hooks/index.js'

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
  setProjectHookUrlVariable: (input, ctx) => projectPair(input, ctx, 'url_variables', input.value),
  deleteProjectHookUrlVariable: (input, ctx) => projectPair(input, ctx, 'url_variables', null),
  setProjectHookCustomHeader: (input, ctx) => projectPair(input, ctx, 'custom_headers', input.value),
  deleteProjectHookCustomHeader: (input, ctx) => projectPair(input, ctx, 'custom_headers', null),
  setSystemHookUrlVariable: (input, ctx) => pair(ctx, hooks.findSystemHook(ctx, input.hook_id), 'url_variables', input.key, input.value),
  deleteSystemHookUrlVariable: (input, ctx) => pair(ctx, hooks.findSystemHook(ctx, input.hook_id), 'url_variables', input.key, null),
  setSystemHookCustomHeader: (input, ctx) => pair(ctx, hooks.findSystemHook(ctx, input.hook_id), 'custom_headers', input.key, input.value),
  deleteSystemHookCustomHeader: (input, ctx) => pair(ctx, hooks.findSystemHook(ctx, input.hook_id), 'custom_headers', input.key, null),
} satisfies Handlers<typeof contract.hooks>

/** Sets (value) or unsets (null) one URL variable or custom header. */
function pair(ctx: RequestContext, hook: HookRow, column: hooks.PairColumn, key: string, value: string | null) {
  if (value === null) hooks.unsetHookPair(ctx, hook, column, key)
  else hooks.setHookPair(ctx, hook, column, key, value)
  return { status: 204 }
}

function projectPair(input: { id: string; hook_id: number; key: string }, ctx: RequestContext, column: hooks.PairColumn, value: string | null) {
  const hook = hooks.findProjectHook(ctx, hooks.hooksProject(ctx, input.id), input.hook_id)
  return pair(ctx, hook, column, input.key, value)
}
