// The Pipelines API's rules: who may read and act on pipelines, and the calls into the CI lifecycle.
import { CollabError, forbidden } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { createPipeline, deletePipeline, pipelineError, type PipelineVariableInput } from '../../ci/lifecycle.js'
import * as lifecycle from '../../ci/lifecycle.js'
import { readRef } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { canReadBuilds, canReadProject, DEVELOPER, effectiveProjectLevel, OWNER } from '../../policy.js'
import { latestPipelineJobs } from '../../store/ci-jobs.js'
import * as store from '../../store/pipelines.js'
import type { PipelineRow } from '../../store/pipelines.js'
import { sourceProjectOf, type MergeRequestRow } from '../../store/merge-requests.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { projectNotFound } from '../projects/projects.js'
import { canMergeInto, canPushTo, isProtectedBranch, type Caller } from '../repository/protected-branches.js'
import { canCreateTag, isProtectedTag } from '../repository/protected-tags.js'

export const pipelineNotFound = () => new CollabError('PIPELINE_NOT_FOUND', '404 Not found', { status: 404 })

/** Pipelines are read as jobs are (policy.ts canReadBuilds): 404 when the project is invisible, else 403. */
export function requireReadPipelines(ctx: RequestContext, p: ProjectView) {
  if (!canReadProject(ctx, p)) throw projectNotFound()
  if (!canReadBuilds(ctx, p)) throw forbidden()
}

function requireLevel(ctx: RequestContext, p: ProjectView, min: number) {
  requireReadPipelines(ctx, p)
  if (effectiveProjectLevel(ctx, p) < min) throw forbidden()
}

export interface PipelineListInput {
  scope?: store.PipelineFilters['scope']
  status?: string
  ref?: string
  sha?: string
  yaml_errors?: boolean
  username?: string
  source?: string
  updated_after?: string
  updated_before?: string
  created_after?: string
  created_before?: string
  order_by?: store.PipelineFilters['orderBy']
  sort?: 'asc' | 'desc'
}

const isoOf = (v: string | undefined) => (v === undefined ? undefined : new Date(v).toISOString())

export function listPipelines(ctx: RequestContext, p: ProjectView, f: PipelineListInput) {
  requireReadPipelines(ctx, p)
  return store.listPipelines(ctx.app.db, {
    projectId: p.id, scope: f.scope, status: f.status, ref: f.ref, sha: f.sha, yamlErrors: f.yaml_errors, username: f.username,
    source: f.source, updatedAfter: isoOf(f.updated_after), updatedBefore: isoOf(f.updated_before),
    createdAfter: isoOf(f.created_after), createdBefore: isoOf(f.created_before),
    orderBy: f.order_by ?? 'id', sort: f.sort ?? 'desc', limit: ctx.page.limit, offset: ctx.page.offset,
  })
}

export function getPipeline(ctx: RequestContext, p: ProjectView, id: number): PipelineRow {
  requireReadPipelines(ctx, p)
  const row = store.findProjectPipeline(ctx.app.db, p.id, id)
  if (!row) throw pipelineNotFound()
  return row
}

/** The newest pipeline of a ref, the default branch when none is named. */
export function latestPipeline(ctx: RequestContext, p: ProjectView, ref?: string): PipelineRow {
  requireReadPipelines(ctx, p)
  const name = ref ?? p.default_branch
  const row = name ? store.latestPipeline(ctx.app.db, p.id, { ref: name }) : undefined
  if (!row) throw pipelineNotFound()
  return row
}

/** What the full entity adds to a row: the user who started it, and whether it passed only with allowed failures. */
export function pipelineDetails(ctx: RequestContext, row: PipelineRow): { user: UserRow | null; warnings: boolean } {
  const user = row.user_id === null ? null : findUserById(ctx.app.db, row.user_id) ?? null
  const warnings = row.status === 'success' &&
    latestPipelineJobs(ctx.app.db, row.id).some((j) => j.allow_failure === 1 && (j.status === 'failed' || j.status === 'canceled'))
  return { user, warnings }
}

/** create_pipeline: Developers and up of a project whose CI is on, unless it is archived. */
export function requireCreatePipeline(ctx: RequestContext, p: ProjectView) {
  requireLevel(ctx, p, DEVELOPER)
  if (p.archived) throw forbidden()
}

export async function createApiPipeline(ctx: RequestContext, p: ProjectView, input: { ref: string; variables?: PipelineVariableInput[] }) {
  requireCreatePipeline(ctx, p)
  // Chain::Validate::Abilities: a protected branch runs pipelines only for those who may push or merge into it.
  if (!(await mayRunPipelineOn(ctx, p, input.ref))) {
    throw pipelineError(`You do not have sufficient permission to run a pipeline on '${input.ref}'. Please select a different branch or contact your administrator for assistance.`)
  }
  const row = await createPipeline(ctx.app, { project: p, ref: input.ref, source: 'api', user: ctx.user, variables: input.variables })
  return row!
}

/**
 * Ci::PipelinePolicy and Ci::BuildPolicy (`protected_ref`): pipelines and jobs of a protected branch are updated
 * (retried, played, canceled) only by those who may push or merge into it (`can_update_branch?`), a tag's only by
 * those who may create it (`can_create_tag?`).
 */
export const mayWriteRef = (ctx: Caller, p: ProjectView, ref: string, tag = false) => tag
  ? canCreateTag(ctx, p, ref)
  : !isProtectedBranch(ctx.app, p, ref) || canPushTo(ctx, p, ref) || canMergeInto(ctx, p, ref)

/**
 * Chain::Validate::Abilities for a ref a caller names: a branch when one has that name, else a tag. Only a protected
 * tag rule makes the difference, so only then is the repository read.
 */
export async function mayRunPipelineOn(ctx: Caller, p: ProjectView, ref: string): Promise<boolean> {
  const gitdir = repositoryDir(ctx.app.layout.repositories, p.id)
  const exists = (full: string) => readRef(gitdir, full).then((oid) => oid !== null, () => false)
  const tag = isProtectedTag(ctx.app, p, ref) && !(await exists(`refs/heads/${ref}`)) && (await exists(`refs/tags/${ref}`))
  return mayWriteRef(ctx, p, ref, tag)
}


function requireUpdate(ctx: RequestContext, p: ProjectView, row: PipelineRow) {
  requireLevel(ctx, p, DEVELOPER)
  if (!mayWriteRef(ctx, p, row.ref, row.tag === 1)) throw forbidden()
}

/** requireUpdate as a question: whether the pipeline page offers Retry and Cancel. */
export function canUpdatePipeline(ctx: RequestContext, p: ProjectView, row: PipelineRow): boolean {
  try {
    requireUpdate(ctx, p, row)
    return true
  } catch {
    return false
  }
}

export function retryPipeline(ctx: RequestContext, p: ProjectView, id: number) {
  const row = getPipeline(ctx, p, id)
  requireUpdate(ctx, p, row)
  return lifecycle.retryPipeline(ctx.app, row.id, ctx.user) ?? row
}

export function cancelPipeline(ctx: RequestContext, p: ProjectView, id: number) {
  const row = getPipeline(ctx, p, id)
  requireUpdate(ctx, p, row)
  return lifecycle.cancelPipeline(ctx.app, row.id) ?? row
}

export async function remove(ctx: RequestContext, p: ProjectView, id: number) {
  const row = getPipeline(ctx, p, id)
  requireLevel(ctx, p, OWNER)
  await deletePipeline(ctx.app, row.id)
}

export function variables(ctx: RequestContext, p: ProjectView, id: number) {
  const row = getPipeline(ctx, p, id)
  // Values may be secrets: GitLab shows them to those who may update the pipeline (Developer and up).
  requireLevel(ctx, p, DEVELOPER)
  return store.pipelineVariables(ctx.app.db, row.id)
}

/** Whether the caller may read pipelines, without throwing: joins leave them out otherwise. */
function mayReadPipelines(ctx: RequestContext, p: ProjectView): boolean {
  try {
    requireReadPipelines(ctx, p)
    return true
  } catch {
    return false
  }
}

const pathOf = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

export interface HeadPipeline { row: PipelineRow; projectPath: string; user: UserRow | null; warnings: boolean }

/**
 * The `head_pipeline` (and `pipeline`) of a merge request, in whichever project it ran (a fork's in the fork, or in the
 * target when a member ran it there), for callers who may read that project's pipelines.
 */
export function headPipelineOf(ctx: RequestContext, mr: MergeRequestRow): HeadPipeline | null {
  if (!sourceProjectOf(ctx.app.db, mr)) return null
  const row = store.headPipeline(ctx.app.db, mr)
  const project = row && findProjectById(ctx.app.db, row.project_id)
  if (!row || !project || !mayReadPipelines(ctx, project)) return null
  return { row, projectPath: pathOf(project), ...pipelineDetails(ctx, row) }
}

/**
 * GET …/merge_requests/:iid/pipelines: newest first, with their project's path. A fork's merge request has pipelines
 * in both projects; each is listed to who may read that project's pipelines (Ci::PipelinesForMergeRequestFinder).
 */
export function mergeRequestPipelines(ctx: RequestContext, mr: MergeRequestRow): { row: PipelineRow; projectPath: string }[] {
  // GitLab's all_pipelines is none once the source project (a fork) is deleted.
  const source = sourceProjectOf(ctx.app.db, mr)
  if (!source) return []
  const target = findProjectById(ctx.app.db, mr.project_id)
  const paths = new Map([source, target].flatMap((p) => (p && mayReadPipelines(ctx, p) ? [[p.id, pathOf(p)] as const] : [])))
  if (!paths.size) requireReadPipelines(ctx, source)
  return store.mergeRequestPipelines(ctx.app.db, mr).flatMap((row) => {
    const projectPath = paths.get(row.project_id)
    return projectPath === undefined ? [] : [{ row, projectPath }]
  })
}

/** A commit's `last_pipeline`: the newest pipeline of that sha, for callers who may read pipelines. */
export function lastPipelineOf(ctx: RequestContext, p: ProjectView, sha: string) {
  if (!mayReadPipelines(ctx, p)) return null
  const row = store.latestPipeline(ctx.app.db, p.id, { sha })
  return row ? { id: row.id, iid: row.iid, project_id: row.project_id, ref: row.ref, sha: row.sha, status: row.status, web_url: `${ctx.baseUrl}/${pathOf(p)}/-/pipelines/${row.id}` } : null
}
