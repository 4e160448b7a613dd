// A runner's status from when it last asked for work (GitLab's Ci::Runner ONLINE_CONTACT_TIMEOUT and STALE_TIMEOUT).
const ONLINE_MS = 2 * 3600_000
const STALE_MS = 7 * 24 * 3600_000

export type RunnerStatus = 'online' | 'offline' | 'stale' | 'never_contacted'

export function runnerStatus(r: { contacted_at: string | null; created_at: string }, now: Date): RunnerStatus {
  const age = (at: string) => now.getTime() - Date.parse(at)
  if (r.contacted_at === null) return age(r.created_at) > STALE_MS ? 'stale' : 'never_contacted'
  if (age(r.contacted_at) > STALE_MS) return 'stale'
  return age(r.contacted_at) <= ONLINE_MS ? 'online' : 'offline'
}
