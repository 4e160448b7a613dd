// Project labels: CRUD by id or name, and the find-or-create that issues use for names that do not exist yet.
import { CollabError, conflict, notFound, validationFailed } from '../../core/errors.js'
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import { effectiveProjectLevel, REPORTER, requireProjectLevel } from '../policy.js'
import * as store from '../store/labels.js'
import type { ProjectView } from '../store/projects.js'

export type { LabelRow } from '../store/labels.js'

/** GitLab's default for labels created on the fly from an issue's `labels`. */
export const DEFAULT_LABEL_COLOR = '#6699cc'

const NAMED_COLORS = new Set(['black', 'white', 'red', 'green', 'blue', 'yellow', 'orange', 'purple', 'gray', 'grey', 'pink', 'brown', 'cyan', 'magenta', 'lime', 'navy', 'teal', 'olive', 'maroon', 'silver', 'aqua', 'fuchsia'])

function checkColor(color: string): string {
  const c = color.trim()
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(c) || NAMED_COLORS.has(c.toLowerCase())) return c
  throw validationFailed({ color: ['must be a valid color code'] })
}

function checkName(name: string): string {
  const n = name.trim()
  if (!n) throw validationFailed({ title: ["can't be blank"] })
  if (n.includes(',')) throw validationFailed({ title: ['is invalid'] })
  return n
}

/** A label by numeric id or by name, as GitLab's find_label. */
export function findLabel(ctx: RequestContext, p: ProjectView, ref: string | number): store.LabelRow {
  const db = ctx.app.db
  const byName = store.findLabelByName(db, p.id, String(ref))
  const label = byName ?? (/^\d+$/.test(String(ref)) ? store.findLabelById(db, p.id, Number(ref)) : undefined)
  if (!label) throw notFound('Label')
  return label
}

export const listLabels = (ctx: RequestContext, p: ProjectView, search?: string) =>
  store.listLabels(ctx.app.db, p.id, { search, limit: ctx.page.limit, offset: ctx.page.offset })

/** Issue counts of a label as the caller sees them: confidential issues only where they may read them (policy.canReadIssue). */
export const labelCounts = (ctx: RequestContext, p: ProjectView, l: store.LabelRow) =>
  store.labelCounts(ctx.app.db, l.id, { id: ctx.user?.id ?? null, readsConfidential: effectiveProjectLevel(ctx, p) >= REPORTER })

export function createLabel(ctx: RequestContext, p: ProjectView, input: { name: string; color: string; description?: string; priority?: number | null }) {
  requireProjectLevel(ctx, p, REPORTER)
  const name = checkName(input.name)
  const color = checkColor(input.color)
  const db = ctx.app.db
  if (store.findLabelByName(db, p.id, name)) throw conflict('Label already exists', { message: 'Label already exists' })
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
    if (other && other.id !== label.id) throw conflict('Label already exists', { message: 'Label already exists' })
    patch.name = name
  }
  if (input.color !== undefined) patch.color = checkColor(input.color)
  if (input.description !== undefined) patch.description = input.description
  if (input.priority !== undefined) patch.priority = input.priority
  store.updateLabel(db, label.id, patch)
  return store.findLabelById(db, p.id, label.id)!
}

/** Grape's wording when none of several optional parameters is given. */
function missingAttributes() {
  const error = 'new_name, color, description, priority, archived are missing, at least one parameter must be provided'
  return new CollabError('MISSING_ATTRIBUTES', error, { status: 400, body: { error } })
}

export function deleteLabel(ctx: RequestContext, p: ProjectView, label: store.LabelRow) {
  requireProjectLevel(ctx, p, REPORTER)
  store.deleteLabelRow(ctx.app.db, label.id)
}

/** Labels named on an issue, in the project; missing ones are created when the caller may manage labels, else skipped. */
export function resolveLabels(ctx: RequestContext, p: ProjectView, names: string[], mayCreate: boolean): store.LabelRow[] {
  const db = ctx.app.db
  const out: store.LabelRow[] = []
  for (const raw of new Set(names.map((n) => n.trim()).filter(Boolean))) {
    let label = store.findLabelByName(db, p.id, raw)
    if (!label && mayCreate) {
      const at = nowIso(ctx)
      const id = store.insertLabel(db, { project_id: p.id, name: raw, color: DEFAULT_LABEL_COLOR, description: null, priority: null, created_at: at, updated_at: at })
      label = store.findLabelById(db, p.id, id)!
    }
    if (label) out.push(label)
  }
  return out
}
