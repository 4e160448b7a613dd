// Variables in variables (GitLab's Collection#sort_and_expand_all), in the two forms the server needs: final values
// for what it expands itself (environment names and URLs), and the job's variables as GitLab sends them to a runner,
// which expands what is left with the variables only it knows (CI_PROJECT_DIR, CI_BUILDS_DIR …) when it prepares the job.
import { expandReferences, referencedNames } from '../../core/variable-expansion.js'
import type { JobVariable } from './runner/protocol.js'

export type VariableDefinition = JobVariable

/**
 * Every definition's value with its references expanded: a reference takes the expanded value of the name's latest
 * definition (later ones win), except a definition being expanded, so that `PATH_X: "$PATH_X:more"` extends the
 * definition before it and a ring ends (in nothing). Raw values stay as written.
 *
 * `forRunner` expands as BuildRunnerPresenter#runner_variables does (keep_undefined, expand_file_refs and
 * expand_raw_refs off): a name the server does not define, a file variable (its path is the runner's), a raw one (its
 * value must not be read again) and `$$` stay as written for the runner's own pass; so does a name that refers to
 * itself with nothing below it, which the runner resolves against its own environment. Otherwise such references
 * expand to nothing and `$$` to `$`.
 */
function expandDefinitions(defs: readonly VariableDefinition[], forRunner: boolean): string[] {
  const byKey = new Map<string, number[]>()
  defs.forEach((d, i) => byKey.set(d.key, [...(byKey.get(d.key) ?? []), i]))
  const final = new Map<number, string>()
  const expanding = new Set<number>()
  const valueOf = (i: number): string => {
    const known = final.get(i)
    if (known !== undefined) return known
    expanding.add(i)
    const value = defs[i].raw ? defs[i].value : expandReferences(defs[i].value, (name) => {
      const all = byKey.get(name)
      if (!all) return undefined
      const candidate = all.findLast((j) => !expanding.has(j))
      if (candidate === undefined) return name === defs[i].key ? undefined : ''
      if (forRunner && (defs[candidate].raw || defs[candidate].file)) return undefined
      return valueOf(candidate)
    }, { keepUndefined: forRunner, keepEscapes: forRunner })
    expanding.delete(i)
    final.set(i, value)
    return value
  }
  return defs.map((_, i) => valueOf(i))
}

/** One variable per key, where its last definition stands, with `values` for the definitions; `raw` only when true, as GitLab sends it. */
function oneEach(defs: readonly VariableDefinition[], values: string[]): JobVariable[] {
  const out = new Map<string, JobVariable>()
  defs.forEach(({ raw, ...d }, i) => {
    out.delete(d.key)
    out.set(d.key, { ...d, value: values[i], ...(raw ? { raw: true } : {}) })
  })
  return [...out.values()]
}

/** The variables from their definitions, lowest precedence first, fully expanded here (for what the server expands itself). */
export const finalJobVariables = (defs: readonly VariableDefinition[]): JobVariable[] => oneEach(defs, expandDefinitions(defs, false))

/** The variables a runner receives for a job, from their definitions lowest precedence first: expanded as far as GitLab's server expands them. */
export const runnerJobVariables = (defs: readonly VariableDefinition[]): JobVariable[] => oneEach(defs, expandDefinitions(defs, true))

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
