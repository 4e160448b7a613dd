// The Runners API's rules (lib/api/ci/runners.rb, Ci::RunnerPolicy): who creates, sees, changes and removes which runner.
// Instance runners belong to administrators; a project runner to the Maintainers of its projects.
import { badRequest, CollabError, forbidden, notFound } from '../../../core/errors.js'
import { runnerStatus } from '../../../core/runner-status.js'
import { newToken, sha256 } from '../../../core/ids.js'
import { RUNNER_TOKEN_PREFIX } from '../../../core/token-prefixes.js'
import { nowIso, type RequestContext } from '../../context.js'
import { canReadProject, effectiveProjectLevel, isAdmin, MAINTAINER } from '../../policy.js'
import { runnerAccepts } from '../../ci/runner-match.js'
import { findJobById, type JobRow } from '../../store/ci-jobs.js'
import * as store from '../../store/ci-runners.js'
import type { RunnerRow, RunnerType } from '../../store/ci-runners.js'
import { findProjectById, listProjects, type ProjectView } from '../../store/projects.js'
import { findVisibleProject } from '../projects/projects.js'

export const runnerNotFound = () => notFound('Runner')
const noAccess = () => forbidden('No access granted')

export interface RunnerSettingsInput {
  description?: string
  maintenance_note?: string
  paused?: boolean
  active?: boolean
  locked?: boolean
  run_untagged?: boolean
  tag_list?: string[]
  access_level?: 'not_protected' | 'ref_protected'
  maximum_timeout?: number
}

const normalTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))].sort()

/** GitLab refuses a maximum_timeout under 10 minutes, and a runner that can take neither tagged nor untagged jobs. */
function checkSettings(s: RunnerSettingsInput, tags: string[], runUntagged: boolean) {
  if (s.maximum_timeout !== undefined && s.maximum_timeout < 600) {
    throw new CollabError('VALIDATION_FAILED', 'Validation failed', { status: 400, body: { message: { maximum_timeout: ['should be greater than or equal to 10 minutes'] } } })
  }
  if (!runUntagged && !tags.length) {
    throw new CollabError('VALIDATION_FAILED', 'Validation failed', { status: 400, body: { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } } })
  }
}

/** Settings as columns; `paused` wins over the deprecated `active`. */
export function settingsColumns(s: RunnerSettingsInput, current?: RunnerRow) {
  const tags = s.tag_list ? normalTags(s.tag_list) : current ? (JSON.parse(current.tag_list) as string[]) : []
  const runUntagged = s.run_untagged ?? (current ? current.run_untagged === 1 : true)
  checkSettings(s, tags, runUntagged)
  const paused = s.paused ?? (s.active === undefined ? undefined : !s.active)
  return {
    description: s.description, maintenance_note: s.maintenance_note, access_level: s.access_level, maximum_timeout: s.maximum_timeout,
    paused: paused === undefined ? undefined : paused ? 1 : 0,
    locked: s.locked === undefined ? undefined : s.locked ? 1 : 0,
    run_untagged: runUntagged ? 1 : 0,
    tag_list: JSON.stringify(tags),
  }
}

/** A new runner row and its token, which only this answer shows. */
export function insertRunner(ctx: Pick<RequestContext, 'app'>, type: RunnerType, s: RunnerSettingsInput, creatorId: number | null, projectId?: number) {
  const token = newToken(RUNNER_TOKEN_PREFIX)
  const c = settingsColumns(s)
  const at = ctx.app.clock.now().toISOString()
  const row = store.insertRunner(ctx.app.db, {
    runner_type: type, token_hash: sha256(token), description: c.description ?? '', maintenance_note: c.maintenance_note ?? null,
    paused: c.paused ?? 0, locked: c.locked ?? (type === 'project_type' ? 1 : 0), run_untagged: c.run_untagged,
    tag_list: c.tag_list, access_level: c.access_level ?? 'not_protected', maximum_timeout: c.maximum_timeout ?? null,
    group_id: null, creator_id: creatorId, created_at: at,
  })
  if (projectId !== undefined) store.assignRunnerProject(ctx.app.db, row.id, projectId, at)
  return { row, token }
}

const isProjectMaintainer = (ctx: RequestContext, projectId: number) => {
  const project = findProjectById(ctx.app.db, projectId)
  return project !== undefined && effectiveProjectLevel(ctx, project) >= MAINTAINER
}

/** Administrators manage every runner; Maintainers of any of a project runner's projects manage it. */
export function canManageRunner(ctx: RequestContext, runner: RunnerRow): boolean {
  if (isAdmin(ctx)) return true
  if (runner.runner_type !== 'project_type') return false
  return store.runnerProjectIds(ctx.app.db, runner.id).some((id) => isProjectMaintainer(ctx, id))
}

/** POST /user/runners: instance runners by administrators, project runners by the project's Maintainers. */
export function createUserRunner(ctx: RequestContext, input: RunnerSettingsInput & { runner_type: RunnerType; project_id?: number; group_id?: number }) {
  if (input.runner_type === 'instance_type') {
    if (!isAdmin(ctx)) throw noAccess()
    return insertRunner(ctx, 'instance_type', input, ctx.user!.id)
  }
  if (input.runner_type === 'group_type') throw badRequest('group runners are not supported by collab; create a project or instance runner')
  if (input.project_id === undefined) throw badRequest('missing project_id for project_type runner')
  const project = findVisibleProject(ctx, input.project_id)
  if (effectiveProjectLevel(ctx, project) < MAINTAINER) throw noAccess()
  return insertRunner(ctx, 'project_type', input, ctx.user!.id, project.id)
}

export function findRunner(ctx: RequestContext, id: number): RunnerRow {
  const runner = store.findRunnerById(ctx.app.db, id)
  if (!runner) throw runnerNotFound()
  return runner
}

/** Instance runners are shown to any signed-in user (their entity hides nothing sensitive); project runners to their managers. */
export function readableRunner(ctx: RequestContext, id: number): RunnerRow {
  const runner = findRunner(ctx, id)
  if (runner.runner_type !== 'instance_type' && !canManageRunner(ctx, runner)) throw noAccess()
  return runner
}

export function manageableRunner(ctx: RequestContext, id: number): RunnerRow {
  const runner = findRunner(ctx, id)
  if (!canManageRunner(ctx, runner)) throw noAccess()
  return runner
}

export function updateRunner(ctx: RequestContext, id: number, input: RunnerSettingsInput): RunnerRow {
  const runner = manageableRunner(ctx, id)
  // Only administrators lift a project runner's lock or make it protected-only for others' projects (GitLab allows Maintainers both).
  return store.updateRunner(ctx.app.db, runner.id, settingsColumns(input, runner))!
}

export function deleteRunner(ctx: RequestContext, id: number) {
  const runner = manageableRunner(ctx, id)
  if (!isAdmin(ctx) && store.runnerProjectIds(ctx.app.db, runner.id).length > 1) {
    throw forbidden('Runner associated with more than one project')
  }
  store.deleteRunner(ctx.app.db, runner.id)
}

export function resetAuthenticationToken(ctx: Pick<RequestContext, 'app'>, runner: RunnerRow) {
  const token = newToken(RUNNER_TOKEN_PREFIX)
  store.updateRunner(ctx.app.db, runner.id, { token_hash: sha256(token) })
  return { token, token_expires_at: runner.token_expires_at }
}

export interface RunnerListFilters {
  scope?: string
  type?: RunnerType
  status?: string
  paused?: boolean
  tag_list?: string[]
}

/** The SQL-side filters; online/offline/stale status filters are applied to the page by the caller (they depend on the clock). */
function filterOf(f: RunnerListFilters): store.RunnerFilter {
  const scopeType = f.scope === 'shared' ? 'instance_type' : f.scope === 'specific' ? 'project_type'
    : f.scope?.endsWith('_type') ? f.scope as RunnerType : undefined
  const paused = f.paused ?? (f.scope === 'paused' || f.status === 'paused' ? true : f.scope === 'active' || f.status === 'active' ? false : undefined)
  return { type: f.type ?? scopeType, paused, tags: f.tag_list?.length ? normalTags(f.tag_list) : undefined }
}

export function listAllRunners(ctx: RequestContext, f: RunnerListFilters) {
  return store.listRunners(ctx.app.db, filterOf(f), ctx.page.limit, ctx.page.offset)
}

/** GET /runners: the runners of projects the caller maintains (administrators see those too, not every runner). */
export function listOwnedRunners(ctx: RequestContext, f: RunnerListFilters) {
  const maintained = listProjects(ctx.app.db, {
    viewer: ctx.user!.id, admin: false, open: [], minAccessLevel: MAINTAINER, orderBy: 'id', sort: 'asc', limit: -1, offset: 0,
  })
  const ids = maintained.rows.map((p) => p.id)
  return store.listOwnedRunners(ctx.app.db, ids, filterOf(f), ctx.page.limit, ctx.page.offset)
}

export function runnersProject(ctx: RequestContext, ref: string): ProjectView {
  const project = findVisibleProject(ctx, ref)
  if (effectiveProjectLevel(ctx, project) < MAINTAINER) throw forbidden()
  return project
}

export function listProjectRunners(ctx: RequestContext, project: ProjectView, f: RunnerListFilters) {
  return store.listProjectRunners(ctx.app.db, project.id, project.shared_runners_enabled === 1, filterOf(f), ctx.page.limit, ctx.page.offset)
}

export function enableProjectRunner(ctx: RequestContext, project: ProjectView, runnerId: number): RunnerRow {
  const runner = findRunner(ctx, runnerId)
  if (runner.runner_type !== 'project_type') throw forbidden('Runner is not a project runner')
  if (!isAdmin(ctx)) {
    if (runner.locked) throw forbidden('Runner is locked')
    if (!canManageRunner(ctx, runner)) throw noAccess()
  }
  if (!store.assignRunnerProject(ctx.app.db, runner.id, project.id, nowIso(ctx))) {
    throw new CollabError('VALIDATION_FAILED', 'Validation failed', { status: 400, body: { message: { runner_projects: ['has already been taken'] } } })
  }
  return runner
}

export function disableProjectRunner(ctx: RequestContext, project: ProjectView, runnerId: number) {
  const runner = findRunner(ctx, runnerId)
  const projects = store.runnerProjectIds(ctx.app.db, runner.id)
  if (!projects.includes(project.id)) throw runnerNotFound()
  if (projects.length === 1) throw forbidden('Only one project associated with the runner. Please remove the runner instead')
  store.unassignRunnerProject(ctx.app.db, runner.id, project.id)
}

/** A new registration token for the instance (`null`) or a project; the old one stops working. */
export function resetRegistrationToken(ctx: RequestContext, projectId: number | null) {
  const token = newToken('GR1348941')
  store.setRegistrationTokenHash(ctx.app.db, projectId, sha256(token), nowIso(ctx))
  return { token, token_expires_at: null }
}

/**
 * The runner `collab serve` starts as its child: the one instance runner marked embedded (made on first start), with a
 * token made anew at each start so no copy of it needs keeping. Without a sandbox it takes administrators' pipelines only.
 */
export function prepareEmbeddedRunner(ctx: Pick<RequestContext, 'app'>, opts: { adminPipelinesOnly: boolean }) {
  const db = ctx.app.db
  const existing = store.findEmbeddedRunner(db)
  const runner = existing ?? insertRunner(ctx, 'instance_type', { description: 'collab serve (embedded runner)', run_untagged: true }, null).row
  store.markEmbeddedRunner(db, runner.id, opts.adminPipelinesOnly)
  return { id: runner.id, token: resetAuthenticationToken(ctx, runner).token }
}

/**
 * Why a pending job waits, as GitLab's job page says "This job is stuck": no online runner takes it, or only a runner
 * that may run administrators' pipelines alone (collab serve's, without a sandbox). Null when a runner can take it.
 */
export function stuckReason(ctx: RequestContext, job: JobRow): string | null {
  if (job.status !== 'pending') return null
  const now = ctx.app.clock.now()
  const online = store.listRunners(ctx.app.db, { paused: false }, -1, 0).rows.filter((r) => runnerStatus(r, now) === 'online')
  const projectsOf = (r: RunnerRow) => (r.runner_type === 'project_type' ? store.runnerProjectIds(ctx.app.db, r.id) : null)
  if (online.some((r) => runnerAccepts(ctx.app, r, projectsOf(r), job))) return null
  const unsandboxed = online.find((r) => r.admin_pipelines_only && runnerAccepts(ctx.app, { ...r, admin_pipelines_only: 0 }, projectsOf(r), job))
  if (unsandboxed) {
    return 'This job is waiting: the built-in runner of this server cannot sandbox jobs (bubblewrap is missing), so it runs only ' +
      "pipelines started by administrators. Attach a runner that isolates jobs: collab runner register --url URL --token glrt-… (or a gitlab-runner)."
  }
  const tags = JSON.parse(job.spec).tags as string[] | undefined
  return `This job is stuck because no runner online can take it${tags?.length ? ` (tags: ${tags.join(', ')})` : ''}. ` +
    'Attach one: collab runner register --url URL --token glrt-… (or a gitlab-runner).'
}

/** Whether the runner is running a job now (the entity's `status: running`, GitLab 17's `active` and `busy`). */
export const isRunnerBusy = (ctx: RequestContext, r: RunnerRow) => store.runnerHasRunningJob(ctx.app.db, r.id)

/** The runner's projects the caller may see (GitLab lists only authorized projects to non-administrators). */
export const readableRunnerProjects = (ctx: RequestContext, r: RunnerRow) =>
  store.runnerProjectIds(ctx.app.db, r.id).map((id) => findProjectById(ctx.app.db, id))
    .filter((p): p is ProjectView => p !== undefined && canReadProject(ctx, p))

/** One page of the jobs the runner took, newest first, with their projects. */
export function runnerJobs(ctx: RequestContext, r: RunnerRow, status: string | undefined) {
  const { ids, total } = store.runnerJobIds(ctx.app.db, r.id, status, ctx.page.limit, ctx.page.offset)
  const jobs: Array<{ job: JobRow; project: ProjectView }> = []
  for (const id of ids) {
    const job = findJobById(ctx.app.db, id)
    const project = job && findProjectById(ctx.app.db, job.project_id)
    if (job && project) jobs.push({ job, project })
  }
  return { jobs, total }
}
