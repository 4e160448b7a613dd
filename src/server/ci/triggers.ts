// What creates pipelines without being asked: pushes (over HTTP, API commits, merges, new branches and tags) and
// merge-request events (opened, source branch moved, a fork's too) when the config has jobs for them; and a merge
// request's pipeline asked for by a member of its target ("Run pipeline").
import { isDraft } from '../../core/draft-title.js'
import type { MergeRequestOpened, PushEvent } from '../app-events.js'
import type { AppDeps } from '../context.js'
import { diffBetween } from '../git/diff.js'
import { fetchRef, mergeRequestHeadRef } from '../git/merge/index.js'
import { readCommitInfo, resolveCommit } from '../git/read.js'
import { repositoryDir } from '../git/repository.js'
import { GitError } from '../git/types.js'
import { assigneeIdsOf, labelNamesOf } from '../store/noteables.js'
import { milestonesByIds } from '../store/milestones.js'
import { findMergeRequestById, openOnBranches, sourceProjectOf, type MergeRequestRow } from '../store/merge-requests.js'
import { latestPipeline, type PipelineRow } from '../store/pipelines.js'
import { findProjectById, type ProjectView } from '../store/projects.js'
import { isProtectedBranch } from '../store/protected-refs.js'
import { findUserById, type UserRow } from '../store/users.js'
import { createPipeline, pipelineError } from './lifecycle.js'
import { cancelRedundantPipelines } from './lifecycle-redundant.js'
import type { MergeRequestFacts } from './variables.js'

const SKIP_CI = /\[(skip ci|ci skip)\]/i

async function skipsCi(app: AppDeps, projectId: number, sha: string): Promise<boolean> {
  const c = await readCommitInfo(repositoryDir(app.layout.repositories, projectId), sha).catch(() => null)
  return c !== null && SKIP_CI.test(c.message)
}

/**
 * Paths a push changed, for `rules:changes`; null (every `changes` rule matches, as GitLab does for new branches)
 * when there is nothing to compare with or the old commit cannot be read.
 */
async function changedPaths(app: AppDeps, projectId: number, before: string | null, after: string): Promise<string[] | null> {
  if (before === null) return null
  try {
    const files = await diffBetween(repositoryDir(app.layout.repositories, projectId), before, after)
    return [...new Set(files.flatMap((f) => [f.oldPath, f.newPath]))]
  } catch {
    return null
  }
}

/** Errors of a push pipeline are recorded on it; anything else (a vanished ref) is only logged. */
async function create(app: AppDeps, what: string, run: () => Promise<unknown>) {
  try {
    await run()
  } catch (err) {
    app.log.error(`creating a ${what} pipeline failed`, err)
  }
}

/** Listens to refsMoved (wired in app.ts): pipelines of the pushed refs and of the merge requests whose source moved. */
export async function pipelinesOnPush(app: AppDeps, event: PushEvent) {
  const project = findProjectById(app.db, event.project.id) ?? event.project
  for (const change of event.changes) {
    // A deleted branch or tag starts nothing.
    if (change.after === null) continue
    const m = /^refs\/(heads|tags)\/(.+)$/.exec(change.ref)
    if (!m) continue
    if (project.jobs_enabled) await pushPipeline(app, project, event, { before: change.before, after: change.after, tag: m[1] === 'tags', ref: m[2] })
    // A fork's merge requests run their pipelines in the fork, under the fork's CI settings (checked there).
    if (m[1] === 'heads') await mergeRequestPipelines(app, project, m[2], event.user)
  }
}

async function pushPipeline(app: AppDeps, project: ProjectView, event: PushEvent, c: { before: string | null; after: string; tag: boolean; ref: string }) {
  // An annotated tag points at its tag object: the pipeline runs the commit under it.
  const sha = await resolveCommit(repositoryDir(app.layout.repositories, project.id), c.after)
  if (!sha || (await skipsCi(app, project.id, sha))) return
  const changed = c.tag ? null : await changedPaths(app, project.id, c.before, sha)
  await create(app, 'push', async () => {
    const row = await createPipeline(app, {
      project, ref: c.ref, sha, tag: c.tag, source: 'push', user: event.user, beforeSha: c.tag ? null : c.before, changedPaths: changed,
    })
    if (row) cancelRedundantPipelines(app, row)
  })
}

/** What CI_MERGE_REQUEST_* variables say of a merge request. */
export function mergeRequestFacts(app: AppDeps, mr: MergeRequestRow, source: ProjectView): MergeRequestFacts {
  const target = findProjectById(app.db, mr.project_id)
  return {
    id: mr.id, iid: mr.iid, title: mr.title, sourceBranch: mr.source_branch, targetBranch: mr.target_branch, diffBaseSha: mr.base_sha,
    sourceProjectId: source.id, targetProjectId: mr.project_id, sourceProjectPath: `${source.ns_full_path}/${source.path}`,
    targetProjectPath: target ? `${target.ns_full_path}/${target.path}` : '',
    labels: labelNamesOf(app.db, [mr.id]).get(mr.id) ?? [],
    sourceBranchProtected: isProtectedBranch(app.db, source.id, mr.source_branch),
    targetBranchProtected: isProtectedBranch(app.db, mr.project_id, mr.target_branch),
    draft: isDraft(mr.title), description: mr.description ?? '', squash: mr.squash === 1,
    assignees: (assigneeIdsOf(app.db, [mr.id]).get(mr.id) ?? []).flatMap((id) => findUserById(app.db, id)?.username ?? []),
    milestone: mr.milestone_id === null ? null : milestonesByIds(app.db, [mr.milestone_id]).get(mr.milestone_id)?.title ?? null,
  }
}

/** Per app and merge request, the tail of the pipeline creations under way: a push and an opening race otherwise. */
const running = new WeakMap<AppDeps, Map<number, Promise<unknown>>>()

function oneAtATime<T>(app: AppDeps, mrId: number, fn: () => Promise<T>): Promise<T> {
  let map = running.get(app)
  if (!map) running.set(app, (map = new Map()))
  const next = (map.get(mrId) ?? Promise.resolve()).catch(() => undefined).then(fn)
  map.set(mrId, next)
  return next.finally(() => { if (map.get(mrId) === next) map.delete(mrId) })
}

/**
 * The source head, brought into the target repository as refs/merge-requests/<iid>/head first, so the pipeline
 * never reads a stale head and a fork's commit is there for the target's runner to fetch; null when the branch is gone.
 */
async function fetchHead(app: AppDeps, mr: MergeRequestRow): Promise<string | null> {
  const gitdir = (id: number) => repositoryDir(app.layout.repositories, id)
  if (mr.source_project_id === null) return null
  try {
    return await fetchRef(gitdir(mr.project_id), gitdir(mr.source_project_id), `refs/heads/${mr.source_branch}`, mergeRequestHeadRef(mr.iid))
  } catch (err) {
    if (err instanceof GitError) return null
    throw err
  }
}

interface MergeRequestRun {
  /** In the target project, on refs/merge-requests/<iid>/head; a fork's runs in the fork otherwise. */
  inTarget: boolean
  /** A run asked for runs again at a head that has one already. */
  again: boolean
}

/**
 * A detached merge_request_event pipeline, when the config at the merge request's head has jobs for one. A fork's runs
 * in the fork, on its source branch, with the fork's variables: its author wrote that config, and the target's
 * secrets are not theirs to print. Only a member of the target who asks runs it there (`inTarget`), as GitLab's
 * MergeRequests::CreatePipelineService does. Unasked, one per source head, though the push and the opening both ask.
 */
function mergeRequestPipeline(app: AppDeps, mrId: number, user: UserRow | null, run: MergeRequestRun): Promise<PipelineRow | null> {
  return oneAtATime(app, mrId, async () => {
    const mr = findMergeRequestById(app.db, mrId)
    const target = mr && findProjectById(app.db, mr.project_id)
    const source = mr && sourceProjectOf(app.db, mr)
    if (!mr || !target || !source || mr.state !== 'opened') return null
    const inTarget = run.inTarget || source.id === target.id
    const project = inTarget ? target : source
    const sha = project.jobs_enabled ? await fetchHead(app, mr) : null
    if (!sha || (!run.again && latestPipeline(app.db, project.id, { mergeRequestId: mr.id, sha })) || (await skipsCi(app, project.id, sha))) return null
    // The merge request's changes: from where it forked from the target to its head, both in the target repository now.
    const changed = mr.base_sha ? await changedPaths(app, target.id, mr.base_sha, sha) : null
    const row = await createPipeline(app, {
      project, ref: inTarget ? mergeRequestHeadRef(mr.iid) : mr.source_branch, sha, tag: false, source: 'merge_request_event', user,
      mergeRequest: mergeRequestFacts(app, mr, source), changedPaths: changed,
    })
    if (row) cancelRedundantPipelines(app, row)
    return row
  })
}

async function mergeRequestPipelines(app: AppDeps, project: ProjectView, branch: string, user: UserRow) {
  for (const mr of openOnBranches(app.db, project.id, [branch])) {
    if (mr.source_project_id === project.id && mr.source_branch === branch) {
      await create(app, 'merge request', () => mergeRequestPipeline(app, mr.id, user, { inTarget: false, again: false }))
    }
  }
}

/** Listens to mergeRequestOpened (wired in app.ts): a new merge request may run its merge_request_event pipeline. */
export const pipelineOnOpened = (app: AppDeps, { mergeRequestId, user }: MergeRequestOpened) =>
  create(app, 'merge request', () => mergeRequestPipeline(app, mergeRequestId, user, { inTarget: false, again: false }))

/** "Run pipeline" by a member of the target (checked by the caller): in the target, at the head, though one ran there. */
export async function runMergeRequestPipelineInTarget(app: AppDeps, mrId: number, user: UserRow): Promise<PipelineRow> {
  const row = await mergeRequestPipeline(app, mrId, user, { inTarget: true, again: true })
  // No pipeline: rules or workflow left no job for a merge request (or its source branch is gone).
  if (!row) throw pipelineError('Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.')
  return row
}
