// parallel:matrix combinations and the names GitLab gives their jobs (`deploy: [aws, eu]`), shared by job expansion
// and by `needs:parallel:matrix`, which names some of those jobs, also through `$[[ matrix.IDENTIFIER ]]`.
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

const MATRIX_EXPRESSION = /\$\[\[\s*matrix\.([A-Za-z_][A-Za-z0-9_]*)\s*\]\]/g

/**
 * `$[[ matrix.X ]]` in a needed job's name replaced by the needing instance's value of X (GitLab's matrix
 * expressions: plain text substitution); identifiers the instance's combination lacks are passed to `missing`.
 */
export function resolveMatrixExpressions(name: string, combo: Combo, missing: (identifier: string) => void): string {
  const values = new Map(combo)
  return name.replace(MATRIX_EXPRESSION, (all, id: string) => {
    const value = values.get(id)
    if (value === undefined) missing(id)
    return value ?? all
  })
}
