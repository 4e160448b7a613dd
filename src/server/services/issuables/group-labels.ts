// Group labels (lib/api/group_labels.rb): CRUD by id or name, lists across ancestor and descendant groups, and the
// promotion of a project label to its group's (Labels::PromoteService), which merges same-named labels of the group.
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadGroup, canReadProject, effectiveProjectLevel, MAINTAINER, REPORTER, requireGroupLevel } from '../../policy.js'
import { ancestorGroupIds } from '../../store/badges.js'
import { transaction } from '../../store/db.js'
import { groupTree, projectIdsInNamespaces } from '../../store/group-admin.js'
import * as store from '../../store/labels.js'
import { findNamespaceById, type NamespaceRow } from '../../store/namespaces.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { checkColor, checkName, findLabelIn, labelExists, missingAttributes } from './labels.js'
import { readsMergeRequestsOf } from '../merge-requests/merge-request-links.js'

export interface GroupLabelScopeInput { include_ancestor_groups?: boolean; include_descendant_groups?: boolean; only_group_labels?: boolean }

/** GitLab's LabelsFinder for a group: its labels, its ancestors' (default on), its descendants' (default off), and with
 * `only_group_labels=false` the labels of the projects in those groups; only what the caller may see. */
function groupLabelScope(ctx: RequestContext, g: NamespaceRow, f: GroupLabelScopeInput): store.LabelScope {
  const db = ctx.app.db
  const ids = new Set([g.id])
  if (f.include_ancestor_groups !== false) ancestorGroupIds(db, g.id).forEach((id) => ids.add(id))
  const below = f.include_descendant_groups === true ? groupTree(db, g.id).reverse().filter((id) => id !== g.id) : []
  const visibleBelow = below.filter((id) => { const ns = findNamespaceById(db, id); return ns !== undefined && canReadGroup(ctx, ns) })
  visibleBelow.forEach((id) => ids.add(id))
  const projectIds = f.only_group_labels === false
    ? projectIdsInNamespaces(db, [g.id, ...visibleBelow]).filter((id) => { const p = findProjectById(db, id); return p !== undefined && canReadProject(ctx, p) })
    : []
  return { projectIds, groupIds: [...ids] }
}

const ownScope = (g: NamespaceRow): store.LabelScope => ({ projectIds: [], groupIds: [g.id] })

export const listGroupLabels = (ctx: RequestContext, g: NamespaceRow, f: GroupLabelScopeInput & { search?: string }) =>
  store.listLabelsInScope(ctx.app.db, groupLabelScope(ctx, g, f), { search: f.search, limit: ctx.page.limit, offset: ctx.page.offset })

/** Reads see the scope's labels (ancestors by default); edits, deletes and subscriptions only the group's own. */
export const findGroupLabel = (ctx: RequestContext, g: NamespaceRow, ref: string | number, read?: GroupLabelScopeInput) =>
  findLabelIn(ctx, read ? groupLabelScope(ctx, g, read) : ownScope(g), ref)

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

export function createGroupLabel(ctx: RequestContext, g: NamespaceRow, input: { name: string; color: string; description?: string }) {
  requireGroupLevel(ctx, g, REPORTER)
  const name = checkName(input.name)
  const color = checkColor(input.color)
  const db = ctx.app.db
  if (store.findLabelsInScopeByName(db, groupLabelScope(ctx, g, {}), name).length) throw labelExists()
  const at = nowIso(ctx)
  const id = store.insertLabel(db, { group_id: g.id, name, color, description: input.description ?? null, priority: null, created_at: at, updated_at: at })
  return findGroupLabel(ctx, g, id)
}

export interface EditGroupLabelInput { new_name?: string; color?: string; description?: string; archived?: boolean }

export function editGroupLabel(ctx: RequestContext, g: NamespaceRow, label: store.LabelRow, input: EditGroupLabelInput) {
  requireGroupLevel(ctx, g, REPORTER)
  if (input.new_name === undefined && input.color === undefined && input.description === undefined && input.archived === undefined) {
    throw missingAttributes('new_name, color, description, archived')
  }
  const db = ctx.app.db
  const patch: Parameters<typeof store.updateLabel>[2] = { updated_at: nowIso(ctx) }
  if (input.new_name !== undefined) {
    const name = checkName(input.new_name)
    const other = store.findLabelsInScopeByName(db, ownScope(g), name)[0]
    if (other && other.id !== label.id) throw labelExists()
    patch.name = name
  }
  if (input.color !== undefined) patch.color = checkColor(input.color)
  if (input.description !== undefined) patch.description = input.description
  store.updateLabel(db, label.id, patch)
  return findGroupLabel(ctx, g, label.id)
}

export function deleteGroupLabel(ctx: RequestContext, g: NamespaceRow, label: store.LabelRow) {
  requireGroupLevel(ctx, g, REPORTER)
  store.deleteLabelRow(ctx.app.db, label.id)
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
  return { group, label: findGroupLabel(ctx, group, id) }
}
