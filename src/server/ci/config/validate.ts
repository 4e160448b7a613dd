// The logical checks GitLab's YamlProcessor runs once every entry is valid: stages exist, dependencies and needs
// name jobs of the current or an earlier stage, no need is listed twice, and needs make no cycle.
import type { JobNeed } from '../plan-types.js'
import { checkOnStop } from './environment.js'
import { ConfigError } from './errors.js'
import type { JobConfig } from './types.js'

function checkDependency(job: JobConfig, byName: Map<string, JobConfig>, stages: string[], dep: string, type: 'need' | 'dependency', optional: boolean) {
  const target = byName.get(dep)
  if (!target) {
    if (optional) return
    throw new ConfigError(`${job.name} job: undefined ${type}: ${dep}`)
  }
  const targetIdx = stages.indexOf(target.stage)
  if (targetIdx < 0 || targetIdx > stages.indexOf(job.stage)) {
    throw new ConfigError(`${job.name} job: ${type} ${dep} is not defined in current or prior stages`)
  }
}

function checkNeeds(job: JobConfig, byName: Map<string, JobConfig>, stages: string[], needs: JobNeed[] | null) {
  if (!needs) return
  for (const need of needs) checkDependency(job, byName, stages, need.job, 'need', need.optional)
  const seen = new Set<string>()
  const duplicated = new Set<string>()
  for (const need of needs) (seen.has(need.job) ? duplicated : seen).add(need.job)
  if (duplicated.size) throw new ConfigError(`${job.name} has the following needs duplicated: ${[...duplicated].join(', ')}.`)
}

/** Depth-first search over job -> needs; a back edge is a cycle. */
export function hasCycle(edges: Map<string, string[]>): boolean {
  const state = new Map<string, 'open' | 'done'>()
  const visit = (name: string): boolean => {
    const s = state.get(name)
    if (s === 'open') return true
    if (s === 'done') return false
    state.set(name, 'open')
    const cyclic = (edges.get(name) ?? []).some(visit)
    state.set(name, 'done')
    return cyclic
  }
  return [...edges.keys()].some(visit)
}

export function validateLogic(jobs: JobConfig[], stages: string[]) {
  const byName = new Map(jobs.map((j) => [j.name, j]))
  for (const job of jobs) {
    if (!stages.includes(job.stage)) {
      throw new ConfigError(`${job.name} job: chosen stage does not exist; available stages are ${stages.join(', ')}`)
    }
    for (const dep of job.dependencies ?? []) checkDependency(job, byName, stages, dep, 'dependency', false)
    checkNeeds(job, byName, stages, job.needs)
    for (const rule of job.rules ?? []) checkNeeds(job, byName, stages, rule.needs)
    checkOnStop(job, byName)
  }
  const edges = new Map(jobs.map((j) => [j.name, (j.needs ?? []).map((n) => n.job).filter((n) => byName.has(n))]))
  if (hasCycle(edges)) throw new ConfigError('The pipeline has circular dependencies')
}
