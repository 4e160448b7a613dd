// Issues closed by commits that reach the default branch, as GitLab's ProcessCommitWorker closes them: the closing
// pattern of a new commit's message closes the open issues it names, by the commit's author when the author's email is
// one of our users' (else by the pusher) and only when that user may edit the issue; each gets GitLab's
// "closed via commit <sha>" note, a state event naming the commit, and the issue hook.
import type { AppDeps, RequestContext } from '../../context.js'
import { commitsBetween } from '../../git/merge/index.js'
import { repositoryDir } from '../../git/repository.js'
import { REPORTER, effectiveProjectLevel } from '../../policy.js'
import { transaction } from '../../store/db.js'
import { findIssueById, updateIssue } from '../../store/issues.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUserByEmail, type UserRow } from '../../store/users.js'
import { addSystemNote } from './discussion.js'
import { onRefsMoved, type PushEvent } from '../repository/git-access.js'
import { closingIssueIds } from './issue-references.js'
import { recordResourceEvents, snapshotIssuable } from './resource-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

const actingAs = (app: AppDeps, user: UserRow): RequestContext => ({
  app, user, token: null, scopes: null, sudoer: null, baseUrl: '', apiUrl: '/api/v4', page: { page: 1, perPage: 20, limit: 20, offset: 0 },
})

/** `sha` in the issue's own project, `path@sha` from another (Commit#to_reference). */
const commitReference = (sha: string, commitProject: ProjectView, issueProject: ProjectView) =>
  commitProject.id === issueProject.id ? sha : `${commitProject.ns_full_path}/${commitProject.path}@${sha}`

function closeByCommit(ctx: RequestContext, project: ProjectView, issueId: number, sha: string) {
  const db = ctx.app.db
  const issue = findIssueById(db, issueId)
  const issueProject = issue && findProjectById(db, issue.project_id)
  if (!issue || !issueProject || issue.state !== 'opened') return
  const isAuthor = issue.author_id === ctx.user!.id
  if (!isAuthor && effectiveProjectLevel(ctx, issueProject) < REPORTER) return
  const now = ctx.app.clock.now().toISOString()
  transaction(db, () => {
    const before = snapshotIssuable(ctx, issue.id)
    updateIssue(db, issue.id, { state: 'closed', closed_at: now, closed_by_id: ctx.user!.id, updated_at: now })
    addSystemNote(ctx, issue.id, `closed via commit ${commitReference(sha, project, issueProject)}`, now)
    recordResourceEvents(ctx, before, now, { commit: sha })
  })
  emitHookEvent(ctx.app, { kind: 'issue', action: 'close', projectId: issue.project_id, userId: ctx.user!.id, issueId: issue.id })
}

async function onPush(app: AppDeps, event: PushEvent) {
  const project = findProjectById(app.db, event.project.id)
  const change = project?.default_branch ? event.changes.find((c) => c.ref === `refs/heads/${project.default_branch}`) : undefined
  // A new default branch brings history that was never "pushed to" it; GitLab closes nothing for it either.
  if (!project || !change || change.before === null || change.after === null) return
  const commits = await commitsBetween(repositoryDir(app.layout.repositories, project.id), change.before, change.after)
  for (const commit of commits.reverse()) {
    const ids = closingIssueIds(app.db, project, commit.message)
    if (!ids.length) continue
    const author = findUserByEmail(app.db, commit.authorEmail)
    const ctx = actingAs(app, author && author.state === 'active' ? author : event.user)
    for (const id of ids) closeByCommit(ctx, project, id, commit.id)
  }
}

/** Subscribes commit closing to ref moves of this server; returns the unsubscribe. */
export const watchCommitClosing = (app: AppDeps) => onRefsMoved(app, onPush)
