// Creating a pipeline: the config at the commit, the plan, the pipeline and job rows, then the first processing.
// Job and pipeline actions (retry, cancel, play, delete) are in lifecycle-actions.ts.
import { CollabError } from '../../core/errors.js'
import type { AppDeps } from '../context.js'
import { entryAt, readBlob, readCommitInfo, readRef, readTreeItems, resolveCommit } from '../git/read.js'
import { repositoryDir } from '../git/repository.js'
import { transaction } from '../store/db.js'
import { allocateIid } from '../store/issues.js'
import { insertJob } from '../store/ci-jobs.js'
import { insertPipeline, insertPipelineVariables, updatePipeline, type PipelineRow } from '../store/pipelines.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { linkJobEnvironment } from './environments.js'
import { ciBaseUrl } from './lifecycle-events.js'
import { FILTERED_BY_WORKFLOW, NO_JOBS, planPipeline } from './plan.js'
import type { JobSpec, PipelinePlan, PipelineSource, PlanContext } from './plan-types.js'
import { processPipeline } from './scheduler.js'
import { pipelinePredefined, projectVariablesFor, refProtected, type CommitFacts, type MergeRequestFacts } from './variables.js'

export { cancelJob, cancelPipeline, deletePipeline, playJob, retryJob, retryPipeline } from './lifecycle-actions.js'
export { onJobFinished, onPipelineFinished } from './lifecycle-events.js'

export interface PipelineVariableInput { key: string; value: string; variable_type?: string }

export interface CreatePipelineInput {
  project: ProjectView
  ref: string
  /** The commit; the ref's head when absent. */
  sha?: string
  /** Whether `ref` is a tag; looked up (branch first) when absent. */
  tag?: boolean
  source: PipelineSource
  user: UserRow | null
  variables?: PipelineVariableInput[]
  mergeRequest?: MergeRequestFacts
  beforeSha?: string | null
  changedPaths?: string[] | null
}

/** GitLab's pipeline creation errors, `{"message":{"base":[…]}}`. */
export const pipelineError = (message: string) =>
  new CollabError('PIPELINE_NOT_CREATED', message, { status: 400, body: { message: { base: [message] } } })

const MISSING_CONFIG = 'Missing .gitlab-ci.yml file'

/** Sources whose errors answer the caller instead of recording a failed pipeline (`pipeline`: a job token's trigger call). */
const ANSWERS_ERRORS = new Set<string>(['api', 'web', 'trigger', 'schedule', 'pipeline'])

async function resolveRef(gitdir: string, input: CreatePipelineInput): Promise<{ sha: string; tag: boolean } | null> {
  const kinds = input.tag === undefined ? [false, true] : [input.tag]
  // A merge request pipeline's ref (refs/merge-requests/<iid>/head) is read as it is; any other ref names a branch or tag.
  if (input.mergeRequest && input.ref.startsWith('refs/')) {
    const head = await readRef(gitdir, input.ref).catch(() => null)
    const sha = head && (input.sha ?? (await resolveCommit(gitdir, head)))
    return sha ? { sha, tag: false } : null
  }
  for (const tag of kinds) {
    const head = await readRef(gitdir, `refs/${tag ? 'tags' : 'heads'}/${input.ref}`).catch(() => null)
    if (!head) continue
    const sha = input.sha ?? (await resolveCommit(gitdir, head))
    if (sha) return { sha, tag }
  }
  return null
}

/** The config file of a commit; a `path@group/project` config path names another project, which we do not follow. */
async function readFileAt(gitdir: string, sha: string, path: string): Promise<string | null> {
  const entry = await entryAt(gitdir, sha, path).catch(() => null)
  if (!entry || entry.type !== 'blob') return null
  return (await readBlob(gitdir, entry.oid)).toString('utf8')
}

async function listFilesAt(gitdir: string, sha: string): Promise<string[]> {
  const root = await entryAt(gitdir, sha, '')
  if (!root) return []
  return (await readTreeItems(gitdir, root.oid, '', true)).filter((i) => i.type === 'blob').map((i) => i.path)
}

async function commitFacts(gitdir: string, sha: string): Promise<CommitFacts & { committedAt: string }> {
  const c = await readCommitInfo(gitdir, sha)
  return { message: c.message, timestamp: c.committedDate, author: `${c.authorName} <${c.authorEmail}>`, committedAt: c.committedDate }
}

type Outcome = { kind: 'plan'; plan: PipelinePlan } | { kind: 'errors'; errors: string[] } | { kind: 'skipped' }

async function planFor(app: AppDeps, gitdir: string, input: CreatePipelineInput, ctx: PlanContext): Promise<Outcome> {
  const configPath = input.project.ci_config_path || '.gitlab-ci.yml'
  const text = await readFileAt(gitdir, ctx.sha, configPath)
  if (text === null) return { kind: 'errors', errors: [MISSING_CONFIG] }
  let result
  try {
    result = await planPipeline(text, ctx)
  } catch (err) {
    app.log.error('planning a pipeline failed', err)
    return { kind: 'errors', errors: [err instanceof Error ? err.message : String(err)] }
  }
  if (result.kind === 'skipped') return { kind: 'skipped' }
  if (result.kind === 'errors') return { kind: 'errors', errors: result.errors.length ? result.errors : ['Invalid configuration format'] }
  if (!result.plan.jobs.length) return { kind: 'errors', errors: [NO_JOBS] }
  return result
}

/**
 * Creates a pipeline, or answers null when nothing should run (workflow rules, no config on a push). Errors of an
 * API call throw 400 with GitLab's body; those of a push become a failed pipeline carrying `yaml_errors`.
 */
export async function createPipeline(app: AppDeps, input: CreatePipelineInput): Promise<PipelineRow | null> {
  const gitdir = repositoryDir(app.layout.repositories, input.project.id)
  const resolved = await resolveRef(gitdir, input)
  if (!resolved) throw pipelineError('Reference not found')
  const commit = await commitFacts(gitdir, resolved.sha).catch(() => null)
  if (!commit) throw pipelineError('Commit not found')
  const facts = {
    project: input.project, ref: input.ref, tag: resolved.tag, sha: resolved.sha, beforeSha: input.beforeSha ?? null,
    source: input.source, user: input.user, commit, mergeRequest: input.mergeRequest,
  }
  // Rules and workflow see predefined, then project, then pipeline variables, as jobs do.
  const variables: Record<string, string> = { ...pipelinePredefined(app, ciBaseUrl(app), facts) }
  for (const v of projectVariablesFor(app, input.project, refProtected(app, facts))) variables[v.key] = v.value
  for (const v of input.variables ?? []) variables[v.key] = v.value
  const ctx: PlanContext = {
    source: input.source, ref: input.ref, tag: resolved.tag, sha: resolved.sha, variables, changedPaths: input.changedPaths ?? null,
    readFile: (path) => readFileAt(gitdir, resolved.sha, path), listFiles: () => listFilesAt(gitdir, resolved.sha),
  }
  const outcome = await planFor(app, gitdir, input, ctx)
  if (outcome.kind === 'skipped') {
    if (ANSWERS_ERRORS.has(input.source)) throw pipelineError(FILTERED_BY_WORKFLOW)
    return null
  }
  if (outcome.kind === 'errors') {
    if (ANSWERS_ERRORS.has(input.source)) throw pipelineError(outcome.errors.join(', '))
    // A push without config, or whose rules leave no job, is no pipeline at all; a broken config is a failed
    // pipeline that says why.
    if (outcome.errors[0] === MISSING_CONFIG || outcome.errors[0] === NO_JOBS) return null
  }
  const row = insertRows(app, input, { ...resolved, committedAt: commit.committedAt }, outcome)
  return outcome.kind === 'plan' ? (processPipeline(app, row.id) ?? row) : row
}

function insertRows(app: AppDeps, input: CreatePipelineInput, at: { sha: string; tag: boolean; committedAt: string }, outcome: Outcome): PipelineRow {
  const now = app.clock.now().toISOString()
  return transaction(app.db, () => {
    const failed = outcome.kind === 'errors'
    const p = insertPipeline(app.db, {
      project_id: input.project.id, iid: allocateIid(app.db, input.project.id, 'pipelines'), sha: at.sha,
      before_sha: input.beforeSha ?? null, ref: input.ref, tag: at.tag ? 1 : 0, source: input.source,
      status: failed ? 'failed' : 'created', yaml_errors: failed ? outcome.errors.join(', ') : null,
      stages: JSON.stringify(outcome.kind === 'plan' ? outcome.plan.stages : []), user_id: input.user?.id ?? null,
      merge_request_id: input.mergeRequest?.id ?? null, created_at: now, updated_at: now, committed_at: at.committedAt,
    })
    if (failed) {
      updatePipeline(app.db, p.id, { finished_at: now })
      return { ...p, finished_at: now }
    }
    insertPipelineVariables(app.db, p.id, input.variables ?? [])
    for (const spec of outcome.kind === 'plan' ? outcome.plan.jobs : []) insertPlannedJob(app, p, spec, input.user, now)
    return p
  })
}

export function insertPlannedJob(app: AppDeps, p: PipelineRow, spec: JobSpec, user: UserRow | null, now: string, retryCount = 0) {
  const job = insertJob(app.db, {
    project_id: p.project_id, pipeline_id: p.id, name: spec.name, stage: spec.stage, stage_idx: spec.stageIdx, status: 'created',
    when_: spec.when, allow_failure: spec.allowFailure ? 1 : 0, spec: JSON.stringify(spec), ref: p.ref, tag: p.tag, sha: p.sha,
    user_id: user?.id ?? null, created_at: now, updated_at: now, retry_count: retryCount,
  })
  linkJobEnvironment(app, job, spec)
  return job
}
