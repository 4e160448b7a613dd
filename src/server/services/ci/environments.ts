// The Environments API's rules: who may read and write a project's environments, GitLab's validations and errors,
// and stopping (Environments::StopService, StopStaleService), which plays the on_stop job where there is one.
import { CollabError, badRequest, forbidden, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { NAME_MESSAGE, validEnvironmentName } from '../../ci/config/environment.js'
import { createEnvironment as insertEnvironment, stopActions } from '../../ci/environments.js'
import { playJob } from '../../ci/lifecycle.js'
import { canReadCode, DEVELOPER, requireProjectLevel } from '../../policy.js'
import * as store from '../../store/environments.js'
import type { EnvironmentRow } from '../../store/environments.js'
import type { ProjectView } from '../../store/projects.js'
import { mayWriteRef } from './pipelines.js'

/** ActiveRecord's miss, as GitLab's API renders it. */
export const environmentNotFound = () => new CollabError('NOT_FOUND', '404 Not found', { status: 404 })

const MIN_SEARCH_LENGTH = 3

/**
 * read_environment and read_deployment: everyone who reads a public (or, signed in, internal) project; Reporters and
 * up where membership lets the caller in, as GitLab's permissions table has it. A guest of a private project gets 403.
 */
export function requireReadEnvironments(ctx: RequestContext, p: ProjectView) {
  if (!canReadCode(ctx, p)) throw forbidden()
}

/** create/update/stop/destroy_environment and create/update_deployment: Developers and up, never in an archived project. */
export function requireWriteEnvironments(ctx: RequestContext, p: ProjectView) {
  requireProjectLevel(ctx, p, DEVELOPER)
  if (p.archived) throw forbidden()
}

export function findEnvironment(ctx: RequestContext, p: ProjectView, id: number): EnvironmentRow {
  const env = store.findEnvironment(ctx.app.db, p.id, id)
  if (!env) throw environmentNotFound()
  return env
}

export interface EnvironmentListInput { name?: string; search?: string; states?: string }

export function listEnvironments(ctx: RequestContext, p: ProjectView, input: EnvironmentListInput) {
  requireReadEnvironments(ctx, p)
  // Grape's mutually_exclusive, with the message the API gives it.
  if (input.name !== undefined && input.search !== undefined) {
    throw new CollabError('BAD_REQUEST', 'name, search cannot be used together', { status: 400, body: { error: 'name, search cannot be used together' } })
  }
  if (input.search && input.search.length < MIN_SEARCH_LENGTH) throw badRequest(`Search query is less than ${MIN_SEARCH_LENGTH} characters`)
  return store.listEnvironments(ctx.app.db, {
    projectId: p.id, name: input.name, search: input.search || undefined, state: input.states, limit: ctx.page.limit, offset: ctx.page.offset,
  })
}

export function getEnvironment(ctx: RequestContext, p: ProjectView, id: number): EnvironmentRow {
  requireReadEnvironments(ctx, p)
  return findEnvironment(ctx, p, id)
}

/** The `slug` parameter's `absence` validation: GitLab makes slugs, and nobody may set one. */
function refuseSlug(input: { slug?: unknown }) {
  if (input.slug === undefined) return
  const error = 'slug is automatically generated and cannot be changed'
  throw new CollabError('BAD_REQUEST', error, { status: 400, body: { error } })
}

/** The model's validations of external_url: at most 255 characters, and a web address (the URL blocker's schemes). */
function externalUrlErrors(url: string | null | undefined): string[] {
  if (!url) return []
  const errors: string[] = []
  if (url.length > 255) errors.push('is too long (maximum is 255 characters)')
  let scheme: string | null = null
  try {
    scheme = new URL(url).protocol
  } catch {
    errors.push('is blocked: URI is invalid')
    return errors
  }
  if (scheme !== 'http:' && scheme !== 'https:') errors.push('is blocked: Only allowed schemes are http, https')
  return errors
}

/** Environment's validations for a new name: present, of the allowed characters, unique in the project. */
export function nameErrors(ctx: RequestContext, p: ProjectView, name: string): string[] {
  if (name.trim() === '') return ["can't be blank"]
  if (!validEnvironmentName(name)) return [NAME_MESSAGE]
  return store.findEnvironmentByName(ctx.app.db, p.id, name) ? ['has already been taken'] : []
}

export function createEnvironment(ctx: RequestContext, p: ProjectView, input: { name: string; external_url?: string; tier?: string; slug?: unknown }) {
  requireWriteEnvironments(ctx, p)
  refuseSlug(input)
  const errors: Record<string, string[]> = {}
  const name = nameErrors(ctx, p, input.name)
  if (name.length) errors.name = name
  const url = externalUrlErrors(input.external_url)
  if (url.length) errors.external_url = url
  if (Object.keys(errors).length) throw validationFailed(errors)
  return insertEnvironment(ctx.app, p.id, { name: input.name, externalUrl: input.external_url, tier: input.tier })
}

/** The name stays (GitLab 16 dropped renaming); external_url and tier change. */
export function updateEnvironment(ctx: RequestContext, p: ProjectView, id: number, input: { external_url?: string | null; tier?: string; slug?: unknown }) {
  requireWriteEnvironments(ctx, p)
  refuseSlug(input)
  const env = findEnvironment(ctx, p, id)
  const url = externalUrlErrors(input.external_url)
  if (url.length) throw validationFailed({ external_url: url })
  const patch: store.EnvironmentPatch = { updated_at: ctx.app.clock.now().toISOString() }
  if (input.external_url !== undefined) patch.external_url = input.external_url || null
  if (input.tier !== undefined) patch.tier = input.tier
  store.updateEnvironment(ctx.app.db, env.id, patch)
  return findEnvironment(ctx, p, id)
}

/** destroy_environment: Developers, and only once the environment is stopped (403 before, as GitLab's policy prevents it). */
export function deleteEnvironment(ctx: RequestContext, p: ProjectView, id: number) {
  requireReadEnvironments(ctx, p)
  const env = findEnvironment(ctx, p, id)
  requireWriteEnvironments(ctx, p)
  if (env.state !== 'stopped') throw forbidden()
  store.deleteEnvironment(ctx.app.db, env.id)
}

/**
 * Environment#stop_with_actions!: an available environment with an on_stop job is stopping while that job runs
 * (played for the caller, who must be allowed to run it), one without is stopped at once; `force` stops it without
 * running anything. Answers whether its state changed.
 */
function stopWithActions(ctx: RequestContext, p: ProjectView, env: EnvironmentRow, force: boolean): boolean {
  const now = ctx.app.clock.now().toISOString()
  if (force) return store.transitionEnvironment(ctx.app.db, env.id, ['available', 'stopping'], 'stopped', now)
  if (env.state !== 'available') return false
  const actions = stopActions(ctx.app, env)
  if (actions.some((job) => !mayWriteRef(ctx, p, job.ref, job.tag === 1))) throw forbidden()
  const moved = store.transitionEnvironment(ctx.app.db, env.id, ['available'], actions.length ? 'stopping' : 'stopped', now)
  for (const job of actions) playJob(ctx.app, job.id, ctx.user)
  return moved
}

export function stopEnvironment(ctx: RequestContext, p: ProjectView, id: number, force = false): EnvironmentRow {
  requireReadEnvironments(ctx, p)
  const env = findEnvironment(ctx, p, id)
  requireWriteEnvironments(ctx, p)
  if (!stopWithActions(ctx, p, env, force)) throw badRequest('Attempted to stop the environment but failed to change the status')
  return findEnvironment(ctx, p, id)
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000
const WEEK_MS = 7 * 24 * 3600 * 1000

/** Environments::StopStaleService: every available environment untouched and undeployed since `before` is stopped. */
export function stopStaleEnvironments(ctx: RequestContext, p: ProjectView, before: string) {
  requireWriteEnvironments(ctx, p)
  const at = new Date(before)
  const now = ctx.app.clock.now().getTime()
  if (at.getTime() < now - 10 * YEAR_MS || at.getTime() > now - WEEK_MS) throw badRequest('Invalid Date')
  for (const env of store.staleEnvironments(ctx.app.db, p.id, at.toISOString())) {
    try {
      stopWithActions(ctx, p, env, false)
    } catch (err) {
      // One environment the caller may not stop leaves the others to stop, as GitLab's per-environment workers do.
      if (!(err instanceof CollabError)) throw err
    }
  }
  return { message: 'Successfully requested stop for all stale environments' }
}
