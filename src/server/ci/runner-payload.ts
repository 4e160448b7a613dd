// The coordinator's job payload as it goes over the wire to a runner (lib/api/entities/ci/job_request/response.rb):
// every field in the JSON type gitlab-runner decodes, dependencies as downloads instead of paths of the server's disk.
import type { RunnerJobPayload } from '../../contract/entities/runner-job.js'
import type { AppDeps } from '../context.js'
import { findJobById } from '../store/ci-jobs.js'
import type { JobPayload } from './runner/protocol.js'

const asArray = (v: unknown): unknown[] => (v === null || v === undefined ? [] : Array.isArray(v) ? v : [v])

const named = (v: unknown) => (typeof v === 'string' ? { name: v } : v !== null && typeof v === 'object' ? v as Record<string, unknown> : null)

function image(v: unknown): RunnerJobPayload['image'] {
  const i = named(v)
  return i && typeof i.name === 'string' ? { ...i, name: i.name } : null
}

/** GitLab's Cache entity: key, untracked, paths, policy, when, fallback_keys — each present, in its type. */
function cache(v: unknown): unknown[] {
  return asArray(v).filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object').map((c) => ({
    key: typeof c.key === 'string' ? c.key : 'default',
    untracked: c.untracked === true,
    paths: asArray(c.paths).filter((p) => typeof p === 'string'),
    policy: typeof c.policy === 'string' ? c.policy : 'pull-push',
    when: typeof c.when === 'string' ? c.when : 'on_success',
    fallback_keys: asArray(c.fallback_keys).filter((k) => typeof k === 'string'),
  }))
}

/** `runner.maximum_timeout` caps the job's timeout, as a runner's setting does in GitLab. */
export function wirePayload(app: AppDeps, p: JobPayload, runner: { maximum_timeout: number | null }): RunnerJobPayload {
  const timeout = runner.maximum_timeout === null ? p.runner_info.timeout : Math.min(p.runner_info.timeout, runner.maximum_timeout)
  return {
    id: p.id,
    token: p.token,
    allow_git_fetch: true,
    job_info: { id: p.id, ...p.job_info },
    git_info: { ...p.git_info, repo_object_format: 'sha1' },
    runner_info: { timeout },
    variables: p.variables.map((v) => ({ key: v.key, value: v.value, public: v.public, masked: v.masked, file: v.file === true, raw: v.raw === true })),
    steps: p.steps.map((s) => ({ ...s, timeout: s.name === 'after_script' ? s.timeout : Math.min(s.timeout, timeout) })),
    image: image(p.image),
    services: asArray(p.services).map(named).filter((s) => s !== null),
    artifacts: p.artifacts,
    cache: cache(p.cache),
    credentials: [],
    // Only dependencies with artifacts are listed with a file; gitlab-runner skips those whose filename is empty.
    dependencies: p.dependencies.map((d) => {
      const row = d.artifacts_path === null ? undefined : findJobById(app.db, d.id)
      const file = row?.artifacts_file ? { filename: 'artifacts.zip', size: row.artifacts_size ?? 0 } : { filename: '', size: 0 }
      return { id: d.id, name: d.name, token: p.token, artifacts_file: file }
    }),
    features: { trace_sections: true, failure_reasons: ['script_failure', 'job_execution_timeout', 'runner_system_failure', 'unknown_failure'] },
  }
}
