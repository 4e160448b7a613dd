// POST …/hooks/:hook_id/test/:trigger and POST /hooks/:hook_id: a sample event from the project's newest data, sent at
// once; 201 when the receiver answers 2xx, else GitLab's 422 with the receiver's body or the connection error.
import { randomUUID } from 'node:crypto'
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { readBranch } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { findJobById } from '../../store/ci-jobs.js'
import * as store from '../../store/hooks.js'
import type { NoteableKind } from '../../store/noteables.js'
import { findPipelineById } from '../../store/pipelines.js'
import type { ProjectView } from '../../store/projects.js'
import { routeOf, type RouteName } from './hooks-dispatch.js'
import { attemptDelivery, type HookMessage } from './webhook-delivery.js'
import { buildPayload } from './webhook-payloads.js'
import { jobPayload, pipelinePayload, pushPayload } from './webhook-payloads-ci.js'
import { newestReleasePayload } from '../releases/releases.js'
import { listPages } from '../wikis/wikis.js'

const unavailable = (message: string) => new CollabError('HOOK_TEST_UNAVAILABLE', message, { status: 422 })

type Sample = { route: RouteName; payload: unknown }

async function pushSample(ctx: RequestContext, p: ProjectView, tag: boolean): Promise<Sample> {
  const head = p.default_branch ? await readBranch(repositoryDir(ctx.app.layout.repositories, p.id), p.default_branch) : null
  if (!head) throw unavailable('Ensure the project has at least one commit.')
  // GitLab tests both switches with the same sample, a push to the default branch; only the header differs.
  const payload = await pushPayload(ctx.app, p, ctx.user!, { ref: `refs/heads/${p.default_branch}`, before: null, after: head.oid })
  return { route: tag ? 'tag_push' : 'push', payload }
}

async function rowSample(ctx: RequestContext, p: ProjectView, trigger: string): Promise<Sample> {
  const db = ctx.app.db
  const userId = ctx.user!.id
  const base = { projectId: p.id, userId }
  if (trigger === 'issues_events' || trigger === 'confidential_issues_events') {
    const row = store.latestOf(db, 'issue', p.id)
    if (!row) throw unavailable('Ensure the project has issues.')
    const built = (await buildPayload(ctx.app, { kind: 'issue', action: 'open', issueId: row.id, ...base }))!
    return { route: trigger === 'issues_events' ? 'issue' : 'confidential_issue', payload: built.payload }
  }
  if (trigger === 'note_events' || trigger === 'confidential_note_events') {
    const row = store.latestOf(db, 'note', p.id)
    if (!row) throw unavailable('Ensure the project has notes.')
    const built = (await buildPayload(ctx.app, { kind: 'note', noteId: row.id, noteableId: row.noteable_id!, noteableKind: row.kind as NoteableKind, ...base }))!
    return { route: trigger === 'note_events' ? 'note' : 'confidential_note', payload: built.payload }
  }
  const row = store.latestOf(db, 'mergeRequest', p.id)
  if (!row) throw unavailable('Ensure the project has merge requests.')
  return { route: 'merge_request', payload: (await buildPayload(ctx.app, { kind: 'merge_request', action: 'open', mergeRequestId: row.id, ...base }))!.payload }
}

async function ciSample(ctx: RequestContext, p: ProjectView, trigger: 'pipeline_events' | 'job_events'): Promise<Sample> {
  if (trigger === 'pipeline_events') {
    const row = store.latestOf(ctx.app.db, 'pipeline', p.id)
    if (!row) throw unavailable('Ensure the project has CI pipelines.')
    return { route: 'pipeline', payload: await pipelinePayload(ctx.app, p, findPipelineById(ctx.app.db, row.id)!) }
  }
  const row = store.latestOf(ctx.app.db, 'job', p.id)
  if (!row) throw unavailable('Ensure the project has CI jobs.')
  return { route: 'job', payload: await jobPayload(ctx.app, p, findJobById(ctx.app.db, row.id)!) }
}

async function wikiSample(ctx: RequestContext, p: ProjectView): Promise<Sample> {
  const pages = p.wiki_enabled ? await listPages(ctx, p, true).catch(() => []) : []
  const page = pages[0]
  if (!page) throw unavailable('Ensure the wiki is enabled and has pages.')
  const built = (await buildPayload(ctx.app, {
    kind: 'wiki_page', action: 'create', projectId: p.id, userId: ctx.user!.id,
    page: { title: page.title, slug: page.slug, format: page.format, content: page.content ?? '', message: `Create ${page.title}` },
  }))!
  return { route: 'wiki_page', payload: built.payload }
}

/** TestHooks::ProjectService#releases_events_data: the project's newest release, as created. */
async function releaseSample(ctx: RequestContext, p: ProjectView): Promise<Sample> {
  const payload = await newestReleasePayload(ctx, p)
  if (!payload) throw unavailable('Ensure the project has releases.')
  return { route: 'release', payload }
}

async function sampleFor(ctx: RequestContext, p: ProjectView, trigger: string): Promise<Sample> {
  switch (trigger) {
    case 'push_events': return pushSample(ctx, p, false)
    case 'tag_push_events': return pushSample(ctx, p, true)
    case 'pipeline_events': case 'job_events': return ciSample(ctx, p, trigger)
    case 'wiki_page_events': return wikiSample(ctx, p)
    case 'releases_events': return releaseSample(ctx, p)
    case 'issues_events': case 'confidential_issues_events': case 'note_events': case 'confidential_note_events': case 'merge_requests_events':
      return rowSample(ctx, p, trigger)
    default: throw unavailable('Testing not available for this hook')
  }
}

export async function testProjectHook(ctx: RequestContext, p: ProjectView, hook: store.HookRow, trigger: string) {
  const sample = await sampleFor(ctx, p, trigger)
  const route = routeOf(sample.route)
  await sendNow(ctx, hook, { trigger: route.trigger, event: route.event, payload: sample.payload, idempotencyKey: randomUUID() })
}

/** GitLab's fixed sample for system hooks. */
export const SYSTEM_HOOK_SAMPLE = {
  event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com',
}

export async function testSystemHook(ctx: RequestContext, hook: store.HookRow) {
  // GitLab answers with the sample whatever the receiver said.
  await attemptDelivery(ctx.app, hook, { trigger: 'system_hooks', event: 'System Hook', payload: SYSTEM_HOOK_SAMPLE, idempotencyKey: randomUUID() })
  return SYSTEM_HOOK_SAMPLE
}

async function sendNow(ctx: RequestContext, hook: store.HookRow, msg: HookMessage) {
  const outcome = await attemptDelivery(ctx.app, hook, msg)
  if (!outcome.ok) throw new CollabError('HOOK_TEST_FAILED', outcome.body || outcome.status, { status: 422 })
  return outcome
}

/** Sends a logged request again, as it was (GitLab's resend), and answers the receiver's status. */
export async function resendHookLog(ctx: RequestContext, hook: store.HookRow, log: store.HookLogRow) {
  const sent = JSON.parse(log.request_headers) as Record<string, string>
  // The same event again: receivers that saw it drop it by its key.
  const msg = { trigger: log.trigger, event: sent['X-Gitlab-Event'] ?? 'System Hook', payload: JSON.parse(log.request_data), idempotencyKey: sent['Idempotency-Key'] ?? randomUUID() }
  const outcome = await attemptDelivery(ctx.app, hook, msg)
  return { response_status: outcome.status }
}
