// Which tables a write to one table can change: the table itself, what our triggers write (declared below, by name) and,
// when rows are deleted, what the foreign-key actions reach (read from the schema). Remembered reads are forgotten by
// these, and only these.
import type { Db } from './db.js'

/**
 * Every trigger of the migrations, with the tables its body writes. A migration that adds a trigger adds it here; until
 * it does, a write to the trigger's table counts as a write to every table (safe, slower), and the store's declaration
 * test fails.
 */
export const TRIGGER_WRITES: Readonly<Record<string, readonly string[] | { deletes: readonly string[] }>> = {
  // 026: what issue lists read, kept in each write's own transaction.
  issues_after_insert: ['issue_list_clock', 'issues', 'issue_counts', 'issue_label_counts'],
  issues_after_update: ['issue_list_clock', 'issues'],
  issues_after_move: ['issue_counts', 'issue_label_counts'],
  issues_after_delete: ['issue_counts', 'issue_label_counts'],
  noteable_labels_after_insert: ['issue_label_counts', 'issues'],
  noteable_labels_after_delete: ['issue_label_counts', 'issues'],
  noteable_labels_after_update: ['issue_label_counts', 'issues'],
  noteable_assignees_after_insert: ['issues'],
  noteable_assignees_after_delete: ['issues'],
  noteable_assignees_after_update: ['issues'],
  award_emoji_after_insert: ['issues'],
  award_emoji_after_delete: ['issues'],
  award_emoji_after_update: ['issues'],
  merge_request_closing_issues_after_insert: ['issues'],
  merge_request_closing_issues_after_delete: ['issues'],
  merge_request_closing_issues_after_update: ['issues'],
  // 036: a deployment follows its job's status.
  ci_jobs_deployment_status: ['deployments'],
  // A noteable's kind row goes with its merge request or snippet; notification settings with their group or project.
  merge_requests_noteable_gone: { deletes: ['noteables'] },
  snippets_noteable_gone: { deletes: ['noteables'] },
  notification_settings_group_gone: { deletes: ['notification_settings'] },
  notification_settings_project_gone: { deletes: ['notification_settings'] },
}

/** What a write to each table can change, per connection; null for a table whose triggers are not all declared. */
const closures = new WeakMap<Db, { schema: Schema; memo: Map<string, readonly string[] | null> }>()

interface Schema {
  triggers: Map<string, string[]>
  /** By parent table: the child tables whose foreign keys delete (cascade) or update (set null or default) their rows. */
  onDelete: Map<string, { child: string; deletes: boolean }[]>
}

/** The schema's triggers by table, and what each table's foreign-key actions do when its rows are deleted. */
function readSchema(db: Db): Schema {
  const triggers = new Map<string, string[]>()
  const onDelete = new Map<string, { child: string; deletes: boolean }[]>()
  const rows = db.prepare("SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%'").all() as
    { type: string; name: string; tbl_name: string }[]
  for (const r of rows) {
    if (r.type === 'trigger') {
      triggers.set(r.tbl_name, [...(triggers.get(r.tbl_name) ?? []), r.name])
      continue
    }
    // The migrations declare no ON UPDATE action and no ON CONFLICT REPLACE constraint (a test checks both), so only
    // deleted rows set foreign-key actions off.
    for (const k of db.prepare('SELECT "table" AS parent, on_delete FROM pragma_foreign_key_list(?)').all(r.name) as { parent: string; on_delete: string }[]) {
      if (k.on_delete === 'NO ACTION' || k.on_delete === 'RESTRICT') continue
      onDelete.set(k.parent, [...(onDelete.get(k.parent) ?? []), { child: r.name, deletes: k.on_delete === 'CASCADE' }])
    }
  }
  return { triggers, onDelete }
}

/**
 * The tables a statement that writes `target` may change, sorted: the target, what its declared triggers write, and,
 * when the statement `deletes` rows (DELETE, or REPLACE of a conflicting row), what its foreign-key actions reach; and so
 * on from those. Null ("any table") when an undeclared trigger is on the way.
 */
export function tablesWrittenWith(db: Db, target: string, deletes: boolean): readonly string[] | null {
  let known = closures.get(db)
  if (!known) closures.set(db, (known = { schema: readSchema(db), memo: new Map() }))
  const { schema, memo } = known
  const key = `${target}:${deletes}`
  if (memo.has(key)) return memo.get(key)!
  const seen = new Set<string>()
  const visited = new Set<string>()
  const todo: [string, boolean][] = [[target, deletes]]
  let declared = true
  while (todo.length) {
    const [table, deleting] = todo.pop()!
    seen.add(table)
    if (visited.has(`${table}:${deleting}`)) continue
    visited.add(`${table}:${deleting}`)
    for (const trigger of schema.triggers.get(table) ?? []) {
      const writes = TRIGGER_WRITES[trigger]
      if (!writes) declared = false
      else if ('deletes' in writes) todo.push(...writes.deletes.map((t): [string, boolean] => [t, true]))
      else todo.push(...writes.map((t): [string, boolean] => [t, false]))
    }
    if (deleting) todo.push(...(schema.onDelete.get(table) ?? []).map((c): [string, boolean] => [c.child, c.deletes]))
  }
  const result = declared ? [...seen].sort() : null
  memo.set(key, result)
  return result
}
