// Project hooks (Maintainers) and system hooks (administrators): validated create, update, delete, and the delivery log.
import { PROJECT_HOOK_EVENTS, SYSTEM_HOOK_EVENTS } from '../../../contract/entities/hooks.js'
import { CollabError, notFound } from '../../../core/errors.js'
import { userPattern } from '../../../core/re2.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { MAINTAINER, requireProjectLevel } from '../../policy.js'
import { transaction } from '../../store/db.js'
import * as store from '../../store/hooks.js'
import type { ProjectView } from '../../store/projects.js'
import { findVisibleProject } from '../projects/projects.js'
import { requireHookUrlAllowed } from './webhook-addresses.js'

export interface HookInput {
  url?: string
  name?: string | null
  description?: string | null
  token?: string | null
  enable_ssl_verification?: boolean
  push_events_branch_filter?: string | null
  branch_filter_strategy?: 'wildcard' | 'regex' | 'all_branches'
  custom_webhook_template?: string | null
  url_variables?: { key: string; value: string }[]
  custom_headers?: { key: string; value: string }[]
  [event: string]: unknown
}

const projectHookMissing = () => new CollabError('HOOK_NOT_FOUND', '404 Not found', { status: 404 })
const systemHookMissing = () => notFound('System hook')
const invalidBranchFilter = () => new CollabError('HOOK_BRANCH_FILTER_INVALID', 'Invalid branch filter given', { status: 422 })
const invalidParameter = (what: string) => new CollabError('HOOK_PARAMETER_INVALID', `Invalid ${what} given`, { status: 422 })

// GitLab's defaults: project hooks fire on pushes; system hooks on repository updates.
const PROJECT_DEFAULTS: Record<string, boolean> = { push_events: true }
const SYSTEM_DEFAULTS: Record<string, boolean> = { repository_update_events: true }

/** The project, for a Maintainer (403 below that; 404 to who may not see it). */
export function hooksProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  requireProjectLevel(ctx, project, MAINTAINER)
  return project
}

export function findProjectHook(ctx: RequestContext, project: ProjectView, hookId: number): store.HookRow {
  const hook = store.findHook(ctx.app.db, hookId)
  if (!hook || hook.type !== 'ProjectHook' || hook.project_id !== project.id) throw projectHookMissing()
  return hook
}

export function findSystemHook(ctx: RequestContext, hookId: number): store.HookRow {
  const hook = store.findHook(ctx.app.db, hookId)
  if (!hook || hook.type !== 'SystemHook') throw systemHookMissing()
  return hook
}

export const listProjectHooks = (ctx: RequestContext, project: ProjectView) =>
  store.listHooks(ctx.app.db, { projectId: project.id }, ctx.page.limit, ctx.page.offset)

export const listSystemHooks = (ctx: RequestContext) => store.listHooks(ctx.app.db, { system: true }, ctx.page.limit, ctx.page.offset)

/** Keys as GitLab's model allows them (letters, digits, `_`), last value wins. */
function pairs(list: { key: string; value: string }[] | undefined, what: string, key: RegExp): string | undefined {
  if (!list) return undefined
  const out: Record<string, string> = {}
  for (const { key: k, value } of list) {
    if (!key.test(k)) throw invalidParameter(what)
    out[k] = value
  }
  return JSON.stringify(out)
}

function checkBranchFilter(strategy: string, filter: string | null | undefined) {
  if (filter && strategy === 'regex' && !userPattern(filter)) throw invalidBranchFilter()
}

/** The columns an input sets; events merged over `current` (or the kind's defaults on create). */
function fieldsOf(ctx: RequestContext, input: HookInput, names: readonly string[], current: Record<string, boolean>): store.HookPatch {
  if (input.url !== undefined) requireHookUrlAllowed(ctx.app, input.url)
  const events = { ...current }
  for (const n of names) if (typeof input[n] === 'boolean') events[n] = input[n] as boolean
  return {
    url: input.url,
    name: input.name,
    description: input.description,
    token: input.token === undefined ? undefined : input.token || null,
    url_variables: pairs(input.url_variables, 'url variables', /^[A-Za-z0-9_]{1,255}$/),
    custom_headers: pairs(input.custom_headers, 'custom headers', /^[A-Za-z0-9_-]{1,255}$/),
    custom_webhook_template: input.custom_webhook_template,
    push_events_branch_filter: input.push_events_branch_filter,
    branch_filter_strategy: input.branch_filter_strategy,
    events: JSON.stringify(events),
    enable_ssl_verification: input.enable_ssl_verification === undefined ? undefined : input.enable_ssl_verification ? 1 : 0,
  }
}

function create(ctx: RequestContext, type: store.HookType, projectId: number | null, input: HookInput): store.HookRow {
  const system = type === 'SystemHook'
  const f = fieldsOf(ctx, input, system ? SYSTEM_HOOK_EVENTS : PROJECT_HOOK_EVENTS, system ? SYSTEM_DEFAULTS : PROJECT_DEFAULTS)
  const strategy = f.branch_filter_strategy ?? 'wildcard'
  checkBranchFilter(strategy, f.push_events_branch_filter)
  return transaction(ctx.app.db, () => store.insertHook(ctx.app.db, {
    type, project_id: projectId, url: f.url!, name: f.name ?? null, description: f.description ?? null, token: f.token ?? null,
    url_variables: f.url_variables ?? '{}', custom_headers: f.custom_headers ?? '{}', custom_webhook_template: f.custom_webhook_template ?? null,
    push_events_branch_filter: strategy === 'all_branches' ? null : f.push_events_branch_filter ?? null, branch_filter_strategy: strategy,
    events: f.events!, enable_ssl_verification: f.enable_ssl_verification ?? 1, created_at: nowIso(ctx),
  }))
}

function update(ctx: RequestContext, hook: store.HookRow, input: HookInput): store.HookRow {
  const names = hook.type === 'SystemHook' ? SYSTEM_HOOK_EVENTS : PROJECT_HOOK_EVENTS
  const patch = fieldsOf(ctx, input, names, JSON.parse(hook.events) as Record<string, boolean>)
  const strategy = patch.branch_filter_strategy ?? hook.branch_filter_strategy
  checkBranchFilter(strategy, patch.push_events_branch_filter === undefined ? hook.push_events_branch_filter : patch.push_events_branch_filter)
  if (strategy === 'all_branches') patch.push_events_branch_filter = null
  // A new URL does not carry the old URL's variables over unless they are given again (GitLab resets them too).
  if (patch.url !== undefined && patch.url !== hook.url && patch.url_variables === undefined) patch.url_variables = '{}'
  return transaction(ctx.app.db, () => store.updateHook(ctx.app.db, hook.id, patch))
}

export const createProjectHook = (ctx: RequestContext, project: ProjectView, input: HookInput) => create(ctx, 'ProjectHook', project.id, input)
export const createSystemHook = (ctx: RequestContext, input: HookInput) => create(ctx, 'SystemHook', null, input)
export const updateHook = update

export function deleteHook(ctx: RequestContext, hook: store.HookRow) {
  transaction(ctx.app.db, () => store.deleteHookRow(ctx.app.db, hook.id))
}

const STATUS_CLASSES: Record<string, (status: number) => boolean> = {
  successful: (s) => s >= 200 && s < 300,
  client_failure: (s) => s >= 400 && s < 500,
  server_failure: (s) => s >= 500 && s < 600,
}

/** GitLab's `status` filter: codes, or the classes successful, client_failure, server_failure. */
function statusesOf(filter: (number | string)[] | undefined): string[] | null {
  if (!filter?.length) return null
  const out = new Set<string>()
  for (const f of filter) {
    if (typeof f === 'number') out.add(String(f))
    else for (let s = 100; s < 600; s++) if (STATUS_CLASSES[f](s)) out.add(String(s))
  }
  return [...out]
}

export const listHookLogs = (ctx: RequestContext, hook: store.HookRow, status?: (number | string)[]) =>
  store.listHookLogs(ctx.app.db, hook.id, statusesOf(status), ctx.page.limit, ctx.page.offset)

export function findHookLog(ctx: RequestContext, hook: store.HookRow, id: number): store.HookLogRow {
  const log = store.findHookLog(ctx.app.db, hook.id, id)
  if (!log) throw notFound('Hook log')
  return log
}

export type PairColumn = 'url_variables' | 'custom_headers'
const PAIR_KEYS: Record<PairColumn, RegExp> = { url_variables: /^[A-Za-z0-9_]{1,255}$/, custom_headers: /^[A-Za-z0-9_-]{1,255}$/ }
const PAIR_NAMES = { url_variables: 'URL variable', custom_headers: 'Custom header' } as const satisfies Record<PairColumn, string>

/** PUT …/url_variables/:key and …/custom_headers/:key: GitLab's 422 `Illegal key or value` for a key it would not store. */
export function setHookPair(ctx: RequestContext, hook: store.HookRow, column: PairColumn, key: string, value: string) {
  if (!PAIR_KEYS[column].test(key) || /[\r\n]/.test(value)) throw new CollabError('HOOK_PAIR_INVALID', 'Illegal key or value', { status: 422 })
  const pairs = { ...(JSON.parse(hook[column]) as Record<string, string>), [key]: value }
  transaction(ctx.app.db, () => store.updateHook(ctx.app.db, hook.id, { [column]: JSON.stringify(pairs) }))
}

/** DELETE …/url_variables/:key and …/custom_headers/:key: 404 for a key that is not set. */
export function unsetHookPair(ctx: RequestContext, hook: store.HookRow, column: PairColumn, key: string) {
  const pairs = JSON.parse(hook[column]) as Record<string, string>
  if (!Object.hasOwn(pairs, key)) throw notFound(PAIR_NAMES[column])
  delete pairs[key]
  transaction(ctx.app.db, () => store.updateHook(ctx.app.db, hook.id, { [column]: JSON.stringify(pairs) }))
}
