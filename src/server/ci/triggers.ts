// What creates pipelines without being asked: pushes (over HTTP, API commits, merges, new branches and tags) and
// merge-request events (opened, source branch moved) when the config has jobs for them.
import type { AppDeps } from '../context.js'
import { diffBetween } from '../git/diff.js'
import { readCommitInfo, readRef, resolveCommit } from '../git/read.js'
import { repositoryDir } from '../git/repository.js'
import { labelNamesOf } from '../store/noteables.js'
import { findMergeRequestById, openOnBranches, type MergeRequestRow } from '../store/merge-requests.js'
import { latestPipeline } from '../store/pipelines.js'
import { findProjectById, type ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { onRefsMoved, type PushEvent } from '../services/git-access.js'
import { createPipeline } from './lifecycle.js'
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

async function onPush(app: AppDeps, event: PushEvent) {
  const project = findProjectById(app.db, event.project.id) ?? event.project
  if (!project.jobs_enabled) return
  for (const change of event.changes) {
    // A deleted branch or tag starts nothing.
    if (change.after === null) continue
    const m = /^refs\/(heads|tags)\/(.+)$/.exec(change.ref)
    if (!m) continue
    // An annotated tag points at its tag object: the pipeline runs the commit under it.
    const sha = await resolveCommit(repositoryDir(app.layout.repositories, project.id), change.after)
    if (!sha || (await skipsCi(app, project.id, sha))) continue
    const tag = m[1] === 'tags'
    const changed = tag ? null : await changedPaths(app, project.id, change.before, sha)
    await create(app, 'push', async () => {
      const row = await createPipeline(app, {
        project, ref: m[2], sha, tag, source: 'push', user: event.user, beforeSha: tag ? null : change.before, changedPaths: changed,
      })
      if (row) cancelRedundantPipelines(app, row)
    })
    if (!tag) await mergeRequestPipelines(app, project, m[2], event.user)
  }
}

/** What CI_MERGE_REQUEST_* variables say of a merge request. */
export function mergeRequestFacts(app: AppDeps, mr: MergeRequestRow, source: ProjectView): MergeRequestFacts {
  return {
    id: mr.id, iid: mr.iid, title: mr.title, sourceBranch: mr.source_branch, targetBranch: mr.target_branch, sourceSha: mr.source_sha,
    sourceProjectId: mr.source_project_id, targetProjectId: mr.project_id, sourceProjectPath: `${source.ns_full_path}/${source.path}`,
    labels: labelNamesOf(app.db, [mr.id]).get(mr.id) ?? [],
  }
}

/** Per app and merge request, the tail of the pipeline creations under way: a push and an opening race otherwise. */
const running = new WeakMap<AppDeps, Map<number, Promise<void>>>()

function oneAtATime(app: AppDeps, mrId: number, fn: () => Promise<void>): Promise<void> {
  let map = running.get(app)
  if (!map) running.set(app, (map = new Map()))
  const next = (map.get(mrId) ?? Promise.resolve()).then(fn)
  map.set(mrId, next)
  return next.finally(() => { if (map.get(mrId) === next) map.delete(mrId) })
}

/**
 * A merge_request_event pipeline, when the config has jobs for one (otherwise the plan is empty and nothing is made);
 * one per source head, though both the push and the opening of the merge request ask for it.
 */
function mergeRequestPipeline(app: AppDeps, mrId: number, user: UserRow | null) {
  return oneAtATime(app, mrId, async () => {
    const mr = findMergeRequestById(app.db, mrId)
    const target = mr && findProjectById(app.db, mr.project_id)
    const source = mr && findProjectById(app.db, mr.source_project_id)
    if (!mr || !target || !source || !target.jobs_enabled || mr.state !== 'opened') return
    // Pipelines of a fork's merge request run in the target project, which cannot read the fork's branch: not modelled.
    if (source.id !== target.id) return
    const sha = await readRef(repositoryDir(app.layout.repositories, source.id), `refs/heads/${mr.source_branch}`).catch(() => null)
    if (!sha || latestPipeline(app.db, target.id, { mergeRequestId: mr.id, sha })) return
    // The merge request's changes: from where it forked from the target to its head.
    const changed = mr.base_sha ? await changedPaths(app, source.id, mr.base_sha, sha) : null
    await create(app, 'merge request', () => createPipeline(app, {
      project: target, ref: mr.source_branch, sha, tag: false, source: 'merge_request_event', user,
      mergeRequest: mergeRequestFacts(app, mr, source), changedPaths: changed,
    }))
  })
}

async function mergeRequestPipelines(app: AppDeps, project: ProjectView, branch: string, user: UserRow) {
  for (const mr of openOnBranches(app.db, project.id, [branch])) {
    if (mr.source_project_id === project.id && mr.source_branch === branch) await mergeRequestPipeline(app, mr.id, user)
  }
}

/** Called by merge-request creation: a new merge request may run its merge_request_event pipeline. */
export function mergeRequestOpened(app: AppDeps, mrId: number, user: UserRow | null) {
  app.tasks.run('merge request pipeline', () => mergeRequestPipeline(app, mrId, user))
}

/** Subscribes pipeline creation to ref moves of this server; returns the unsubscribe. */
export const watchPipelineTriggers = (app: AppDeps) => onRefsMoved(app, onPush)
