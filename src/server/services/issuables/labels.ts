// Project labels: CRUD by id or name, and the find-or-create that issues use for names that do not exist yet. A project
// also sees its ancestor groups' labels (group-labels.ts owns those).
import { CollabError, conflict, notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadCode, effectiveProjectLevel, REPORTER, requireProjectLevel } from '../../policy.js'
import { ancestorGroupIds } from '../../store/badges.js'
import * as store from '../../store/labels.js'
import type { ProjectView } from '../../store/projects.js'

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

/** The project's ancestor groups, nearest first (none for a project in a user's namespace). */
export const projectGroupIds = (ctx: RequestContext, p: ProjectView): number[] =>
  (p.ns_kind === 'group' ? ancestorGroupIds(ctx.app.db, p.namespace_id) : [])

/** The project's labels and, unless `ancestors` is false, its ancestor groups' (GitLab's available_labels_for). */
export const projectLabelScope = (ctx: RequestContext, p: ProjectView, ancestors = true): store.LabelScope =>
  ({ projectIds: [p.id], groupIds: ancestors ? projectGroupIds(ctx, p) : [] })

/** A label of the scope by name or by numeric id, as GitLab's find_label; 404 when none. */
export function findLabelIn(ctx: RequestContext, scope: store.LabelScope, ref: string | number): store.LabelRow {
  const db = ctx.app.db
  const byName = store.findLabelsInScopeByName(db, scope, String(ref))[0]
  const label = byName ?? (/^\d+$/.test(String(ref)) ? store.findLabelInScopeById(db, scope, Number(ref)) : undefined)
  if (!label) throw notFound('Label')
  return label
}

/** A label by numeric id or by name; reads see ancestor group labels, edits and deletes only the project's own. */
export const findLabel = (ctx: RequestContext, p: ProjectView, ref: string | number, ancestors = false) =>
  findLabelIn(ctx, projectLabelScope(ctx, p, ancestors), ref)

export const listLabels = (ctx: RequestContext, p: ProjectView, f: { search?: string; include_ancestor_groups?: boolean }) =>
  store.listLabelsInScope(ctx.app.db, projectLabelScope(ctx, p, f.include_ancestor_groups !== false), { search: f.search, limit: ctx.page.limit, offset: ctx.page.offset })

/** Issue counts of a label as the caller sees them: confidential issues only where they may read them (policy.canReadIssue). */
export function labelCounts(ctx: RequestContext, p: ProjectView, l: store.LabelRow) {
  const counts = store.labelCounts(ctx.app.db, l.id, { id: ctx.user?.id ?? null, readsConfidential: effectiveProjectLevel(ctx, p) >= REPORTER }, l.group_id !== null ? p.id : undefined)
  // Counted in this project: none of its merge requests for a caller who may not read them.
  return canReadCode(ctx, p) ? counts : { ...counts, open_merge_requests_count: 0 }
}

export function createLabel(ctx: RequestContext, p: ProjectView, input: { name: string; color: string; description?: string; priority?: number | null }) {
  requireProjectLevel(ctx, p, REPORTER)
  const name = checkName(input.name)
  const color = checkColor(input.color)
  const db = ctx.app.db
  if (store.findLabelsInScopeByName(db, projectLabelScope(ctx, p), name).length) throw labelExists()
  const at = nowIso(ctx)
  const id = store.insertLabel(db, { project_id: p.id, name, color, description: input.description ?? null, priority: input.priority ?? null, created_at: at, updated_at: at })
  return store.findLabelById(db, p.id, id)!
}

export interface EditLabelInput { new_name?: string; color?: string; description?: string; priority?: number | null; archived?: boolean }

export function editLabel(ctx: RequestContext, p: ProjectView, label: store.LabelRow, input: EditLabelInput) {
  requireProjectLevel(ctx, p, REPORTER)
  if (input.new_name === undefined && input.color === undefined && input.description === undefined && input.priority === undefined && input.archived === undefined) {
    throw missingAttributes()
  }
  const db = ctx.app.db
  const patch: Parameters<typeof store.updateLabel>[2] = { updated_at: nowIso(ctx) }
  if (input.new_name !== undefined) {
    const name = checkName(input.new_name)
    const other = store.findLabelByName(db, p.id, name)
    if (other && other.id !== label.id) throw labelExists()
    patch.name = name
  }
  if (input.color !== undefined) patch.color = checkColor(input.color)
  if (input.description !== undefined) patch.description = input.description
  if (input.priority !== undefined) patch.priority = input.priority
  store.updateLabel(db, label.id, patch)
  return store.findLabelById(db, p.id, label.id)!
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
export function missingAttributes(names = 'new_name, color, description, priority, archived') {
  const error = `${names} are missing, at least one parameter must be provided`
  return new CollabError('MISSING_ATTRIBUTES', error, { status: 400, body: { error } })
}

export function deleteLabel(ctx: RequestContext, p: ProjectView, label: store.LabelRow) {
  requireProjectLevel(ctx, p, REPORTER)
  store.deleteLabelRow(ctx.app.db, label.id)
}

/**
 * Labels named on an issue: the project's, else the nearest ancestor group's; missing ones are created in the project
 * when the caller may manage labels, else skipped.
 */
export function resolveLabels(ctx: RequestContext, p: ProjectView, names: string[], mayCreate: boolean): store.LabelRow[] {
  const db = ctx.app.db
  const out: store.LabelRow[] = []
  const groupIds = projectGroupIds(ctx, p)
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
