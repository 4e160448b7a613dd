// Git over HTTP: who may fetch or push (GitLab's find_for_git_client rules), and what a push changes afterwards.
import { join } from 'node:path'
import { CollabError } from '../../../core/errors.js'
import { emitRefsMoved } from '../../app-events.js'
import type { AppDeps } from '../../context.js'
import { houseKeep } from '../../git/housekeeping.js'
import { withRepoLock } from '../../git/lock.js'
import { forgetCache } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { installPreReceiveHook, pushChecksEnv } from '../../git/pre-receive.js'
import type { PushCommand } from '../../git/push-commands.js'
import { diffRefs, setHeadBranch, snapshotRefs, type BackendRequest, type RefChange, type RefSnapshot } from '../../git/transport.js'
import { canReadCode, canReadProject, DEVELOPER, effectiveProjectLevel } from '../../policy.js'
import { findProjectById, findProjectByPath, updateProject, type ProjectPatch, type ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { currentSettings } from '../instance/application-settings.js'
import { callerFromGitPassword, callerFromToken, tokenHash } from '../users/auth.js'
import { housekeepAfterPush } from './housekeeping.js'
import { jobTokenAllowed } from '../../store/ci-job-token-scope.js'
import { callerFromJobToken } from '../ci/job-tokens.js'
import { protectDefaultBranch } from './protected-branches.js'
import { pushChecks } from './push-checks.js'

export type { RefChange }

// Bodies are text/plain: git prints them to the user as `remote: …`, and GitLab's wording is what people search for.
export const gitChallenge = () => new CollabError('GIT_HTTP_UNAUTHORIZED', 'HTTP Basic: Access denied', {
  status: 401, headers: { 'WWW-Authenticate': 'Basic realm="collab"' },
})
const projectMissing = () => new CollabError('GIT_PROJECT_NOT_FOUND',
  "The project you were looking for could not be found or you don't have permission to view it.", { status: 404 })
const downloadDenied = () => new CollabError('GIT_DOWNLOAD_FORBIDDEN', 'You are not allowed to download code from this project.', { status: 403 })
const pushDenied = () => new CollabError('GIT_PUSH_FORBIDDEN', 'You are not allowed to push code to this project.', { status: 403 })
export const gitUnavailable = () => new CollabError('GIT_UNAVAILABLE',
  'git is not installed on the server: clone, fetch and push over HTTP are unavailable until it is.', { status: 503 })

// GitLab's abilities per scope: read_api and read_repository may download code; only api and write_repository may push.
const FETCH_SCOPES = ['api', 'read_api', 'read_repository', 'write_repository']
const PUSH_SCOPES = ['api', 'write_repository']
const hasScope = (scopes: string[] | null, allowed: string[]) => scopes === null || scopes.some((s) => allowed.includes(s))

export interface GitAccess {
  project: ProjectView
  /** Null for an anonymous fetch of a public project. */
  user: UserRow | null
  push: boolean
}

/** What git sent: a Basic username (null for PRIVATE-TOKEN) and its password or token. */
export interface GitCredential { login: string | null; secret: string }

/** The Basic username of CI job tokens (CI_REPOSITORY_URL): the password is the running job's token. */
const JOB_TOKEN_LOGIN = 'gitlab-ci-token'

async function signIn(app: AppDeps, credential: GitCredential) {
  if (credential.login === JOB_TOKEN_LOGIN) {
    // Not a running job's token: GitLab's find_for_git_client goes on to the other credentials.
    try {
      return callerFromJobToken(app, credential.secret)
    } catch (err) {
      if (!(err instanceof CollabError && err.status === 401)) throw err
    }
  }
  try {
    return callerFromToken(app, tokenHash(credential.secret))
  } catch (err) {
    // A blocked user may not sign in, so git is asked for other credentials, as for a wrong token.
    if (err instanceof CollabError && err.code === 'USER_BLOCKED') throw gitChallenge()
    if (!(err instanceof CollabError && err.status === 401)) throw err
    // Not a token: the account's own password, while password_authentication_enabled_for_git allows it.
    const byPassword = credential.login ? await callerFromGitPassword(app, credential.login, credential.secret) : null
    // Unknown, revoked or expired tokens and wrong passwords all become the Basic challenge, so git asks again.
    if (!byPassword) throw gitChallenge()
    return byPassword
  }
}

/** Decides a clone/fetch (`push` false) or push by a token (any username, `oauth2:<token>`, PRIVATE-TOKEN), a password, or nobody. */
export async function authorizeGit(app: AppDeps, projectPath: string, push: boolean, credential: GitCredential | null): Promise<GitAccess> {
  const caller = credential ? await signIn(app, credential) : null
  const project = findProjectByPath(app.db, projectPath)
  if (!caller?.user) {
    // Anonymous: only public fetches; everything else (missing projects too) asks for credentials rather than revealing.
    if (push || !project || project.visibility !== 'public') throw gitChallenge()
    return { project, user: null, push: false }
  }
  const ctx = { app, user: caller.user }
  if (!project || !canReadProject(ctx, project)) throw projectMissing()
  // A job token fetches its own project and those whose inbound scope lets its project in, and never pushes (GitLab 17).
  if (caller.job && !jobTokenAllowed(app.db, caller.job.project_id, project.id)) throw projectMissing()
  if (push && caller.job) throw pushDenied()
  if (push) {
    const mayPush = hasScope(caller.scopes, PUSH_SCOPES) && canReadCode(ctx, project) &&
      effectiveProjectLevel(ctx, project) >= DEVELOPER && !project.archived
    if (!mayPush) throw pushDenied()
  } else if (!hasScope(caller.scopes, FETCH_SCOPES) || !canReadCode(ctx, project)) {
    throw downloadDenied()
  }
  return { project, user: caller.user, push }
}

// Gitlab::GitAccessWiki's words.
const wikiPushDenied = () => new CollabError('GIT_WIKI_PUSH_FORBIDDEN', "You are not allowed to write to this project's wiki.", { status: 403 })

/**
 * Git access to a project's wiki (`<project>.wiki.git`): readable by whoever may read the project while its wiki is
 * enabled (guests of a private project too, as GitLab's read_wiki), pushable by Developers; never by a job token.
 */
export async function authorizeWikiGit(app: AppDeps, projectPath: string, push: boolean, credential: GitCredential | null): Promise<GitAccess> {
  const caller = credential ? await signIn(app, credential) : null
  const project = findProjectByPath(app.db, projectPath)
  if (!caller?.user) {
    if (push || !project || project.visibility !== 'public' || !project.wiki_enabled) throw gitChallenge()
    return { project, user: null, push: false }
  }
  const ctx = { app, user: caller.user }
  if (!project || !canReadProject(ctx, project) || caller.job) throw projectMissing()
  if (!project.wiki_enabled) throw push ? wikiPushDenied() : downloadDenied()
  if (push && !(hasScope(caller.scopes, PUSH_SCOPES) && effectiveProjectLevel(ctx, project) >= DEVELOPER && !project.archived)) throw wikiPushDenied()
  if (!push && !hasScope(caller.scopes, FETCH_SCOPES)) throw downloadDenied()
  return { project, user: caller.user, push }
}

/** The pre-receive hook for one push, when its commands need a check: the shared hooks directory and the checks. */
export async function pushHooks(app: AppDeps, access: GitAccess, push: { commands: PushCommand[]; complete: boolean }): Promise<BackendRequest['hooks']> {
  const checks = pushChecks({ app, user: access.user }, access.project, push)
  if (!checks.length) return undefined
  const dir = join(app.layout.root, 'git-hooks')
  await installPreReceiveHook(dir)
  return { dir, env: pushChecksEnv(checks) }
}

// The registry lives a layer down, where CI's listeners reach it without importing this service.
export { emitRefsMoved, onRefsMoved, type PushEvent } from '../../app-events.js'

const branchOf = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null)

/** The default branch of a project whose first branches just arrived: the configured one if pushed, else master, main, the first. */
function firstDefault(configured: string | null, pushed: string[]): string {
  for (const name of [configured, 'master', 'main']) if (name && pushed.includes(name)) return name
  return pushed[0]
}

async function recordPush(app: AppDeps, gitdir: string, project: ProjectView, before: RefSnapshot, after: RefSnapshot, changes: RefChange[]) {
  const hadBranches = [...before.keys()].some((r) => branchOf(r) !== null)
  const branches = [...after.keys()].map(branchOf).filter((b): b is string => b !== null)
  const patch: ProjectPatch = { last_activity_at: app.clock.now().toISOString(), empty_repo: branches.length ? 0 : 1 }
  if (!hadBranches && branches.length) {
    const pushed = changes.map((c) => branchOf(c.ref)).filter((b): b is string => b !== null && branches.includes(b))
    patch.default_branch = firstDefault(project.default_branch, pushed)
    await setHeadBranch(gitdir, patch.default_branch)
    protectDefaultBranch(app, project, patch.default_branch)
  }
  updateProject(app.db, project.id, patch)
}

/**
 * Runs one receive-pack (`run` spawns git and streams its answer) under the repository lock, so it and API commits
 * (which compare a ref before moving it) never lose each other's work; then records what moved and tells the hooks.
 */
export async function receivePack(app: AppDeps, access: GitAccess, run: () => Promise<void>): Promise<RefChange[]> {
  const gitdir = repositoryDir(app.layout.repositories, access.project.id)
  const changes = await withRepoLock(gitdir, async () => {
    const before = await snapshotRefs(gitdir)
    let moved: RefChange[] = []
    try {
      await run()
    } finally {
      // Even a failed request may have moved refs or left packs: record what git did, and make isomorphic-git re-read packs.
      forgetCache(gitdir)
      const after = await snapshotRefs(gitdir)
      moved = diffRefs(before, after)
      if (moved.length) await recordPush(app, gitdir, access.project, before, after, moved)
    }
    return moved
  })
  if (!changes.length) return changes
  const project = findProjectById(app.db, access.project.id) ?? access.project
  emitRefsMoved(app, { project, user: access.user!, changes })
  // housekeeping_enabled: GitLab's repack or gc when the push count meets a period, git's own gc --auto between; none when off.
  app.tasks.run('repository housekeeping', async () => {
    if (!currentSettings(app).housekeeping_enabled || (await housekeepAfterPush(app, project.id)) !== null) return
    await withRepoLock(gitdir, async () => {
      await houseKeep(gitdir)
      forgetCache(gitdir)
    })
  })
  return changes
}
