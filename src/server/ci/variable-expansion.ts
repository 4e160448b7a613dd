// Variables in variables (GitLab's Collection#sort_and_expand_all), followed by gitlab-runner's own pass over what
// is left: collab's runner hands values to the shell as they arrive, so the server sends them final.
import { expandReferences, referencedNames } from '../../core/variable-expansion.js'
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

/**
 * GitLab's check before a job is created (Collection::Sort#errors): variables that refer to each other in a ring of
 * two or more, each ring's names in the order a depth-first walk from the first definition meets them (Tarjan, as
 * Ruby's TSort); a variable naming itself is no ring.
 */
export function circularReferences(variables: Record<string, string>): string[][] {
  const edges = new Map(Object.entries(variables).map(([k, v]) => [k, referencedNames(v).filter((n) => Object.hasOwn(variables, n))]))
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const rings: string[][] = []
  const visit = (key: string) => {
    index.set(key, index.size)
    low.set(key, index.get(key)!)
    stack.push(key)
    for (const next of edges.get(key)!) {
      if (!index.has(next)) { visit(next); low.set(key, Math.min(low.get(key)!, low.get(next)!)) }
      else if (stack.includes(next)) low.set(key, Math.min(low.get(key)!, index.get(next)!))
    }
    if (low.get(key) !== index.get(key)) return
    const ring = stack.splice(stack.indexOf(key))
    if (ring.length > 1) rings.push(ring)
  }
  for (const key of edges.keys()) if (!index.has(key)) visit(key)
  return rings
}
