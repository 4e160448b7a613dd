// Pipeline trigger tokens: Maintainers manage them; a trigger token runs a `trigger` pipeline as its owner, and a
// running job's token runs a multi-project (`pipeline`) one as the job's user (Ci::PipelineTriggerService).
import { randomBytes } from 'node:crypto'
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import { sha256 } from '../../../core/ids.js'
import { shortTriggerToken, TRIGGER_TOKEN_PREFIX } from '../../../core/token-prefixes.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { createPipeline, pipelineError, type PipelineVariableInput } from '../../ci/lifecycle.js'
import { canReadProject, DEVELOPER, effectiveProjectLevel, MAINTAINER, requireProjectLevel } from '../../policy.js'
import { findRunningJobByTokenHash } from '../../store/ci-job-lists.js'
import { jobTokenAllowed } from '../../store/ci-job-token-scope.js'
import * as store from '../../store/ci-triggers.js'
import { transaction } from '../../store/db.js'
import { findProjectById, findProjectByPath, type ProjectView } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { parseIdOrPath } from '../../../contract/params.js'
import { mayRunPipelineOn } from './pipelines.js'
import { findVisibleProject } from '../projects/projects.js'

const KEY = /^[a-zA-Z0-9_]+$/

const triggerNotFound = () => notFound('Trigger')

/** The project, for a Maintainer (403 below that; 404 to who may not see it). */
export function triggersProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  requireProjectLevel(ctx, project, MAINTAINER)
  return project
}

export const listTriggers = (ctx: RequestContext, p: ProjectView) => store.listTriggers(ctx.app.db, p.id, ctx.page.limit, ctx.page.offset)

export function findTrigger(ctx: RequestContext, p: ProjectView, id: number) {
  const row = store.findProjectTrigger(ctx.app.db, p.id, id)
  if (!row) throw triggerNotFound()
  return row
}

/** The new row and its token, which is `glptt-` and 40 hex digits as GitLab's. */
export function createTrigger(ctx: RequestContext, p: ProjectView, input: { description: string; expires_at?: string }) {
  const token = TRIGGER_TOKEN_PREFIX + randomBytes(20).toString('hex')
  const now = nowIso(ctx)
  return store.insertTrigger(ctx.app.db, {
    project_id: p.id, owner_id: ctx.user!.id, description: input.description, token, token_hash: sha256(token),
    created_at: now, updated_at: now, expires_at: input.expires_at === undefined ? null : new Date(input.expires_at).toISOString(),
  })
}

/** Only the owner may change a trigger (Ci::PipelineTriggers::UpdateService, :admin_trigger). */
export function updateTrigger(ctx: RequestContext, p: ProjectView, id: number, description: string | undefined) {
  const row = findTrigger(ctx, p, id)
  if (row.owner_id !== ctx.user?.id) throw forbidden('The current user is not authorized to update the pipeline trigger token')
  return description === undefined ? row : store.updateTriggerDescription(ctx.app.db, row.id, description, nowIso(ctx))
}

export function deleteTrigger(ctx: RequestContext, p: ProjectView, id: number) {
  store.deleteTrigger(ctx.app.db, findTrigger(ctx, p, id).id)
}

export const triggerOwner = (ctx: RequestContext, row: store.TriggerRow): UserRow | null =>
  row.owner_id === null ? null : findUserById(ctx.app.db, row.owner_id) ?? null

/** GitLab's check of the `variables` hash: string keys and values only. */
function pipelineVariables(raw: unknown): PipelineVariableInput[] {
  if (raw === undefined || raw === null || raw === '') return []
  const entries = typeof raw === 'object' && !Array.isArray(raw) ? Object.entries(raw) : null
  if (!entries || !entries.every(([, v]) => typeof v === 'string')) {
    throw new CollabError('BAD_VARIABLES', 'variables needs to be a map of key-valued strings', { status: 400 })
  }
  const bad = entries.find(([k]) => !KEY.test(k) || k.length > 255)
  if (bad) throw pipelineError(`Variables key can contain only letters, digits and '_'.`)
  return entries.map(([key, value]) => ({ key, value: value as string }))
}

/** Any project by id or path: a token, not the caller, decides who may run its pipelines. */
function projectOf(ctx: RequestContext, id: string): ProjectView {
  const key = parseIdOrPath(id)
  const p = 'id' in key ? findProjectById(ctx.app.db, key.id) : findProjectByPath(ctx.app.db, key.path)
  if (!p) throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  return p
}

/** Chain::Validate::Abilities for the user the pipeline runs as. */
async function requireMayRun(ctx: RequestContext, as: UserRow, p: ProjectView, ref: string) {
  const caller = { ...ctx, user: as, token: null, scopes: null, sudoer: null, job: null }
  if (!p.jobs_enabled || p.archived || effectiveProjectLevel(caller, p) < DEVELOPER) throw pipelineError('Insufficient permissions to create a new pipeline')
  if (!(await mayRunPipelineOn(caller, p, ref))) {
    throw pipelineError(`You do not have sufficient permission to run a pipeline on '${ref}'. Please select a different branch or contact your administrator for assistance.`)
  }
}

export interface TriggerInput { token: string; ref: string; variables?: unknown }

/** What a triggered job finds in its TRIGGER_PAYLOAD file: the request, minus the token, as GitLab passes it on. */
const payloadOf = (id: string, input: TriggerInput, variables: PipelineVariableInput[]): PipelineVariableInput => ({
  key: 'TRIGGER_PAYLOAD', variable_type: 'file',
  value: JSON.stringify({ ref: input.ref, id, variables: Object.fromEntries(variables.map((v) => [v.key, v.value])) }),
})

async function run(ctx: RequestContext, project: ProjectView, user: UserRow, source: 'trigger' | 'pipeline', ref: string, variables: PipelineVariableInput[]) {
  await requireMayRun(ctx, user, project, ref)
  const row = await createPipeline(ctx.app, { project, ref, source, user, variables })
  // Only pushes make no pipeline without saying why; these sources answer their errors.
  if (!row) throw pipelineError('Pipeline not created')
  return { row, project }
}

/**
 * POST /projects/:id/trigger/pipeline; 404 for a token that is no trigger of this project and no running job's, or a
 * job's whose project this one's job token scope does not allow.
 */
export async function triggerPipeline(ctx: RequestContext, id: string, input: TriggerInput) {
  const given = pipelineVariables(input.variables)
  const variables = [...given, payloadOf(id, input, given)]
  const project = projectOf(ctx, id)
  const hash = sha256(input.token)
  const trigger = store.findTriggerByHash(ctx.app.db, hash)
  const now = nowIso(ctx)
  if (trigger && trigger.project_id === project.id && (trigger.expires_at === null || trigger.expires_at > now)) {
    const owner = triggerOwner(ctx, trigger)
    if (!owner || owner.state !== 'active') throw pipelineError('Insufficient permissions to create a new pipeline')
    const made = await run(ctx, project, owner, 'trigger', input.ref, variables)
    transaction(ctx.app.db, () => {
      store.recordTriggeredPipeline(ctx.app.db, made.row.id, trigger.id, shortTriggerToken(trigger.token))
      store.markTriggerUsed(ctx.app.db, trigger.id, now)
    })
    return made
  }
  const job = trigger ? undefined : findRunningJobByTokenHash(ctx.app.db, hash)
  const user = job?.user_id != null ? findUserById(ctx.app.db, job.user_id) : undefined
  // A job token reads another project, and so runs its pipelines, only where that project's inbound scope lets the
  // job's project in (Ci::AuthJobFinder scopes the user): otherwise GitLab's "cannot read it", 404.
  if (!job || !user || user.state !== 'active' || !jobTokenAllowed(ctx.app.db, job.project_id, project.id) || !canReadProject({ ...ctx, user }, project)) {
    throw new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
  }
  return run(ctx, project, user, 'pipeline', input.ref, variables)
}
