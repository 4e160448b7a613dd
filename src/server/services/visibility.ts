// GitLab's nesting rule for visibility: nothing is more visible than the group that holds it.
import { CollabError, validationFailed } from '../../core/errors.js'
import type { NamespaceRow } from '../store/namespaces.js'

export type Visibility = 'private' | 'internal' | 'public'

export const VISIBILITY_RANK = { private: 0, internal: 1, public: 2 } as const

export const lessVisible = (a: Visibility, b: Visibility): Visibility => (VISIBILITY_RANK[a] <= VISIBILITY_RANK[b] ? a : b)

/** A project's level when none is asked for: the default, but never above its group's. */
export const defaultIn = (ns: NamespaceRow, level: Visibility): Visibility => (ns.kind === 'group' ? lessVisible(level, ns.visibility) : level)

/** GitLab's visibility_level_allowed_by_group, with its words: `public is not allowed in a private group.` */
export function requireAllowedInNamespace(ns: NamespaceRow, level: Visibility) {
  if (ns.kind !== 'group' || VISIBILITY_RANK[level] <= VISIBILITY_RANK[ns.visibility]) return
  throw validationFailed({ visibility_level: [`${level} is not allowed in a ${ns.visibility} group.`] })
}

/** GitLab's visibility_level_allowed_by_parent; the groups API reports model errors in Ruby's inspect form. */
export function requireAllowedUnderParent(parent: NamespaceRow, level: Visibility) {
  if (VISIBILITY_RANK[level] <= VISIBILITY_RANK[parent.visibility]) return
  const message = `${level} is not allowed since the parent group has a ${parent.visibility} visibility.`
  throw new CollabError('VISIBILITY_NOT_ALLOWED', `Failed to save group {:visibility_level=>["${message}"]}`, { status: 400 })
}
