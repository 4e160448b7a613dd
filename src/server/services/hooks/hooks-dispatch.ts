// Which hooks hear which event: project hooks by their switches (confidential ones apart, pushes by branch filter),
// system hooks for pushes, tag pushes, merge requests and repository updates. Subscribes once per server.
import { randomUUID } from 'node:crypto'
import { wildcardMatcher } from '../../../core/wildcard.js'
import { userPattern } from '../../../core/re2.js'
import type { AppDeps } from '../../context.js'
import { nowIso } from '../../context.js'
import { onJobFinished, onJobStarted, onPipelineFinished } from '../../ci/lifecycle-events.js'
import type { JobRow } from '../../store/ci-jobs.js'
import { findPipelineById } from '../../store/pipelines.js'
import { hooksForProject, systemHooks, type HookRow } from '../../store/hooks.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { hookAlertStatus } from '../../../core/hook-alert.js'
import { onRefsMoved, type PushEvent, type RefChange } from '../repository/git-access.js'
import { deliver, stopDeliveries } from './webhook-delivery.js'
import { isFeedEvent, onHookEvent, type HookEvent, type WebhookEvent } from './webhook-events.js'
import { buildPayload, hookAvatarUrl, hookProject } from './webhook-payloads.js'
import { jobPayload, pipelinePayload, pushPayload, ZERO_SHA } from './webhook-payloads-ci.js'

/** A kind of delivery: the switch a hook needs, the log's trigger, the X-Gitlab-Event header. */
interface Route { flag: string; trigger: string; event: string; system?: boolean }

const ROUTES = {
  push: { flag: 'push_events', trigger: 'push_hooks', event: 'Push Hook', system: true },
  tag_push: { flag: 'tag_push_events', trigger: 'tag_push_hooks', event: 'Tag Push Hook', system: true },
  issue: { flag: 'issues_events', trigger: 'issue_hooks', event: 'Issue Hook' },
  confidential_issue: { flag: 'confidential_issues_events', trigger: 'confidential_issue_hooks', event: 'Confidential Issue Hook' },
  note: { flag: 'note_events', trigger: 'note_hooks', event: 'Note Hook' },
  confidential_note: { flag: 'confidential_note_events', trigger: 'confidential_note_hooks', event: 'Confidential Note Hook' },
  merge_request: { flag: 'merge_requests_events', trigger: 'merge_request_hooks', event: 'Merge Request Hook', system: true },
  wiki_page: { flag: 'wiki_page_events', trigger: 'wiki_page_hooks', event: 'Wiki Page Hook' },
  release: { flag: 'releases_events', trigger: 'release_hooks', event: 'Release Hook' },
  pipeline: { flag: 'pipeline_events', trigger: 'pipeline_hooks', event: 'Pipeline Hook' },
  job: { flag: 'job_events', trigger: 'job_hooks', event: 'Job Hook' },
  repository_update: { flag: 'repository_update_events', trigger: 'repository_update_hooks', event: 'System Hook', system: true },
} satisfies Record<string, Route>
export type RouteName = keyof typeof ROUTES
export const routeOf = (name: RouteName): Route => ROUTES[name]

/** GitLab's push_events_branch_filter: a name or wildcard, a regular expression (RE2, as GitLab), or every branch. */
export function branchMatches(hook: Pick<HookRow, 'push_events_branch_filter' | 'branch_filter_strategy'>, branch: string): boolean {
  const filter = hook.push_events_branch_filter
  if (!filter || hook.branch_filter_strategy === 'all_branches') return true
  if (hook.branch_filter_strategy !== 'regex') return wildcardMatcher(filter)(branch)
  return userPattern(filter)?.test(branch) ?? false
}

/** The executable hooks of a project (and system hooks) that listen for a kind of delivery. */
function listening(app: AppDeps, projectId: number, names: RouteName[]): HookRow[] {
  const now = nowIso({ app })
  const executable = hooksForProject(app.db, projectId).filter((hook) => hookAlertStatus(hook, now) === 'executable')
  return executable.filter((hook) => names.some((n) => listensTo(hook, n)))
}

/** Sends a payload to each hook whose switch for it is on. */
function fanOut(app: AppDeps, hooks: HookRow[], name: RouteName, payload: unknown, accept: (hook: HookRow) => boolean = () => true) {
  const route = ROUTES[name] as Route
  const idempotencyKey = randomUUID()
  for (const hook of listeningTo(hooks, name)) {
    if (!accept(hook)) continue
    const system = hook.type === 'SystemHook'
    deliver(app, hook, { trigger: system ? 'system_hooks' : route.trigger, event: system ? 'System Hook' : route.event, payload, idempotencyKey })
  }
}

/** Project hooks never hear repository updates; system hooks hear only the routes marked for them. */
function listensTo(hook: HookRow, name: RouteName): boolean {
  const on = (JSON.parse(hook.events) as Record<string, boolean>)[ROUTES[name].flag] === true
  return on && (hook.type === 'SystemHook' ? (ROUTES[name] as Route).system === true : name !== 'repository_update')
}
const listeningTo = (hooks: HookRow[], name: RouteName) => hooks.filter((hook) => listensTo(hook, name))

const EVENT_ROUTES: Record<WebhookEvent['kind'], RouteName[]> = {
  issue: ['issue', 'confidential_issue'], note: ['note', 'confidential_note'], merge_request: ['merge_request'], wiki_page: ['wiki_page'],
  release: ['release'],
}

async function onEvent(app: AppDeps, e: HookEvent) {
  if (e.kind === 'system') return toSystemHooks(app, e.payload)
  if (isFeedEvent(e)) return
  // Payloads cost queries (and git reads for pushes): none is built while no hook listens.
  const hooks = listening(app, e.projectId, EVENT_ROUTES[e.kind])
  if (!hooks.length) return
  const built = await buildPayload(app, e)
  if (!built) return
  const name: RouteName = e.kind === 'issue' ? (built.confidential ? 'confidential_issue' : 'issue')
    : e.kind === 'note' ? (built.confidential ? 'confidential_note' : 'note') : e.kind
  fanOut(app, hooks, name, built.payload)
}

/** Instance events go to every executable system hook, whatever its switches. */
function toSystemHooks(app: AppDeps, payload: Record<string, unknown>) {
  const now = nowIso({ app })
  const idempotencyKey = randomUUID()
  for (const hook of systemHooks(app.db)) {
    if (hookAlertStatus(hook, now) === 'executable') deliver(app, hook, { trigger: 'system_hooks', event: 'System Hook', payload, idempotencyKey })
  }
}

const branchOf = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null)

function repositoryUpdate(app: AppDeps, p: ProjectView, e: PushEvent) {
  return {
    event_name: 'repository_update', user_id: e.user.id, user_name: e.user.name, user_email: '[REDACTED]', user_avatar: hookAvatarUrl(app, e.user),
    project_id: p.id, project: hookProject(app, p), changes: e.changes.map((c: RefChange) => ({ before: c.before ?? ZERO_SHA, after: c.after ?? ZERO_SHA, ref: c.ref })),
    refs: e.changes.map((c) => c.ref),
  }
}

async function onPush(app: AppDeps, e: PushEvent) {
  const hooks = listening(app, e.project.id, ['push', 'tag_push', 'repository_update'])
  if (!hooks.length) return
  for (const change of e.changes) {
    const branch = branchOf(change.ref)
    const name: RouteName | null = branch ? 'push' : change.ref.startsWith('refs/tags/') ? 'tag_push' : null
    const accept = (h: HookRow) => branch === null || branchMatches(h, branch)
    if (!name || !listeningTo(hooks, name).some(accept)) continue
    fanOut(app, hooks, name, await pushPayload(app, e.project, e.user, change), accept)
  }
  fanOut(app, hooks, 'repository_update', repositoryUpdate(app, e.project, e))
}

async function onCi<T>(app: AppDeps, projectId: number, name: 'pipeline' | 'job', row: T, build: (a: AppDeps, p: ProjectView, row: T) => Promise<unknown>) {
  const hooks = listening(app, projectId, [name])
  const p = hooks.length ? findProjectById(app.db, projectId) : undefined
  if (p) fanOut(app, hooks, name, await build(app, p, row))
}

/** A runner took a job: its Job Hook (running), and the Pipeline Hook when it is the job that started the pipeline. */
async function onJobStart(app: AppDeps, job: JobRow) {
  await onCi(app, job.project_id, 'job', job, jobPayload)
  const pipeline = findPipelineById(app.db, job.pipeline_id)
  if (pipeline?.status === 'running' && pipeline.started_at === job.started_at) await onCi(app, job.project_id, 'pipeline', pipeline, pipelinePayload)
}

/** Starts delivering this server's events; the returned stop cancels retries and waits for what is in flight. */
export function watchWebhooks(app: AppDeps): () => Promise<void> {
  const offs = [
    onHookEvent(app, onEvent),
    onRefsMoved(app, onPush),
    onPipelineFinished(app, (a, pl) => onCi(a, pl.project_id, 'pipeline', pl, pipelinePayload)),
    onJobFinished(app, (a, job) => onCi(a, job.project_id, 'job', job, jobPayload)),
    onJobStarted(app, (a, job) => onJobStart(a, job)),
  ]
  return async () => {
    for (const off of offs) off()
    await stopDeliveries(app)
  }
}
