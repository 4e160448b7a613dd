// Labels of a project or a group (lib/api/labels.rb, group_labels.rb): CRUD by id or name under one set of rules, the
// lists (a project's with its ancestor groups', a group's across ancestors and descendants), the find-or-create that
// issues use for names that do not exist yet, and the promotion of a project label to its group's.
import { CollabError, conflict, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadCode, canReadGroup, canReadProject, effectiveProjectLevel, MAINTAINER, REPORTER, requireGroupLevel } from '../../policy.js'
import { ancestorGroupIds } from '../../store/badges.js'
import { transaction } from '../../store/db.js'
import { groupTree, projectIdsInNamespaces } from '../../store/group-admin.js'
import * as store from '../../store/labels.js'
import { findNamespaceById, type NamespaceRow } from '../../store/namespaces.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { readsMergeRequestsOf } from '../merge-requests/merge-request-links.js'
import { groupsAbove, inheritedScope, isProject, ownScope, requireOwnerLevel, type Owner, type OwnerScope } from '../projects/scope.js'

export type { LabelRow } from '../../store/labels.js'

/** GitLab's default for labels created on the fly from an issue's `labels`. */
export const DEFAULT_LABEL_COLOR = '#6699cc'

const NAMED_COLORS = new Set(['black', 'white', 'red', 'green', 'blue', 'yellow', 'orange', 'purple', 'gray', 'grey', 'pink', 'brown', 'cyan', 'magenta', 'lime', 'navy', 'teal', 'olive', 'maroon', 'silver', 'aqua', 'fuchsia'])

export function checkColor(color: string): string {
  const c = color.trim()
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c) || NAMED_COLORS.has(c.toLowerCase())) return c
  throw validationFailed({ color: ['must be a valid color code'] })
}

export function checkName(name: string): string {
  const n = name.trim()
  if (!n) throw validationFailed({ title: ["can't be blank"] })
  if (n.includes(',')) throw validationFailed({ title: ['is invalid'] })
  return n
}

/** A label of the scope by name or by numeric id, as GitLab's find_label; 404 when none. */
function findLabelIn(ctx: RequestContext, scope: OwnerScope, ref: string | number): store.LabelRow {
  const db = ctx.app.db
  const byName = store.findLabelsInScopeByName(db, scope, String(ref))[0]
  const label = byName ?? (/^\d+$/.test(String(ref)) ? store.findLabelInScopeById(db, scope, Number(ref)) : undefined)
  if (!label) throw notFound('Label')
  return label
}

export interface LabelScopeInput { include_ancestor_groups?: boolean; include_descendant_groups?: boolean; only_group_labels?: boolean }

/**
 * The labels a read sees: a project's own and (by default) its ancestor groups'; for a group, GitLab's LabelsFinder:
 * its labels, its ancestors' (default on), its descendants' (default off), and with `only_group_labels=false` the
 * labels of the projects in those groups; only what the caller may see.
 */
function labelScope(ctx: RequestContext, owner: Owner, f: LabelScopeInput): OwnerScope {
  if (isProject(owner)) return inheritedScope(ctx, owner, f.include_ancestor_groups !== false)
  const db = ctx.app.db
  const ids = new Set([owner.id])
  if (f.include_ancestor_groups !== false) ancestorGroupIds(db, owner.id).forEach((id) => ids.add(id))
  const below = f.include_descendant_groups === true ? groupTree(db, owner.id).reverse().filter((id) => id !== owner.id) : []
  const visibleBelow = below.filter((id) => { const ns = findNamespaceById(db, id); return ns !== undefined && canReadGroup(ctx, ns) })
  visibleBelow.forEach((id) => ids.add(id))
  const projectIds = f.only_group_labels === false
    ? projectIdsInNamespaces(db, [owner.id, ...visibleBelow]).filter((id) => { const p = findProjectById(db, id); return p !== undefined && canReadProject(ctx, p) })
    : []
  return { projectIds, groupIds: [...ids] }
}

/** A label by numeric id or by name; reads (`read`) see the scope's labels, edits, deletes and subscriptions only the owner's own. */
export const findLabel = (ctx: RequestContext, owner: Owner, ref: string | number, read?: LabelScopeInput) =>
  findLabelIn(ctx, read ? labelScope(ctx, owner, read) : ownScope(owner), ref)

export const listLabels = (ctx: RequestContext, owner: Owner, f: LabelScopeInput & { search?: string }) =>
  store.listLabelsInScope(ctx.app.db, labelScope(ctx, owner, f), { search: f.search, limit: ctx.page.limit, offset: ctx.page.offset })

/** Issue counts of a label as the caller sees them: confidential issues only where they may read them (policy.canReadIssue). */
export function labelCounts(ctx: RequestContext, p: ProjectView, l: store.LabelRow) {
  const counts = store.labelCounts(ctx.app.db, l.id, { id: ctx.user?.id ?? null, readsConfidential: effectiveProjectLevel(ctx, p) >= REPORTER }, l.group_id !== null ? p.id : undefined)
  // Counted in this project: none of its merge requests for a caller who may not read them.
  return canReadCode(ctx, p) ? counts : { ...counts, open_merge_requests_count: 0 }
}

export function createLabel(ctx: RequestContext, owner: Owner, input: { name: string; color: string; description?: string; priority?: number | null }) {
  requireOwnerLevel(ctx, owner, REPORTER)
  const name = checkName(input.name)
  const color = checkColor(input.color)
  const db = ctx.app.db
  if (store.findLabelsInScopeByName(db, inheritedScope(ctx, owner), name).length) throw labelExists()
  const at = nowIso(ctx)
  const fields = { name, color, description: input.description ?? null, priority: input.priority ?? null, created_at: at, updated_at: at }
  const id = store.insertLabel(db, isProject(owner) ? { ...fields, project_id: owner.id } : { ...fields, group_id: owner.id })
  return findLabel(ctx, owner, id)
}

export interface EditLabelInput { new_name?: string; color?: string; description?: string; priority?: number | null; archived?: boolean }

export function editLabel(ctx: RequestContext, owner: Owner, label: store.LabelRow, input: EditLabelInput) {
  requireOwnerLevel(ctx, owner, REPORTER)
  if (input.new_name === undefined && input.color === undefined && input.description === undefined && input.priority === undefined && input.archived === undefined) {
    // A group label has no priority to set.
    throw missingAttributes(isProject(owner) ? 'new_name, color, description, priority, archived' : 'new_name, color, description, archived')
  }
  const db = ctx.app.db
  const patch: Parameters<typeof store.updateLabel>[2] = { updated_at: nowIso(ctx) }
  if (input.new_name !== undefined) {
    const name = checkName(input.new_name)
    const other = store.findLabelsInScopeByName(db, ownScope(owner), name)[0]
    if (other && other.id !== label.id) throw labelExists()
    patch.name = name
  }
  if (input.color !== undefined) patch.color = checkColor(input.color)
  if (input.description !== undefined) patch.description = input.description
  if (input.priority !== undefined) patch.priority = input.priority
  store.updateLabel(db, label.id, patch)
  return findLabel(ctx, owner, label.id)
}

/** `PUT/DELETE …/labels` without an id in the path name the label by `name` or `label_id`; GitLab wants exactly one. */
export function labelRefParam(input: { name?: string; label_id?: number }): string | number {
  if ((input.name === undefined) === (input.label_id === undefined)) {
    const error = input.name === undefined ? 'label_id, name are missing, exactly one parameter must be provided' : 'label_id, name are mutually exclusive'
    throw new CollabError('MISSING_ATTRIBUTES', error, { status: 400, body: { error } })
  }
  return input.label_id ?? input.name!
}

export const labelExists = () => conflict('Label already exists', { message: 'Label already exists' })

/** Grape's wording when none of several optional parameters is given. */
export function missingAttributes(names: string) {
  const error = `${names} are missing, at least one parameter must be provided`
  return new CollabError('MISSING_ATTRIBUTES', error, { status: 400, body: { error } })
}

export function deleteLabel(ctx: RequestContext, owner: Owner, label: store.LabelRow) {
  requireOwnerLevel(ctx, owner, REPORTER)
  store.deleteLabelRow(ctx.app.db, label.id)
}

/**
 * Labels named on an issue: the project's, else the nearest ancestor group's; missing ones are created in the project
 * when the caller may manage labels, else skipped.
 */
export function resolveLabels(ctx: RequestContext, p: ProjectView, names: string[], mayCreate: boolean): store.LabelRow[] {
  const db = ctx.app.db
  const out: store.LabelRow[] = []
  const groupIds = groupsAbove(ctx, p)
  for (const raw of new Set(names.map((n) => n.trim()).filter(Boolean))) {
    let label = store.findLabelByName(db, p.id, raw) ?? (groupIds.length ? store.findLabelsInScopeByName(db, { projectIds: [], groupIds }, raw)[0] : undefined)
    if (!label && mayCreate) {
      const at = nowIso(ctx)
      const id = store.insertLabel(db, { project_id: p.id, name: raw, color: DEFAULT_LABEL_COLOR, description: null, priority: null, created_at: at, updated_at: at })
      label = store.findLabelById(db, p.id, id)!
    }
    if (label) out.push(label)
  }
  return out
}

/**
 * Counts over the issues the caller may see, as GitLab's IssuesFinder counts them: only of projects they read with
 * issues on, confidential ones where they are Reporter and up (or wrote or are assigned them); open merge requests only
 * of the projects whose merge requests they may read.
 */
export function groupLabelCounts(ctx: RequestContext, l: store.LabelRow) {
  const db = ctx.app.db
  let open = 0
  let closed = 0
  for (const r of store.issueCountsByProject(db, l.id, ctx.user?.id ?? null)) {
    const p = findProjectById(db, r.project_id)
    if (!p || p.issues_enabled !== 1 || !canReadProject(ctx, p)) continue
    const all = effectiveProjectLevel(ctx, p) >= REPORTER
    open += all ? r.open_all : r.open_seen
    closed += all ? r.closed_all : r.closed_seen
  }
  const readable = store.openMergeRequestsByProject(db, l.id).filter((r) => readsMergeRequestsOf(ctx, r.project_id))
  return { open_issues_count: open, closed_issues_count: closed, open_merge_requests_count: readable.reduce((sum, r) => sum + r.n, 0) }
}

// GitLab's wording when the project has no group.
const promoteFailed = () => new CollabError('LABEL_PROMOTE_FAILED', 'Failed to promote project label to group label', { status: 400 })

/**
 * A project label becomes a label of the project's group: a new group label with its name, color and description;
 * the same-named labels of the group and of the group's projects are merged into it (their issues, merge requests,
 * subscribers and label events move) and removed. Needs the group's Maintainer (promote_label), who is one of the
 * project too.
 */
export function promoteLabel(ctx: RequestContext, p: ProjectView, label: store.LabelRow): { group: NamespaceRow; label: store.LabelRow } {
  if (p.ns_kind !== 'group') throw promoteFailed()
  const group = findNamespaceById(ctx.app.db, p.namespace_id)!
  requireGroupLevel(ctx, group, MAINTAINER)
  const db = ctx.app.db
  const id = transaction(db, () => {
    const projectIds = projectIdsInNamespaces(db, [group.id])
    const merged = store.findLabelsInScopeByName(db, { projectIds, groupIds: [group.id] }, label.name).map((l) => l.id)
    // The new label waits under a name no stored label has (names are trimmed), while a same-named label of the
    // group still holds the name under the unique index; it takes the name once the merged labels are gone.
    const at = nowIso(ctx)
    const placeholder = ` promoting ${label.id}`
    const newId = store.insertLabel(db, { group_id: group.id, name: placeholder, color: label.color, description: label.description, priority: null, created_at: at, updated_at: at })
    store.mergeLabelsInto(db, merged, newId)
    store.updateLabel(db, newId, { name: label.name })
    return newId
  })
  return { group, label: findLabel(ctx, group, id) }
}
