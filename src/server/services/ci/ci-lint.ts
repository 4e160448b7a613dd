// CI lint: a config (sent, or the project's own file at a commit) checked statically as GitLab's Ci::Lint does, or by
// a dry run of pipeline creation on a ref; local includes are read from the project's commit.
import { commitFiles } from '../../ci/config/commit-files.js'
import type { IncludeRecord } from '../../ci/config/include.js'
import { loadCiConfig } from '../../ci/config/load.js'
import type { JobConfig } from '../../ci/config/types.js'
import { toRubyYaml } from '../../ci/config/yaml.js'
import { planPipeline, staticJobs } from '../../ci/plan.js'
import type { JobSpec, PlanResult } from '../../ci/plan-types.js'
import { pipelinePredefined } from '../../ci/variables.js'
import type { RequestContext } from '../../context.js'
import { readCommitInfo, readRef, resolveCommit } from '../../git/read.js'
import { projectFullPath } from '../../../core/project-path.js'
import type { ProjectView } from '../../store/projects.js'
import { findVisibleProject } from '../projects/projects.js'
import { gitdirOf, requireReadCode } from '../repository/repository.js'

export interface LintOptions { dryRun?: boolean; includeJobs?: boolean; ref?: string }

/** GitLab lists only/except as hashes: a list of refs is `{refs: […]}`; jobs without rules get `only: {refs: [branches, tags]}`. */
function policyHash(value: unknown, fallback: unknown) {
  if (value === undefined || value === null) return fallback
  if (typeof value === 'string' || Array.isArray(value)) return { refs: Array.isArray(value) ? value : [value] }
  return value
}

const environmentName = (env: unknown) =>
  typeof env === 'string' ? env : env && typeof env === 'object' && typeof (env as { name?: unknown }).name === 'string' ? (env as { name: string }).name : null

function presentJob(spec: JobSpec, job: JobConfig | null) {
  const base = {
    name: spec.name, stage: spec.stage, before_script: spec.beforeScript, script: spec.script, after_script: spec.afterScript,
    tag_list: spec.tags,
  }
  if (!job) return { ...base, environment: null, when: spec.when, allow_failure: spec.allowFailure }
  return {
    ...base,
    only: job.rules ? null : policyHash(job.raw.only, { refs: ['branches', 'tags'] }),
    except: job.rules ? null : policyHash(job.raw.except, null),
    environment: environmentName(job.environment), when: spec.when, allow_failure: spec.allowFailure,
    needs: spec.needs && spec.needs.map((n) => ({ name: n.job, artifacts: n.artifacts, optional: n.optional })),
  }
}

/** Jobs listed stage by stage, as Gitlab::Ci::Lint does. */
function byStage<T extends { stage: string }>(stages: string[], jobs: T[]): T[] {
  return stages.flatMap((s) => jobs.filter((j) => j.stage === s))
}

interface Target { project: ProjectView | null; gitdir: string | null; sha: string | null; ref: string }

function presentIncludes(ctx: RequestContext, t: Target, includes: IncludeRecord[]) {
  const web = t.project ? `${ctx.baseUrl}/${projectFullPath(t.project)}` : null
  return includes.map((i) => ({
    type: i.type, location: i.location,
    blob: web && t.sha ? `${web}/-/blob/${t.sha}/${i.location}` : null,
    raw: web && t.sha ? `${web}/-/raw/${t.sha}/${i.location}` : null,
    extra: {}, context_project: t.project ? projectFullPath(t.project) : null, context_sha: t.sha,
  }))
}

async function staticLint(ctx: RequestContext, content: string, t: Target, includeJobs: boolean) {
  const loaded = await loadCiConfig(content, commitFiles(t.gitdir ?? '', t.gitdir ? t.sha : null))
  if (!loaded.ok) {
    return { valid: false, errors: loaded.errors, warnings: [], merged_yaml: loaded.merged ? await toRubyYaml(loaded.merged) : null, includes: [], ...(includeJobs ? { jobs: [] } : {}) }
  }
  const config = loaded.config
  const specs = staticJobs(config)
  const jobs = byStage(config.stages, specs.map((s, i) => presentJob(s, config.jobs[i])))
  return {
    valid: true, errors: [], warnings: config.warnings, merged_yaml: await toRubyYaml(config.merged),
    includes: presentIncludes(ctx, t, config.includes), ...(includeJobs ? { jobs } : {}),
  }
}

async function dryRunPlan(ctx: RequestContext, content: string, t: Target & { project: ProjectView; gitdir: string }): Promise<PlanResult> {
  if (!t.sha) return { kind: 'errors', errors: ['Reference not found'] }
  const tag = !(await readRef(t.gitdir, `refs/heads/${t.ref}`).catch(() => null)) && Boolean(await readRef(t.gitdir, `refs/tags/${t.ref}`).catch(() => null))
  const c = await readCommitInfo(t.gitdir, t.sha)
  const variables = pipelinePredefined(ctx.app, ctx.baseUrl, {
    project: t.project, ref: t.ref, tag, sha: t.sha, beforeSha: null, source: 'push', user: ctx.user,
    commit: { message: c.message, timestamp: c.committedDate, author: `${c.authorName} <${c.authorEmail}>` },
  })
  return planPipeline(content, { source: 'push', ref: t.ref, tag, sha: t.sha, variables, changedPaths: null, ...commitFiles(t.gitdir, t.sha) })
}

/** A dry run answers what pipeline creation would: its errors, or the jobs it would create. */
async function dryRunLint(ctx: RequestContext, content: string, t: Target & { project: ProjectView; gitdir: string }, includeJobs: boolean) {
  const checked = await staticLint(ctx, content, t, false)
  if (!checked.valid) return { ...checked, ...(includeJobs ? { jobs: [] } : {}) }
  const result = await dryRunPlan(ctx, content, t)
  const errors = result.kind === 'errors' ? result.errors : result.kind === 'skipped' ? [result.reason] : []
  const jobs = result.kind === 'plan' ? byStage(result.plan.stages, result.plan.jobs).map((s) => presentJob(s, null)) : []
  return { ...checked, valid: errors.length === 0, errors, ...(includeJobs ? { jobs } : {}) }
}

async function projectTarget(ctx: RequestContext, p: ProjectView, rev: string | undefined) {
  const gitdir = gitdirOf(ctx, p)
  const ref = rev ?? p.default_branch ?? 'main'
  const sha = await resolveCommit(gitdir, ref).catch(() => null)
  return { project: p, gitdir, sha, ref }
}

export async function lintProjectContent(ctx: RequestContext, id: string | number, content: string, o: LintOptions) {
  const p = findVisibleProject(ctx, id)
  requireReadCode(ctx, p)
  const t = await projectTarget(ctx, p, o.ref)
  return o.dryRun ? dryRunLint(ctx, content, t, Boolean(o.includeJobs)) : staticLint(ctx, content, t, Boolean(o.includeJobs))
}

/** The project's own config file at `sha` (or `ref`, or the default branch); a missing file lints as empty content. */
export async function lintProjectConfig(ctx: RequestContext, id: string | number, o: LintOptions & { sha?: string; dryRunRef?: string }) {
  const p = findVisibleProject(ctx, id)
  requireReadCode(ctx, p)
  const at = await projectTarget(ctx, p, o.sha ?? o.ref)
  const content = (await commitFiles(at.gitdir, at.sha).readFile(p.ci_config_path || '.gitlab-ci.yml')) ?? ''
  if (!o.dryRun) return staticLint(ctx, content, at, Boolean(o.includeJobs))
  const t = o.dryRunRef ? { ...(await projectTarget(ctx, p, o.dryRunRef)) } : at
  return dryRunLint(ctx, content, t, Boolean(o.includeJobs))
}

/** The older instance-wide lint: no project, so nothing can be included. */
export async function lintInstanceContent(ctx: RequestContext, content: string, o: { includeMergedYaml?: boolean; includeJobs?: boolean }) {
  const r = await staticLint(ctx, content, { project: null, gitdir: null, sha: null, ref: '' }, Boolean(o.includeJobs))
  return {
    status: r.valid ? 'valid' as const : 'invalid' as const, errors: r.errors, warnings: r.warnings,
    ...(o.includeMergedYaml && r.merged_yaml !== null ? { merged_yaml: r.merged_yaml } : {}),
    ...(o.includeJobs ? { jobs: r.jobs ?? [] } : {}),
  }
}
