// GitLab's nesting rule for visibility: nothing is more visible than the group that holds it.
import { CollabError, validationFailed } from '../../../core/errors.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import { VISIBILITY_LEVELS, type Visibility } from '../instance/settings-rules.js'

/** Levels are ordered least visible first, so a level's index is its rank. */
const rank = (level: Visibility) => VISIBILITY_LEVELS.indexOf(level)

export const lessVisible = (a: Visibility, b: Visibility): Visibility => (rank(a) <= rank(b) ? a : b)

/** A project's level when none is asked for: the default, but never above its group's. */
export const defaultIn = (ns: NamespaceRow, level: Visibility): Visibility => (ns.kind === 'group' ? lessVisible(level, ns.visibility) : level)

/** GitLab's visibility_level_allowed_by_group, with its words: `public is not allowed in a private group.` */
export function requireAllowedInNamespace(ns: NamespaceRow, level: Visibility) {
  if (ns.kind !== 'group' || rank(level) <= rank(ns.visibility)) return
  throw validationFailed({ visibility_level: [`${level} is not allowed in a ${ns.visibility} group.`] })
}

/** GitLab's visibility_level_allowed_by_parent; the groups API reports model errors in Ruby's inspect form. */
export function requireAllowedUnderParent(parent: NamespaceRow, level: Visibility) {
  if (rank(level) <= rank(parent.visibility)) return
  const message = `${level} is not allowed since the parent group has a ${parent.visibility} visibility.`
  throw new CollabError('VISIBILITY_NOT_ALLOWED', `Failed to save group {:visibility_level=>["${message}"]}`, { status: 400 })
}
