// Push mirror updates in the background (GitLab's UpdateRemoteMirrorService over Gitaly's UpdateRemoteMirror): after
// every push or API commit each enabled mirror of the project is brought to the project's branches and tags. The push
// that caused it never waits. One update per mirror at a time; a push meanwhile runs one more after it. A failure is
// retried with backoff, then recorded as failed; every error is stored and logged with the credentials masked.
import { onRefsMoved, type PushEvent } from '../../app-events.js'
import type { AppDeps } from '../../context.js'
import { nowIso } from '../../context.js'
import { parseMirrorCredentials, scrubMirrorCredentials } from '../../../core/mirror-url.js'
import { userPattern } from '../../../core/re2.js'
import { isAncestorCommit, pushRefspecs, remoteRefs, type MirrorRemote } from '../../git/remote-mirror.js'
import { repositoryDir } from '../../git/repository.js'
import { snapshotRefs } from '../../git/transport.js'
import { transaction } from '../../store/db.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import * as store from '../../store/remote-mirrors.js'
import type { RemoteMirrorRow } from '../../store/remote-mirrors.js'
import { isProtectedBranch } from './protected-branches.js'
import { checkedAddresses, parseHookUrl } from '../hooks/webhook-addresses.js'

export interface MirrorSyncOptions {
  /** Waits before the second, third … attempt (GitLab tries three times, a minute or five apart). */
  retryDelaysMs: number[]
  /** The most one git command may take. */
  timeoutMs: number
}
const DEFAULTS: MirrorSyncOptions = { retryDelaysMs: [60_000, 300_000], timeoutMs: 30 * 60_000 }

interface State {
  opts: MirrorSyncOptions
  /** Mirrors being updated, and whether another push asked for one more update meanwhile. */
  running: Map<number, { again: boolean }>
  pending: Set<Promise<void>>
  abort: AbortController
}
const states = new WeakMap<AppDeps, State>()

function stateOf(app: AppDeps): State {
  let s = states.get(app)
  if (!s) states.set(app, (s = { opts: { ...DEFAULTS }, running: new Map(), pending: new Set(), abort: new AbortController() }))
  return s
}

/** Retry delays and the git deadline (tests shorten them). */
export function configureMirrorSync(app: AppDeps, opts: Partial<MirrorSyncOptions>) {
  Object.assign(stateOf(app).opts, opts)
}

/** Settles when no mirror update is running or waiting to retry. */
export async function mirrorSyncIdle(app: AppDeps) {
  const s = stateOf(app)
  while (s.pending.size) await Promise.all([...s.pending])
}

/** Starts an update of the mirror, or asks the running one for another round; never waits for it. */
export function requestMirrorSync(app: AppDeps, mirrorId: number) {
  const s = stateOf(app)
  if (s.abort.signal.aborted) return
  const running = s.running.get(mirrorId)
  if (running) {
    running.again = true
    return
  }
  const entry = { again: false }
  s.running.set(mirrorId, entry)
  const run = (async () => {
    try {
      do {
        entry.again = false
        await updateWithRetries(app, s, mirrorId)
      } while (entry.again && !s.abort.signal.aborted)
    } finally {
      s.running.delete(mirrorId)
    }
  })().catch((err) => app.log.error('push mirror update failed', err))
  s.pending.add(run)
  void run.finally(() => s.pending.delete(run))
}

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(resolve, ms)
  signal.addEventListener('abort', () => { clearTimeout(t); resolve() }, { once: true })
})

function record(app: AppDeps, id: number, state: store.MirrorState) {
  try {
    transaction(app.db, () => store.recordMirrorState(app.db, id, state))
  } catch {
    // The server is closing: the state is lost with the update, which starts again with the next push.
  }
}

interface Outcome { error: string | null; retry: boolean }

async function updateWithRetries(app: AppDeps, s: State, mirrorId: number) {
  for (let attempt = 0; ; attempt++) {
    // Read afresh each time: the mirror may have been disabled, changed or deleted meanwhile.
    const mirror = store.findRemoteMirror(app.db, mirrorId)
    const project = mirror && findProjectById(app.db, mirror.project_id)
    if (!mirror || !project || !mirror.enabled || s.abort.signal.aborted) return
    record(app, mirrorId, { update_status: 'started', last_update_started_at: nowIso({ app }) })
    const outcome = await updateOnce(app, s, project, mirror)
    if (s.abort.signal.aborted) return
    const at = nowIso({ app })
    if (outcome.error === null) {
      record(app, mirrorId, { update_status: 'finished', last_update_at: at, last_successful_update_at: at, last_error: null })
      return
    }
    const last = !outcome.retry || attempt >= s.opts.retryDelaysMs.length
    app.log.warn(`push mirror ${mirrorId} of project ${project.id}: ${outcome.error}`)
    record(app, mirrorId, last ? { update_status: 'failed', last_error: outcome.error, last_update_at: at } : { update_status: 'to_retry', last_error: outcome.error })
    if (last) return
    await sleep(s.opts.retryDelaysMs[attempt], s.abort.signal)
  }
}

/** Which branches the mirror takes: all, the protected ones, or those its regular expression matches; tags always. */
function refFilter(app: AppDeps, project: ProjectView, mirror: RemoteMirrorRow): (ref: string) => boolean {
  const regex = mirror.mirror_branch_regex ? userPattern(mirror.mirror_branch_regex) : null
  return (ref) => {
    if (ref.startsWith('refs/tags/')) return true
    const branch = ref.slice('refs/heads/'.length)
    if (mirror.only_protected_branches) return isProtectedBranch(app, project, branch)
    return regex ? regex.test(branch) === true : true
  }
}

interface Plan { refspecs: string[]; divergent: string[] }

/**
 * Gitaly's plan: push what differs; with keep_divergent_refs leave a mirror ref that is not an ancestor of ours (and
 * report it) and delete nothing; otherwise delete a mirror-only ref only when the default branch already holds its
 * commit, so work pushed to the mirror alone is never lost. The default branch goes first (an empty mirror takes it).
 */
async function plan(gitdir: string, local: Map<string, string>, remote: Map<string, string>, keep: boolean, wanted: (ref: string) => boolean, defaultRef: string | null): Promise<Plan> {
  const refspecs: string[] = []
  const divergent: string[] = []
  for (const [ref, oid] of local) {
    if (!wanted(ref) || remote.get(ref) === oid) continue
    const theirs = remote.get(ref)
    if (theirs && keep && !(await isAncestorCommit(gitdir, theirs, oid))) divergent.push(ref)
    else refspecs.push(`${ref}:${ref}`)
  }
  if (!keep && defaultRef && local.has(defaultRef)) {
    for (const [ref, oid] of remote) {
      if (!local.has(ref) && wanted(ref) && (await isAncestorCommit(gitdir, oid, local.get(defaultRef)!))) refspecs.push(`:${ref}`)
    }
  }
  const first = refspecs.indexOf(`${defaultRef}:${defaultRef}`)
  if (first > 0) refspecs.unshift(...refspecs.splice(first, 1))
  return { refspecs, divergent }
}

async function updateOnce(app: AppDeps, s: State, project: ProjectView, mirror: RemoteMirrorRow): Promise<Outcome> {
  const creds = parseMirrorCredentials(mirror.credentials)
  const url = parseHookUrl(mirror.url)
  if (!url) return { error: 'The remote mirror URL is invalid.', retry: false }
  const checked = await checkedAddresses(app, url)
  // GitLab's UrlBlocker at update time: a hard failure, not retried.
  if ('refusal' in checked) return { error: checked.refusal, retry: false }
  const pinned = checked.addresses && !isLiteralAddress(url.hostname) ? checked.addresses : null
  const remote: MirrorRemote = { url: mirror.url, credentials: mirror.auth_method === 'password' ? creds : creds && { ...creds, password: '' }, pinned, timeoutMs: s.opts.timeoutMs, signal: s.abort.signal }
  const gitdir = repositoryDir(app.layout.repositories, project.id)
  let step = 'get remote references'
  try {
    const [local, theirs] = await Promise.all([snapshotRefs(gitdir), remoteRefs(gitdir, remote)])
    step = 'push to mirror'
    const defaultRef = project.default_branch ? `refs/heads/${project.default_branch}` : null
    const { refspecs, divergent } = await plan(gitdir, local, theirs, mirror.keep_divergent_refs === 1, refFilter(app, project, mirror), defaultRef)
    if (refspecs.length) await pushRefspecs(gitdir, remote, refspecs, mirror.keep_divergent_refs !== 1)
    // UpdateRemoteMirrorService: refs left behind are a failure worth showing, not one a retry would mend.
    if (divergent.length) return { error: `Some refs have diverged and have not been updated on the remote:\n\n${divergent.join('\n')}`, retry: false }
    return { error: null, retry: false }
  } catch (err) {
    return { error: scrubMirrorCredentials(`${step}: ${(err as Error).message}`, creds), retry: true }
  }
}

const isLiteralAddress = (host: string) => /^[\d.]+$/.test(host) || host.startsWith('[')

/**
 * Every push and API commit updates the project's enabled mirrors, and updates a previous stop cut short start again;
 * the returned stop ends them and waits.
 */
export function watchRemoteMirrors(app: AppDeps): () => Promise<void> {
  const s = stateOf(app)
  const off = onRefsMoved(app, (a: AppDeps, e: PushEvent) => {
    for (const id of store.enabledMirrorIds(a.db, e.project.id)) requestMirrorSync(a, id)
  })
  app.tasks.run('resume push mirrors', () => {
    for (const id of store.unfinishedMirrorIds(app.db)) requestMirrorSync(app, id)
  })
  return async () => {
    off()
    s.abort.abort()
    await mirrorSyncIdle(app)
  }
}
