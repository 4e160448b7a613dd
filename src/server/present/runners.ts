// Runner rows as the Runners API shows them (Entities::Ci::Runner and RunnerDetails).
import type { z } from 'zod'
import type { Runner, RunnerDetails } from '../../contract/entities/runners.js'
import { runnerStatus } from '../../core/runner-status.js'
import type { RunnerRow } from '../store/ci-runners.js'
import type { ProjectView } from '../store/projects.js'

export function presentRunner(r: RunnerRow, now: Date, busy: boolean): z.infer<typeof Runner> {
  const status = runnerStatus(r, now)
  return {
    id: r.id, description: r.description, ip_address: null, active: r.paused === 0, paused: r.paused === 1,
    is_shared: r.runner_type === 'instance_type', runner_type: r.runner_type, name: r.name, online: status === 'online',
    created_at: r.created_at, status, job_execution_status: busy ? 'active' : 'idle',
  }
}

export function presentRunnerDetails(r: RunnerRow, now: Date, busy: boolean, projects: ProjectView[], showNote: boolean): z.infer<typeof RunnerDetails> {
  return {
    ...presentRunner(r, now, busy),
    tag_list: JSON.parse(r.tag_list) as string[], run_untagged: r.run_untagged === 1, locked: r.locked === 1,
    maximum_timeout: r.maximum_timeout, access_level: r.access_level,
    version: r.version, revision: r.revision, platform: r.platform, architecture: r.architecture, contacted_at: r.contacted_at,
    maintenance_note: showNote ? r.maintenance_note : null,
    projects: projects.map((p) => ({
      id: p.id, name: p.name, name_with_namespace: `${p.ns_full_name} / ${p.name}`, path: p.path, path_with_namespace: `${p.ns_full_path}/${p.path}`,
    })),
    groups: [],
  }
}
