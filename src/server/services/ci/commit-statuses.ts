// The combined CI status of a commit, from the statuses posted on it.
import { FINISHED_STATUSES } from '../../../core/job-status.js'
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import { canReadBuilds } from '../../policy.js'
import { nowIso } from '../../context.js'
import { isAncestor, listBranches } from '../../git/read.js'
import * as store from '../../store/commit-statuses.js'
import type { ProjectView } from '../../store/projects.js'
import { commitOr404, gitdirOf, requirePushCode } from '../repository/repository.js'
import type { RequestContext } from '../../context.js'
import { transaction } from '../../store/db.js'
import { pipelineForStatus, statusChanged } from '../../ci/lifecycle-external.js'
import { latestPipeline } from '../../store/pipelines.js'

/** GitLab's composite rule: running wins while anything runs, then pending, failed (unless allowed), canceled, success. */
export function commitStatus(ctx: RequestContext, projectId: number, sha: string): string | null {
  // With pipelines, GitLab shows the newest pipeline's status; posted statuses join a pipeline, so it covers them too.
  const pipeline = latestPipeline(ctx.app.db, projectId, { sha })
  if (pipeline) return pipeline.status
  const rows = store.currentStatuses(ctx.app.db, projectId, sha)
  if (!rows.length) return null
  const has = (s: string) => rows.some((r) => r.status === s)
  if (has('running')) return 'running'
  if (has('pending')) return rows.every((r) => r.status === 'pending') ? 'pending' : 'running'
  if (rows.some((r) => r.status === 'failed' && !r.allow_failure)) return 'failed'
  if (has('canceled')) return 'canceled'
  return 'success'
}

export interface PostStatusInput {
  state: store.CommitStatusRow['status']
  ref?: string
  name?: string
  context?: string
  target_url?: string
  description?: string
  coverage?: number
  pipeline_id?: number
}

/** Without `ref`, GitLab files the status under a branch containing the commit, the default branch first. */
async function defaultRef(ctx: RequestContext, p: ProjectView, sha: string): Promise<string | null> {
  const gitdir = gitdirOf(ctx, p)
  const branches = await listBranches(gitdir)
  branches.sort((a, b) => Number(b.name === p.default_branch) - Number(a.name === p.default_branch))
  for (const b of branches) if (await isAncestor(gitdir, sha, b.oid)) return b.name
  return null
}

/** Same name and ref: a running status moves on in place; a finished one is kept as history and a new one starts. */
export async function postStatus(ctx: RequestContext, p: ProjectView, rev: string, input: PostStatusInput) {
  requirePushCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  const ref = input.ref ?? (await defaultRef(ctx, p, sha))
  // GitLab: a commit on no branch needs an explicit ref (lib/api/commit_statuses.rb).
  if (ref === null) throw notFound('References for commit')
  const name = input.name ?? input.context ?? 'default'
  const pipeline = pipelineForStatus(ctx.app, { project: p, sha, ref, user: ctx.user, pipelineId: input.pipeline_id })
  const now = nowIso(ctx)
  const db = ctx.app.db
  const timing = (prev?: store.CommitStatusRow) => ({
    started_at: input.state === 'running' ? now : prev?.started_at ?? null,
    finished_at: FINISHED_STATUSES.has(input.state) ? now : null,
  })
  const row = transaction(db, () => {
    const current = store.findCurrentStatus(db, p.id, sha, ref, name)
    if (current && !FINISHED_STATUSES.has(current.status)) {
      if (current.status === input.state) {
        const v = verb(input.state)
        throw new CollabError('STATUS_TRANSITION', `Cannot transition status via :${v} from :${current.status} (Reason(s): Status cannot transition via "${v}")`, { status: 400 })
      }
      store.updateStatus(db, current.id, {
        status: input.state, updated_at: now, ...timing(current),
        ...(input.target_url !== undefined ? { target_url: input.target_url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
      })
      return store.findStatusById(db, current.id)!
    }
    if (current) store.markRetried(db, current.id)
    const id = store.insertStatus(db, {
      project_id: p.id, sha, ref, name, stage: 'test', status: input.state, target_url: input.target_url ?? null,
      description: input.description ?? null, coverage: input.coverage ?? null, pipeline_id: pipeline.id,
      allow_failure: 0, author_id: ctx.user!.id, created_at: now, updated_at: now, ...timing(),
    })
    return store.findStatusById(db, id)!
  })
  statusChanged(ctx.app, row.pipeline_id ?? pipeline.id)
  return row
}

const verb = (state: string) => ({ pending: 'enqueue', running: 'run', success: 'succeed', failed: 'drop', canceled: 'cancel' })[state] ?? state

/** Statuses are read as pipelines and jobs are (policy.ts canReadBuilds: public_jobs). */
export async function listStatuses(ctx: RequestContext, p: ProjectView, rev: string, f: { ref?: string; stage?: string; name?: string; all?: boolean }) {
  if (!canReadBuilds(ctx, p)) throw forbidden()
  const sha = await commitOr404(ctx, p, rev)
  // api-v4.md: `ref` defaults to the default branch.
  const ref = f.ref ?? p.default_branch ?? undefined
  return store.listStatuses(ctx.app.db, p.id, sha, { ...f, ref, limit: ctx.page.limit, offset: ctx.page.offset })
}
