// Variables in variables (GitLab's Collection#sort_and_expand_all), followed by gitlab-runner's own pass over what
// is left: collab's runner hands values to the shell as they arrive, so the server sends them final.
import { expandReferences } from '../../core/variable-expansion.js'
import type { JobVariable } from './runner/protocol.js'

export type VariableDefinition = JobVariable & { raw?: boolean }

/**
 * Every definition's value with its references expanded: a reference takes the final value of the name's latest
 * definition (later ones win), except a definition being expanded, so that `PATH_X: "$PATH_X:more"` extends the
 * definition before it and a cycle ends; a name nobody defines expands to nothing, as gitlab-runner's pass leaves it.
 * Raw values stay as written.
 */
function expandDefinitions(defs: readonly VariableDefinition[]): string[] {
  const byKey = new Map<string, number[]>()
  defs.forEach((d, i) => byKey.set(d.key, [...(byKey.get(d.key) ?? []), i]))
  const final = new Map<number, string>()
  const expanding = new Set<number>()
  const valueOf = (i: number): string => {
    const known = final.get(i)
    if (known !== undefined) return known
    expanding.add(i)
    const value = defs[i].raw ? defs[i].value : expandReferences(defs[i].value, (name) => {
      const candidate = (byKey.get(name) ?? []).findLast((j) => !expanding.has(j))
      return candidate === undefined ? undefined : valueOf(candidate)
    })
    expanding.delete(i)
    final.set(i, value)
    return value
  }
  return defs.map((_, i) => valueOf(i))
}

/** The job's variables from its definitions, lowest precedence first: expanded, one per key where its last definition stands. */
export function finalJobVariables(defs: readonly VariableDefinition[]): JobVariable[] {
  const values = expandDefinitions(defs)
  const out = new Map<string, JobVariable>()
  defs.forEach(({ raw: _raw, ...d }, i) => {
    out.delete(d.key)
    out.set(d.key, { ...d, value: values[i] })
  })
  return [...out.values()]
}
