// Pipelines as GitLab 17 serializes them: PipelineBasic, the full pipeline with its detailed_status, variables.
import type { Pipeline, PipelineBasic } from '../../contract/entities/pipelines.js'
import type { RequestContext } from '../context.js'
import type { PipelineRow, PipelineVariableRow } from '../store/pipelines.js'
import type { UserRow } from '../store/users.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl'>

const ZERO_SHA = '0000000000000000000000000000000000000000'

export const pipelineWebUrl = (ctx: Urls, projectPath: string, id: number) => `${ctx.baseUrl}/${projectPath}/-/pipelines/${id}`

export const presentPipelineBasic = (p: PipelineRow, projectPath: string, ctx: Urls): PipelineBasic => ({
  id: p.id,
  iid: p.iid,
  project_id: p.project_id,
  sha: p.sha,
  ref: p.ref,
  status: p.status,
  source: p.source,
  created_at: p.created_at,
  updated_at: p.updated_at,
  web_url: pipelineWebUrl(ctx, projectPath, p.id),
})

// Gitlab::Ci::Status::* text and label per status; a pipeline waiting on a manual or delayed job is `blocked`/`delayed`.
const TEXTS: Record<string, [text: string, label: string]> = {
  created: ['created', 'created'],
  waiting_for_resource: ['waiting', 'waiting for resource'],
  preparing: ['preparing', 'preparing'],
  pending: ['pending', 'pending'],
  running: ['running', 'running'],
  success: ['passed', 'passed'],
  failed: ['failed', 'failed'],
  canceled: ['canceled', 'canceled'],
  skipped: ['skipped', 'skipped'],
  manual: ['blocked', 'waiting for manual action'],
  scheduled: ['delayed', 'waiting for delayed job'],
}

/** `warnings`: a successful pipeline with allowed failures shows GitLab's "passed with warnings". */
export function detailedStatus(status: string, detailsPath: string, warnings: boolean): Pipeline['detailed_status'] {
  const warn = status === 'success' && warnings
  const [text, label] = warn ? ['warning', 'passed with warnings'] : TEXTS[status] ?? [status, status]
  const icon = warn ? 'status_warning' : `status_${status}`
  return {
    icon, text, label, group: warn ? 'success_with_warnings' : status, tooltip: label, has_details: true, details_path: detailsPath,
    illustration: null, favicon: `/assets/ci_favicons/favicon_${icon}.png`,
  }
}

export function presentPipeline(p: PipelineRow, projectPath: string, ctx: Urls, extra: { user: UserRow | null; warnings: boolean }): Pipeline {
  return {
    ...presentPipelineBasic(p, projectPath, ctx),
    before_sha: p.before_sha ?? ZERO_SHA,
    tag: p.tag === 1,
    yaml_errors: p.yaml_errors,
    user: extra.user ? presentUserBasic(extra.user, ctx) : null,
    started_at: p.started_at,
    finished_at: p.finished_at,
    committed_at: p.committed_at,
    duration: p.duration,
    queued_duration: p.queued_duration,
    coverage: p.coverage,
    detailed_status: detailedStatus(p.status, `/${projectPath}/-/pipelines/${p.id}`, extra.warnings),
  }
}

export const presentPipelineVariable = (v: PipelineVariableRow) => ({ key: v.key, value: v.value, variable_type: v.variable_type })

export const emptyTestReport = () => ({ total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [] })
