// A job's end as its executor reports it: allowed failures by exit code, coverage from the trace, automatic retries
// (the `retry` keyword), then the pipeline moves on and listeners hear of it.
import { userPattern } from '../../core/re2.js'
import type { AppDeps } from '../context.js'
import { transaction } from '../store/db.js'
import * as jobs from '../store/ci-jobs.js'
import type { JobRow } from '../store/ci-jobs.js'
import type { JobUpdate } from './runner/protocol.js'
import { cloneJob } from './lifecycle-actions.js'
import { settleEnvironment } from './environments.js'
import { emitJobFinished, emitJobQueued } from './lifecycle-events.js'
import type { JobSpec } from './plan-types.js'
import { processPipeline, specOf } from './scheduler.js'
import { readTrace } from './traces.js'

// Scanning a trace for its coverage may take this many worst-case RE2 steps in all (see core/re2) before it gives up.
const COVERAGE_WORK_LIMIT = 50_000_000

/**
 * The coverage figure of a trace (Gitlab::Ci::Trace::Stream#extract_coverage): lines are scanned from the end, the
 * first match's last capture (or the whole match) gives its first number. A regex RE2 refuses finds nothing.
 */
export function extractCoverage(trace: string, regex: string): number | null {
  const re = userPattern(regex)
  if (!re) return null
  const lines = trace.split('\n')
  let work = 0
  for (let i = lines.length - 1; i >= 0; i--) {
    work += re.size * Math.max(lines[i].length, 1)
    if (work > COVERAGE_WORK_LIMIT) return null
    // RE2's DFA answers whether a line matches faster than the groups can be found.
    const m = re.test(lines[i]) ? re.exec(lines[i]) : null
    if (!m) continue
    const captures = m.slice(1).filter((c) => c !== undefined)
    const text = captures.length ? captures[captures.length - 1] : m[0]
    const n = /\d+(\.\d+)?/.exec(text!)
    if (n) return Number(n[0])
  }
  return null
}

/** Whether the `retry` keyword asks for another try after this failure (`always` or the failure reason named). */
function retriesAgain(job: JobRow, spec: JobSpec, reason: string): boolean {
  if (job.retry_count >= spec.retry.max) return false
  const when = spec.retry.when.length ? spec.retry.when : ['always']
  return when.includes('always') || when.includes(reason)
}

async function coverageOf(app: AppDeps, job: JobRow, spec: JobSpec): Promise<number | null> {
  if (!spec.coverageRegex) return null
  const trace = await readTrace(app.layout, job.id).catch(() => Buffer.alloc(0))
  return extractCoverage(trace.toString('utf8'), spec.coverageRegex)
}

/**
 * Records the end of a running job; the token dies with it. A job canceled meanwhile stays canceled. Answers the
 * job's status afterwards.
 */
export async function finishJob(app: AppDeps, job: JobRow, update: JobUpdate): Promise<string> {
  const spec = specOf(job)
  if (job.status !== 'running') {
    jobs.updateJob(app.db, job.id, { token_hash: null })
    return job.status
  }
  const coverage = await coverageOf(app, job, spec)
  const now = app.clock.now().toISOString()
  const failed = update.state === 'failed'
  const reason = failed ? update.failure_reason ?? 'script_failure' : null
  const allowed = failed && spec.allowFailureExitCodes !== null
    ? update.exit_code !== undefined && spec.allowFailureExitCodes.includes(update.exit_code)
    : spec.allowFailure
  const status = update.state === 'success' ? 'success' : update.state === 'canceled' ? 'canceled' : 'failed'
  let retried: JobRow | null = null
  const moved = transaction(app.db, () => {
    const ok = jobs.transitionJob(app.db, job.id, ['running'], {
      status, finished_at: now, updated_at: now, token_hash: null, coverage, failure_reason: reason,
      exit_code: update.exit_code ?? null, allow_failure: allowed ? 1 : 0,
    })
    if (ok && failed && retriesAgain(job, spec, reason!)) retried = cloneJob(app, { ...job, status }, null, { status: 'pending', retryCount: job.retry_count + 1 })
    return ok
  })
  const after = jobs.findJobById(app.db, job.id)!
  if (!moved) return after.status
  settleEnvironment(app, after)
  emitJobFinished(app, after)
  processPipeline(app, job.pipeline_id)
  if (retried) emitJobQueued(app)
  return after.status
}
