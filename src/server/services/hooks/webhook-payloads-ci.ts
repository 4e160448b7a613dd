// GitLab's push, tag push, pipeline and job hook payloads (docs: user/project/integrations/webhook_events).
import { commitDiff } from '../../git/diff.js'
import { readCommitInfo } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import type { CommitInfo } from '../../git/types.js'
import type { AppDeps } from '../../context.js'
import { pipelineJobs, type JobRow } from '../../store/ci-jobs.js'
import { findMergeRequestById } from '../../store/merge-requests.js'
import { findPipelineById, type PipelineRow } from '../../store/pipelines.js'
import type { ProjectView } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import type { RefChange } from '../repository/git-access.js'
import { detailedStatus } from '../merge-requests/merge-requests.js'
import { isProtectedBranch } from '../repository/protected-branches.js'
import { isProtectedTag } from '../repository/protected-tags.js'
import { hookAvatarUrl, hookProject, hookRepository, hookUser, projectUrls } from './webhook-payloads.js'

/** Git's null object id: the `before` of a created ref and the `after` of a deleted one. */
export const ZERO_SHA = '0000000000000000000000000000000000000000'
const ZERO = ZERO_SHA
// GitLab lists at most 20 commits of a push; total_commits_count counts them all (up to our walk's limit).
const COMMITS_SHOWN = 20
const COMMITS_COUNTED = 1000

/** Commits a push brought, newest first, walking first parents from `after` until `before`. */
export async function pushedCommits(gitdir: string, change: RefChange): Promise<{ commits: CommitInfo[]; total: number }> {
  const commits: CommitInfo[] = []
  let total = 0
  let oid: string | undefined = change.after ?? undefined
  while (oid && oid !== change.before && total < COMMITS_COUNTED) {
    let info: CommitInfo
    try {
      info = await readCommitInfo(gitdir, oid)
    } catch {
      break
    }
    if (commits.length < COMMITS_SHOWN) commits.push(info)
    total++
    oid = info.parents[0]
  }
  return { commits, total }
}

async function commitEntry(app: AppDeps, p: ProjectView, gitdir: string, c: CommitInfo) {
  const files = await commitDiff(gitdir, c.id).catch(() => [])
  return {
    id: c.id, message: c.message, title: c.message.split('\n')[0], timestamp: c.authoredDate,
    url: `${projectUrls(app, p).web}/-/commit/${c.id}`, author: { name: c.authorName, email: c.authorEmail },
    added: files.filter((f) => f.newFile).map((f) => f.newPath),
    modified: files.filter((f) => !f.newFile && !f.deletedFile).map((f) => f.newPath),
    removed: files.filter((f) => f.deletedFile).map((f) => f.oldPath),
  }
}

/** The push or tag_push payload of one moved ref. */
export async function pushPayload(app: AppDeps, p: ProjectView, user: UserRow, change: RefChange) {
  const gitdir = repositoryDir(app.layout.repositories, p.id)
  const tag = change.ref.startsWith('refs/tags/')
  const { commits, total } = tag ? { commits: [], total: 0 } : await pushedCommits(gitdir, change)
  // Oldest first, as GitLab lists them.
  const entries = await Promise.all(commits.reverse().map((c) => commitEntry(app, p, gitdir, c)))
  const head = change.after ? await readCommitInfo(gitdir, change.after).catch(() => null) : null
  return {
    object_kind: tag ? 'tag_push' : 'push', event_name: tag ? 'tag_push' : 'push', before: change.before ?? ZERO, after: change.after ?? ZERO,
    ref: change.ref, ref_protected: tag ? isProtectedTag(app, p, change.ref.slice('refs/tags/'.length)) : isProtectedBranch(app, p, change.ref.slice('refs/heads/'.length)), checkout_sha: head?.id ?? null, message: null, user_id: user.id, user_name: user.name,
    user_username: user.username, user_email: '[REDACTED]', user_avatar: hookAvatarUrl(app, user), project_id: p.id, project: hookProject(app, p),
    commits: entries, total_commits_count: total, push_options: {}, repository: hookRepository(app, p),
  }
}

/** `2016-08-12 15:23:28 UTC`: how pipeline and job hooks write times. */
export const utc = (iso: string | null) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : null)
const seconds = (from: string | null, to: string | null) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null)
const detailed = (status: string) => (status === 'success' ? 'passed' : status)

async function commitOf(app: AppDeps, p: ProjectView, sha: string) {
  const c = await readCommitInfo(repositoryDir(app.layout.repositories, p.id), sha).catch(() => null)
  return c ? {
    id: c.id, message: c.message, title: c.message.split('\n')[0], timestamp: c.authoredDate,
    url: `${projectUrls(app, p).web}/-/commit/${c.id}`, author: { name: c.authorName, email: c.authorEmail },
  } : null
}

function buildEntry(app: AppDeps, j: JobRow) {
  return {
    id: j.id, stage: j.stage, name: j.name, status: j.status, created_at: utc(j.created_at), started_at: utc(j.started_at),
    finished_at: utc(j.finished_at), duration: seconds(j.started_at, j.finished_at), queued_duration: seconds(j.queued_at, j.started_at),
    failure_reason: j.failure_reason, when: j.when_, manual: j.when_ === 'manual', allow_failure: j.allow_failure === 1,
    user: j.user_id ? hookUser(app, findUserById(app.db, j.user_id)) : null, runner: null,
    artifacts_file: { filename: j.artifacts_file, size: j.artifacts_size }, environment: null,
  }
}

/** The merge request of a merge request pipeline, in the short form GitLab's pipeline hook gives it. */
function hookMergeRequest(app: AppDeps, p: ProjectView, pl: PipelineRow) {
  const m = pl.merge_request_id === null ? undefined : findMergeRequestById(app.db, pl.merge_request_id)
  if (!m) return null
  return {
    id: m.id, iid: m.iid, title: m.title, source_branch: m.source_branch, source_project_id: m.source_project_id,
    target_branch: m.target_branch, target_project_id: m.project_id, state: m.state, merge_status: m.merge_status,
    detailed_merge_status: detailedStatus(m), url: `${projectUrls(app, p).web}/-/merge_requests/${m.iid}`,
  }
}

export async function pipelinePayload(app: AppDeps, p: ProjectView, pl: PipelineRow) {
  return {
    object_kind: 'pipeline',
    object_attributes: {
      id: pl.id, iid: pl.iid, name: null, ref: pl.ref, tag: pl.tag === 1, sha: pl.sha, before_sha: pl.before_sha ?? ZERO, source: pl.source,
      status: pl.status, detailed_status: detailed(pl.status), stages: JSON.parse(pl.stages) as string[], created_at: utc(pl.created_at),
      finished_at: utc(pl.finished_at), duration: pl.duration, queued_duration: pl.queued_duration, variables: [],
      url: `${projectUrls(app, p).web}/-/pipelines/${pl.id}`,
    },
    merge_request: hookMergeRequest(app, p, pl), user: pl.user_id ? hookUser(app, findUserById(app.db, pl.user_id)) : null, project: hookProject(app, p),
    commit: await commitOf(app, p, pl.sha), builds: pipelineJobs(app.db, pl.id).filter((j) => !j.retried).map((j) => buildEntry(app, j)),
  }
}

export async function jobPayload(app: AppDeps, p: ProjectView, j: JobRow) {
  const pl = findPipelineById(app.db, j.pipeline_id)
  const c = await readCommitInfo(repositoryDir(app.layout.repositories, p.id), j.sha).catch(() => null)
  return {
    object_kind: 'build', ref: j.ref, tag: j.tag === 1, before_sha: pl?.before_sha ?? ZERO, sha: j.sha, retries_count: j.retry_count,
    build_id: j.id, build_name: j.name, build_stage: j.stage, build_status: j.status, build_created_at: utc(j.created_at),
    build_started_at: utc(j.started_at), build_finished_at: utc(j.finished_at), build_duration: seconds(j.started_at, j.finished_at),
    build_queued_duration: seconds(j.queued_at, j.started_at), build_allow_failure: j.allow_failure === 1, build_failure_reason: j.failure_reason ?? 'unknown_failure',
    pipeline_id: j.pipeline_id, runner: null, project_id: p.id, project_name: `${p.ns_full_name} / ${p.name}`,
    user: j.user_id ? hookUser(app, findUserById(app.db, j.user_id)) : null,
    commit: {
      id: j.pipeline_id, name: null, sha: j.sha, message: c?.message ?? null, author_name: c?.authorName ?? null, author_email: c?.authorEmail ?? null,
      author_url: null, status: pl?.status ?? null, duration: pl?.duration ?? null, started_at: utc(pl?.started_at ?? null), finished_at: utc(pl?.finished_at ?? null),
    },
    repository: hookRepository(app, p), project: hookProject(app, p), environment: null,
  }
}
