// Turns zod issues into GitLab's two 400 shapes (`"x" not given` for a missing attribute, else {message:{field:[...]}}),
// and checks Grape's at_least_one_of.
import type { z } from 'zod'
import { CollabError, missingAttribute, validationFailed } from '../../core/errors.js'

export function validationError(issues: z.core.$ZodIssue[], input: Record<string, unknown>): CollabError {
  const missing = issues.find((i) => i.path.length === 1 && input[String(i.path[0])] === undefined)
  if (missing) return missingAttribute(String(missing.path[0]))
  const fields: Record<string, string[]> = {}
  for (const issue of issues) {
    // An error on an array item belongs to the array parameter (`scopes`, not `scopes.0`), as in GitLab.
    const named = issue.path.filter((p) => typeof p !== 'number')
    const field = named.length ? named.map(String).join('.') : 'base'
    const message = issue.code === 'custom' || /^(is |does |are |has )/.test(issue.message) ? issue.message : 'is invalid'
    const list = (fields[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }
  return validationFailed(fields)
}

/** Grape's at_least_one_of: params holds none of `names` as a key (an empty or null value still counts as given). */
export function noneGiven(names: readonly string[], params: Record<string, unknown>): CollabError | null {
  if (names.some((name) => Object.hasOwn(params, name))) return null
  const error = `${names.join(', ')} are missing, at least one parameter must be provided`
  return new CollabError('MISSING_ATTRIBUTES', error, { status: 400, body: { error } })
}
