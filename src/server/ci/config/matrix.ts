// parallel:matrix combinations and the names GitLab gives their jobs (`deploy: [aws, eu]`), shared by job expansion
// and by `needs:parallel:matrix`, which names some of those jobs.
import { isHash } from './yaml.js'

export type Combo = Array<[string, string]>

/** Every combination of every matrix entry, in order; null when the matrix is not an array of hashes of values. */
export function matrixCombos(matrix: unknown): Combo[] | null {
  if (!Array.isArray(matrix) || matrix.length === 0) return null
  const out: Combo[] = []
  for (const entry of matrix) {
    if (!isHash(entry) || Object.keys(entry).length === 0) return null
    let combos: Combo[] = [[]]
    for (const [key, v] of Object.entries(entry)) {
      const values = Array.isArray(v) ? v : [v]
      if (values.length === 0 || !values.every((x) => ['string', 'number'].includes(typeof x))) return null
      combos = combos.flatMap((c) => values.map((x) => [...c, [key, String(x)] as [string, string]]))
    }
    out.push(...combos)
  }
  return out
}

export const matrixSuffix = (combo: Combo) => `: [${combo.map(([, v]) => v).join(', ')}]`
