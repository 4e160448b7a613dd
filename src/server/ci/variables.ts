// The variables a job sees (compat-notes §6): GitLab's predefined CI_* set, then instance, group and project CI
// variables, pipeline variables and the job's own, with $VAR and ${VAR} expanded as far as GitLab's server expands
// them (variable-expansion.ts); the runner sets CI_PROJECT_DIR and CI_BUILDS_DIR and expands the rest.
import { GITLAB_COMPAT_VERSION } from '../../core/version.js'
import { wildcardMatch } from '../../core/wildcard.js'
import type { JobVariable } from './runner/protocol.js'
import type { AppDeps } from '../context.js'
import type { JobRow } from '../store/ci-jobs.js'
import { inheritedVariables } from '../store/ci-group-variables.js'
import { triggerShortToken } from '../store/ci-triggers.js'
import { allVariables, type CiVariableFields } from '../store/ci-variables.js'
import type { PipelineRow, PipelineVariableRow } from '../store/pipelines.js'
import type { ProjectView } from '../store/projects.js'
import { isProtectedBranch, isProtectedTag } from '../store/protected-refs.js'
import type { UserRow } from '../store/users.js'
import type { JobSpec } from './plan-types.js'
import { environmentVariables } from './environments.js'
import { runnerJobVariables, type VariableDefinition } from './variable-expansion.js'

export const ZERO_SHA = '0000000000000000000000000000000000000000'

/** GitLab's slug: lower case, runs outside [0-9a-z] become `-`, at most 63 bytes, no `-` at either end. */
export const slugify = (value: string) => value.toLowerCase().replace(/[^0-9a-z]+/g, '-').slice(0, 63).replace(/^-+|-+$/g, '')

export interface CommitFacts { message: string; timestamp: string; author: string }

export interface PipelineFacts {
  project: ProjectView
  ref: string
  tag: boolean
  sha: string
  beforeSha: string | null
  source: string
  user: UserRow | null
  commit: CommitFacts | null
  /** Known once the pipeline row exists; rules see the rest before. */
  pipeline?: Pick<PipelineRow, 'id' | 'iid' | 'created_at'>
  mergeRequest?: MergeRequestFacts
}

export interface MergeRequestFacts {
  id: number; iid: number; title: string; sourceBranch: string; targetBranch: string; diffBaseSha: string | null
  sourceProjectId: number; targetProjectId: number; sourceProjectPath: string; targetProjectPath: string; labels: string[]
  sourceBranchProtected: boolean; targetBranchProtected: boolean
  draft: boolean; description: string; assignees: string[]; milestone: string | null; squash: boolean
}

/** GitLab cuts CI_MERGE_REQUEST_DESCRIPTION at this many characters and says so in …_IS_TRUNCATED. */
const DESCRIPTION_CAP = 2700

/**
 * Whether a pipeline runs for a protected ref, which opens protected variables to it. A merge request pipeline is
 * protected only when it runs in the project of both its branches and both are protected (GitLab's
 * protect_merge_request_pipelines, on for new projects); a fork's never is.
 */
export function refProtected(app: AppDeps, f: Pick<PipelineFacts, 'project' | 'ref' | 'tag' | 'mergeRequest'>): boolean {
  const mr = f.mergeRequest
  if (mr) return mr.sourceProjectId === mr.targetProjectId && mr.sourceBranchProtected && mr.targetBranchProtected
  return (f.tag ? isProtectedTag : isProtectedBranch)(app.db, f.project.id, f.ref)
}

/** `http://host:port` the server listens on, for CI_SERVER_URL and clone URLs. */
function serverParts(baseUrl: string) {
  const u = new URL(baseUrl)
  const port = u.port || (u.protocol === 'https:' ? '443' : '80')
  return { url: baseUrl.replace(/\/+$/, ''), host: u.hostname.replace(/^\[|\]$/g, ''), port, protocol: u.protocol.replace(':', '') }
}

const projectPath = (p: ProjectView) => `${p.ns_full_path}/${p.path}`

function serverVariables(baseUrl: string): Record<string, string> {
  const s = serverParts(baseUrl)
  const [major, minor, patch] = GITLAB_COMPAT_VERSION.split('.')
  return {
    CI: 'true', GITLAB_CI: 'true', CI_SERVER: 'yes',
    CI_SERVER_URL: s.url, CI_SERVER_HOST: s.host, CI_SERVER_PORT: s.port, CI_SERVER_PROTOCOL: s.protocol, CI_SERVER_FQDN: s.host,
    CI_SERVER_NAME: 'GitLab', CI_SERVER_VERSION: GITLAB_COMPAT_VERSION,
    CI_SERVER_VERSION_MAJOR: major, CI_SERVER_VERSION_MINOR: minor, CI_SERVER_VERSION_PATCH: patch,
    CI_API_V4_URL: `${s.url}/api/v4`,
  }
}

function projectVariables(baseUrl: string, p: ProjectView): Record<string, string> {
  const path = projectPath(p)
  return {
    CI_PROJECT_ID: String(p.id), CI_PROJECT_NAME: p.path, CI_PROJECT_PATH: path, CI_PROJECT_PATH_SLUG: slugify(path),
    CI_PROJECT_NAMESPACE: p.ns_full_path, CI_PROJECT_ROOT_NAMESPACE: p.ns_full_path.split('/')[0],
    CI_PROJECT_URL: `${baseUrl}/${path}`, CI_PROJECT_TITLE: p.name, CI_PROJECT_VISIBILITY: p.visibility,
    CI_DEFAULT_BRANCH: p.default_branch ?? '', CI_CONFIG_PATH: p.ci_config_path || '.gitlab-ci.yml',
  }
}

function commitVariables(app: AppDeps, f: PipelineFacts): Record<string, string> {
  const message = f.commit?.message ?? ''
  const [title, ...rest] = message.split('\n')
  // A merge request pipeline runs on refs/merge-requests/<iid>/head, but its jobs name the source branch.
  const refName = f.mergeRequest ? f.mergeRequest.sourceBranch : f.ref
  const out: Record<string, string> = {
    CI_COMMIT_SHA: f.sha, CI_COMMIT_SHORT_SHA: f.sha.slice(0, 8), CI_COMMIT_REF_NAME: refName, CI_COMMIT_REF_SLUG: slugify(refName),
    CI_COMMIT_BEFORE_SHA: f.beforeSha ?? ZERO_SHA, CI_COMMIT_MESSAGE: message, CI_COMMIT_TITLE: title,
    CI_COMMIT_DESCRIPTION: rest.join('\n').replace(/^\n+/, ''), CI_COMMIT_TIMESTAMP: f.commit?.timestamp ?? '',
    CI_COMMIT_AUTHOR: f.commit?.author ?? '',
    CI_COMMIT_REF_PROTECTED: String(refProtected(app, f)),
  }
  if (f.tag) out.CI_COMMIT_TAG = f.ref
  else if (!f.mergeRequest) out.CI_COMMIT_BRANCH = f.ref
  return out
}

function mergeRequestVariables(baseUrl: string, mr: MergeRequestFacts): Record<string, string> {
  const truncated = mr.description.length > DESCRIPTION_CAP
  // Assignees, milestone and labels are left out when the merge request has none, as GitLab does.
  const optional: Record<string, string> = {}
  if (mr.assignees.length) optional.CI_MERGE_REQUEST_ASSIGNEES = mr.assignees.join(',')
  if (mr.milestone !== null) optional.CI_MERGE_REQUEST_MILESTONE = mr.milestone
  if (mr.labels.length) optional.CI_MERGE_REQUEST_LABELS = mr.labels.join(',')
  return {
    ...optional, CI_MERGE_REQUEST_DRAFT: String(mr.draft), CI_MERGE_REQUEST_SQUASH_ON_MERGE: String(mr.squash),
    CI_MERGE_REQUEST_DESCRIPTION: mr.description.slice(0, DESCRIPTION_CAP), CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED: String(truncated),
    CI_MERGE_REQUEST_ID: String(mr.id), CI_MERGE_REQUEST_IID: String(mr.iid), CI_MERGE_REQUEST_TITLE: mr.title,
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: mr.sourceBranch, CI_MERGE_REQUEST_TARGET_BRANCH_NAME: mr.targetBranch,
    // Both heads are only known to merged results pipelines: GitLab leaves them empty in detached ones.
    CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '', CI_MERGE_REQUEST_TARGET_BRANCH_SHA: '', CI_MERGE_REQUEST_DIFF_BASE_SHA: mr.diffBaseSha ?? '',
    CI_MERGE_REQUEST_SOURCE_BRANCH_PROTECTED: String(mr.sourceBranchProtected), CI_MERGE_REQUEST_TARGET_BRANCH_PROTECTED: String(mr.targetBranchProtected),
    CI_MERGE_REQUEST_PROJECT_ID: String(mr.targetProjectId),
    // The target's, also in a fork's pipeline, which runs in the fork.
    CI_MERGE_REQUEST_PROJECT_PATH: mr.targetProjectPath, CI_MERGE_REQUEST_PROJECT_URL: `${baseUrl}/${mr.targetProjectPath}`,
    CI_MERGE_REQUEST_SOURCE_PROJECT_ID: String(mr.sourceProjectId), CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: mr.sourceProjectPath,
    CI_MERGE_REQUEST_SOURCE_PROJECT_URL: `${baseUrl}/${mr.sourceProjectPath}`,
    CI_MERGE_REQUEST_EVENT_TYPE: 'detached', CI_MERGE_REQUEST_REF_PATH: `refs/merge-requests/${mr.iid}/head`,
  }
}

/** What rules and workflow see, and the pipeline-wide part of every job's variables. */
export function pipelinePredefined(app: AppDeps, baseUrl: string, f: PipelineFacts): Record<string, string> {
  const out: Record<string, string> = {
    ...serverVariables(baseUrl), ...projectVariables(baseUrl, f.project), ...commitVariables(app, f),
    CI_PIPELINE_SOURCE: f.source,
  }
  if (f.source === 'trigger') out.CI_PIPELINE_TRIGGERED = 'true'
  if (f.pipeline) {
    const short = triggerShortToken(app.db, f.pipeline.id)
    if (short !== undefined) out.CI_TRIGGER_SHORT_TOKEN = short
    Object.assign(out, {
      CI_PIPELINE_ID: String(f.pipeline.id), CI_PIPELINE_IID: String(f.pipeline.iid),
      CI_PIPELINE_URL: `${baseUrl}/${projectPath(f.project)}/-/pipelines/${f.pipeline.id}`, CI_PIPELINE_CREATED_AT: f.pipeline.created_at.replace(/\.\d{3}Z$/, 'Z'),
    })
  }
  if (f.user) {
    Object.assign(out, { GITLAB_USER_ID: String(f.user.id), GITLAB_USER_LOGIN: f.user.username, GITLAB_USER_EMAIL: f.user.email, GITLAB_USER_NAME: f.user.name })
  }
  if (f.mergeRequest) Object.assign(out, mergeRequestVariables(baseUrl, f.mergeRequest))
  return out
}

/**
 * How a variable's environment scope matches a job's environment (HasEnvironmentScope.on_environment): `*` first, then
 * a scope whose `*`s match the name, then the name itself, so the closest scope wins; -1 when it does not apply.
 */
function scopeRank(scope: string, environment: string | null): number {
  if (scope === '*') return 0
  if (environment === null) return -1
  if (scope === environment) return 2
  return wildcardMatch(scope, environment) ? 1 : -1
}

function onEnvironment<T extends { environment_scope: string }>(list: T[], environment: string | null): T[] {
  return list.map((v) => [scopeRank(v.environment_scope, environment), v] as const).filter(([rank]) => rank >= 0)
    .sort((a, b) => a[0] - b[0]).map(([, v]) => v)
}

/**
 * The instance, group (farthest ancestor first) and project CI variables a pipeline sees, in the order later ones
 * win: protected ones only on a protected ref (refProtected), and those scoped to every environment (`*`) or, for a
 * job with one, to its environment.
 */
export function projectVariablesFor(app: AppDeps, project: ProjectView, protectedRef: boolean, environment: string | null = null): CiVariableFields[] {
  const inherited = inheritedVariables(app.db, project.ns_kind === 'group' ? project.namespace_id : null)
    .map((v) => ({ environment_scope: '*', ...v }))
  const open = (v: CiVariableFields) => !v.protected || protectedRef
  return [...onEnvironment(inherited.filter(open), environment), ...onEnvironment(allVariables(app.db, project.id).filter(open), environment)]
}

export interface JobVariableInput {
  app: AppDeps
  baseUrl: string
  facts: PipelineFacts
  job: JobRow
  spec: JobSpec
  token: string
  pipelineVariables: PipelineVariableRow[]
}

/**
 * Every variable of a starting job, in the order later ones win, as a runner receives them: masked project variables
 * stay masked, raw ones raw, and references to what only the runner knows (CI_PROJECT_DIR) are left for it.
 */
export function jobVariables(i: JobVariableInput): JobVariable[] {
  const { job, token } = i
  const s = serverParts(i.baseUrl)
  const defs: VariableDefinition[] = []
  const put = (key: string, value: string, opts: Partial<VariableDefinition> = {}) => defs.push({ key, value, public: true, masked: false, ...opts })
  for (const [k, v] of Object.entries(pipelinePredefined(i.app, i.baseUrl, i.facts))) put(k, v)
  const path = projectPath(i.facts.project)
  put('CI_JOB_ID', String(job.id))
  put('CI_JOB_NAME', job.name)
  put('CI_JOB_NAME_SLUG', slugify(job.name))
  put('CI_JOB_STAGE', job.stage)
  put('CI_JOB_URL', `${i.baseUrl}/${path}/-/jobs/${job.id}`)
  put('CI_JOB_TOKEN', token, { public: false, masked: true })
  put('CI_JOB_STARTED_AT', (job.started_at ?? '').replace(/\.\d{3}Z$/, 'Z'))
  put('CI_JOB_STATUS', 'running')
  if (job.when_ === 'manual') put('CI_JOB_MANUAL', 'true')
  put('CI_NODE_TOTAL', '1')
  put('CI_REPOSITORY_URL', `${s.protocol}://gitlab-ci-token:${token}@${new URL(i.baseUrl).host}/${path}.git`, { public: false })
  put('CI_REGISTRY_USER', 'gitlab-ci-token')
  put('CI_REGISTRY_PASSWORD', token, { public: false, masked: true })
  for (const [k, v] of Object.entries(environmentVariables(i.app, job, i.spec))) put(k, v)
  // GitLab's precedence, lowest first: predefined, the YAML's, instance, group, project, pipeline, then a play's own
  // variables; a reference takes the winning definition of the name it refers to.
  const project = projectVariablesFor(i.app, i.facts.project, refProtected(i.app, i.facts), i.spec.environment?.name ?? null)
  for (const [k, v] of Object.entries(i.spec.variables)) put(k, v)
  for (const v of project) put(v.key, v.value, { public: false, masked: v.masked === 1, file: v.variable_type === 'file', raw: Boolean(v.raw) })
  for (const v of i.pipelineVariables) put(v.key, v.value, { public: false, file: v.variable_type === 'file' })
  for (const [k, v] of Object.entries(i.spec.runVariables ?? {})) put(k, v, { public: false })
  return runnerJobVariables(defs)
}
