// Turns zod issues into GitLab's two 400 shapes: `"x" not given` for a missing attribute, else {message:{field:[...]}}.
import type { z } from 'zod'
import { missingAttribute, validationFailed, type CollabError } from '../../core/errors.js'

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
