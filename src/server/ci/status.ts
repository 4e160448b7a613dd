// A pipeline's (or stage's) status from its jobs' statuses: GitLab 17's Gitlab::Ci::Status::Composite (compat-mr-ci-wiki §4.8).

export interface StatusInput {
  status: string
  allowFailure: boolean
}

const WARN = new Set(['success_with_warnings', 'ignored'])

/** A job as the composite sees it: allowed failures warn, optional manual jobs are ignored. */
function symbolOf(j: StatusInput): string {
  if (j.allowFailure && (j.status === 'failed' || j.status === 'canceled')) return 'success_with_warnings'
  if (j.allowFailure && j.status === 'manual') return 'ignored'
  return j.status
}

/** Every symbol is one of `allowed` or a warning. */
const only = (present: Set<string>, allowed: string[]) => [...present].every((s) => allowed.includes(s) || WARN.has(s))

/**
 * The first matching rule wins. Jobs of earlier tries must be left out by the caller (only the latest try counts);
 * no jobs at all is `skipped`, as Composite answers for an empty list.
 */
export function compositeStatus(jobs: readonly StatusInput[]): string {
  const present = new Set(jobs.map(symbolOf))
  const any = (s: string) => present.has(s)
  if ([...present].every((s) => s === 'skipped' || s === 'ignored')) return 'skipped'
  if (only(present, ['success', 'skipped'])) return 'success'
  if (only(present, ['created'])) return 'created'
  if (only(present, ['preparing'])) return 'preparing'
  if (only(present, ['canceled', 'success', 'skipped'])) return 'canceled'
  if (only(present, ['pending', 'created', 'skipped'])) return 'pending'
  if (any('running') || any('pending')) return 'running'
  for (const s of ['waiting_for_resource', 'manual', 'scheduled', 'preparing']) if (any(s)) return s
  if (any('created')) return 'running'
  return 'failed'
}

export const isFinishedStatus = (s: string) => s === 'success' || s === 'failed' || s === 'canceled' || s === 'skipped'
