// GitLab's CI job statuses grouped by what may happen next (Ci::HasStatus): one definition for the API, the pages,
// the scheduler and the lifecycle.

/** A job in one of these has finished and will not change by itself. */
export const COMPLETED_STATUSES: ReadonlySet<string> = new Set(['success', 'failed', 'canceled', 'skipped'])

/** Ended by running or by being canceled: what retry accepts, and the states that end a commit status. */
export const FINISHED_STATUSES: ReadonlySet<string> = new Set(['success', 'failed', 'canceled'])

/** What `play` accepts: a manual or scheduled job, or a finished one run again. */
export const PLAYABLE_STATUSES: ReadonlySet<string> = new Set(['manual', 'scheduled', 'success', 'failed', 'canceled'])

/** Artifacts count until they expire: then the archive is hidden and downloads answer 404 (compat-mr-ci-wiki §4.4). */
export const artifactsAvailable = (job: { artifacts_file: string | null; artifacts_expire_at: string | null }, now: Date) =>
  job.artifacts_file !== null && (job.artifacts_expire_at === null || Date.parse(job.artifacts_expire_at) > now.getTime())

/** Not finished yet: what cancel accepts. */
export const CANCELABLE_STATUSES: ReadonlySet<string> = new Set(['created', 'pending', 'running', 'preparing', 'waiting_for_resource', 'scheduled'])
