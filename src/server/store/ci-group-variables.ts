// Group CI/CD variables (one row per key and environment scope) and instance ones (one per key).
import { ancestorGroupIds } from './badges.js'
import type { CiVariableFields, CiVariableRow } from './ci-variables.js'
import { stmt, write, type Db } from './db.js'
import { opened, openedRows, sealSecret } from './secrets.js'

export type GroupVariableRow = Omit<CiVariableRow, 'project_id'> & { group_id: number }
export type InstanceVariableRow = Omit<CiVariableRow, 'project_id' | 'environment_scope'>
export type InstanceVariableFields = Omit<CiVariableFields, 'environment_scope'>

const page = (db: Db, table: string, where: string, args: unknown[], limit: number, offset: number) => ({
  total: (stmt(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...args) as { n: number }).n,
  rows: openedRows(db, 'value', stmt(db, `SELECT * FROM ${table} WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset) as { value: string }[]),
})

export const listGroupVariables = (db: Db, groupId: number, limit: number, offset: number) =>
  page(db, 'ci_group_variables', 'group_id = ?', [groupId], limit, offset) as { total: number; rows: GroupVariableRow[] }

/** Rows with this key, of one environment scope when given. */
export function findGroupVariables(db: Db, groupId: number, key: string, scope?: string) {
  const rows = scope === undefined
    ? stmt(db, 'SELECT * FROM ci_group_variables WHERE group_id = ? AND key = ? ORDER BY id').all(groupId, key)
    : stmt(db, 'SELECT * FROM ci_group_variables WHERE group_id = ? AND key = ? AND environment_scope = ? ORDER BY id').all(groupId, key, scope)
  return openedRows(db, 'value', rows as GroupVariableRow[])
}

const COLUMNS = 'key, value, variable_type, protected, masked, raw, description'
const VALUES = '@key, @value, @variable_type, @protected, @masked, @raw, @description'
const SETS = 'key = @key, value = @value, variable_type = @variable_type, protected = @protected, masked = @masked, raw = @raw, description = @description'

/** Runs a write of a variable with its value sealed, and answers the written row with it opened. */
const written = <T extends { value: string }>(db: Db, table: string, sql: string, v: { value: string }, extra: Record<string, unknown>) =>
  opened(db, 'value', write(db, table, sql).get({ ...v, ...extra, value: sealSecret(db, v.value) }) as T)

export const insertGroupVariable = (db: Db, groupId: number, v: CiVariableFields) => written<GroupVariableRow>(db, 'ci_group_variables',
  `INSERT INTO ci_group_variables (group_id, environment_scope, ${COLUMNS}) VALUES (@group_id, @environment_scope, ${VALUES}) RETURNING *`,
  v, { group_id: groupId })

export const updateGroupVariable = (db: Db, id: number, v: CiVariableFields) => written<GroupVariableRow>(db, 'ci_group_variables',
  `UPDATE ci_group_variables SET environment_scope = @environment_scope, ${SETS} WHERE id = @id RETURNING *`, v, { id })

export const deleteGroupVariable = (db: Db, id: number) => write(db, 'ci_group_variables', 'DELETE FROM ci_group_variables WHERE id = ?').run(id)

export const listInstanceVariables = (db: Db, limit: number, offset: number) =>
  page(db, 'ci_instance_variables', '1 = 1', [], limit, offset) as { total: number; rows: InstanceVariableRow[] }

export function findInstanceVariable(db: Db, key: string) {
  const row = stmt(db, 'SELECT * FROM ci_instance_variables WHERE key = ?').get(key) as InstanceVariableRow | undefined
  return row && opened(db, 'value', row)
}

export const insertInstanceVariable = (db: Db, v: InstanceVariableFields) =>
  written<InstanceVariableRow>(db, 'ci_instance_variables', `INSERT INTO ci_instance_variables (${COLUMNS}) VALUES (${VALUES}) RETURNING *`, v, {})

export const updateInstanceVariable = (db: Db, id: number, v: InstanceVariableFields) =>
  written<InstanceVariableRow>(db, 'ci_instance_variables', `UPDATE ci_instance_variables SET ${SETS} WHERE id = @id RETURNING *`, v, { id })

export const deleteInstanceVariable = (db: Db, id: number) => write(db, 'ci_instance_variables', 'DELETE FROM ci_instance_variables WHERE id = ?').run(id)

/**
 * The instance's variables, then those of the group and its ancestors farthest first, for a job's environment:
 * later rows win, so a nearer group overrides a farther one and any group the instance.
 */
export function inheritedVariables(db: Db, groupId: number | null): (InstanceVariableRow | GroupVariableRow)[] {
  const out: (InstanceVariableRow | GroupVariableRow)[] = stmt(db, 'SELECT * FROM ci_instance_variables ORDER BY id').all() as InstanceVariableRow[]
  if (groupId !== null) {
    const byGroup = stmt(db, 'SELECT * FROM ci_group_variables WHERE group_id = ? ORDER BY id')
    for (const id of ancestorGroupIds(db, groupId).reverse()) out.push(...(byGroup.all(id) as GroupVariableRow[]))
  }
  return openedRows(db, 'value', out)
}
