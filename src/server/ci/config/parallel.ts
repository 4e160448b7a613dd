// `parallel: N` and `parallel: matrix` expand one job into its instances, named as GitLab names them
// (`test 1/3`, `deploy: [aws, eu]`), and `needs`/`dependencies` on the base name reach every instance.
import { Problems } from './fields.js'
import { matrixCombos, matrixSuffix, resolveMatrixExpressions, type Combo } from './matrix.js'
import type { JobNeed } from '../plan-types.js'
import type { JobConfig } from './types.js'
import { isHash } from './yaml.js'

const MAX_INSTANCES = 200

type Instance = { suffix: string; variables: Record<string, string>; combo: Combo }

function matrixInstances(matrix: unknown, at: string, p: Problems): Instance[] | undefined {
  const combos = matrixCombos(matrix)
  if (!combos) { p.add(`${at}:parallel:matrix config should be an array of hashes`); return undefined }
  // Matrix instances are numbered too: CI_NODE_INDEX counts through every combination.
  const out = combos.map((combo, i) => ({
    suffix: matrixSuffix(combo), combo,
    variables: { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(combos.length), ...Object.fromEntries(combo) },
  }))
  if (out.length > MAX_INSTANCES) { p.add(`${at}:parallel:matrix config generates too many jobs (maximum is ${MAX_INSTANCES})`); return undefined }
  return out
}

function instancesOf(value: unknown, at: string, p: Problems): Instance[] | null | undefined {
  if (value === undefined || value === null) return null
  if (isHash(value)) {
    const extra = Object.keys(value).filter((k) => k !== 'matrix')
    if (extra.length) { p.add(`${at}:parallel config contains unknown keys: ${extra.join(', ')}`); return undefined }
    return matrixInstances(value.matrix, at, p)
  }
  if (!Number.isInteger(value)) { p.add(`${at}:parallel config should be an integer or a hash`); return undefined }
  const n = value as number
  if (n < 1) { p.add(`${at}:parallel config must be greater than or equal to 1`); return undefined }
  if (n > MAX_INSTANCES) { p.add(`${at}:parallel config must be less than or equal to ${MAX_INSTANCES}`); return undefined }
  return Array.from({ length: n }, (_, i) => ({
    suffix: ` ${i + 1}/${n}`, combo: [],
    variables: { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(n) },
  }))
}

/** The job's needs (also under rules) with matrix expressions resolved for its combination. */
function withMatrixNeeds(job: JobConfig, combo: Combo, missing: Set<string>): JobConfig {
  const resolve = (needs: JobNeed[] | null) =>
    needs && needs.map((n) => ({ ...n, job: resolveMatrixExpressions(n.job, combo, (id) => missing.add(id)) }))
  return { ...job, needs: resolve(job.needs), rules: job.rules && job.rules.map((r) => ({ ...r, needs: resolve(r.needs) })) }
}

/** Every job with `parallel` replaced by its instances; names in needs and dependencies follow. */
export function expandParallel(jobs: JobConfig[], p: Problems): JobConfig[] {
  const expanded = new Map<string, string[]>()
  const out: JobConfig[] = []
  for (const job of jobs) {
    const instances = instancesOf(job.raw.parallel, `jobs:${job.name}`, p)
    const missing = new Set<string>()
    if (!instances) out.push(withMatrixNeeds(job, [], missing))
    else {
      expanded.set(job.name, instances.map((i) => job.name + i.suffix))
      for (const inst of instances) {
        const instance = { ...job, name: job.name + inst.suffix, variables: { ...job.variables, ...inst.variables }, parallelOf: job.name }
        out.push(withMatrixNeeds(instance, inst.combo, missing))
      }
    }
    for (const id of missing) p.add(`${job.name} job: '${id}' does not exist in matrix configuration`)
  }
  if (expanded.size === 0) return out
  const rename = (name: string) => expanded.get(name) ?? [name]
  return out.map((job) => ({
    ...job,
    needs: job.needs && job.needs.flatMap((n) => rename(n.job).map((j) => ({ ...n, job: j }))),
    dependencies: job.dependencies && job.dependencies.flatMap(rename),
    rules: job.rules && job.rules.map((r) => ({ ...r, needs: r.needs && r.needs.flatMap((n) => rename(n.job).map((j) => ({ ...n, job: j }))) })),
  }))
}
