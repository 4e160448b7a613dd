// CI/CD variables of a project or a group (one row per key and environment scope, in ci_variables and
// ci_group_variables), and what instance variables (ci-group-variables.ts) write alike.
import { stmt, write, type Db } from './db.js'
import { opened, openedRows, sealSecret } from './secrets.js'

export interface CiVariableRow {
  id: number
  project_id: number
  key: string
  value: string
  variable_type: string
  protected: number
  masked: number
  raw: number
  environment_scope: string
  description: string | null
}

export type CiVariableFields = Omit<CiVariableRow, 'id' | 'project_id'>
export type GroupVariableRow = Omit<CiVariableRow, 'project_id'> & { group_id: number }
export type VariableRow = CiVariableFields & { id: number }

/** Whose variables: a project's or a group's. */
export interface VariableOwner { kind: 'project' | 'group'; id: number }

const TABLES = { project: { table: 'ci_variables', column: 'project_id' }, group: { table: 'ci_group_variables', column: 'group_id' } } as const

/** A page of a table's rows matching `where`, their values opened. */
export const variablePage = (db: Db, table: string, where: string, args: unknown[], limit: number, offset: number) => ({
  total: (stmt(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...args) as { n: number }).n,
  rows: openedRows(db, 'value', stmt(db, `SELECT * FROM ${table} WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`).all(...args, limit, offset) as { value: string }[]),
})

export const listVariables = (db: Db, o: VariableOwner, limit: number, offset: number) =>
  variablePage(db, TABLES[o.kind].table, `${TABLES[o.kind].column} = ?`, [o.id], limit, offset) as { total: number; rows: VariableRow[] }

/** Every variable of a project, for a job's environment. */
export const allVariables = (db: Db, projectId: number) =>
  openedRows(db, 'value', stmt(db, 'SELECT * FROM ci_variables WHERE project_id = ? ORDER BY id').all(projectId) as CiVariableRow[])

/** Rows with this key, of one environment scope when given. */
export function findVariables(db: Db, o: VariableOwner, key: string, scope?: string) {
  const { table, column } = TABLES[o.kind]
  const rows = scope === undefined
    ? stmt(db, `SELECT * FROM ${table} WHERE ${column} = ? AND key = ? ORDER BY id`).all(o.id, key)
    : stmt(db, `SELECT * FROM ${table} WHERE ${column} = ? AND key = ? AND environment_scope = ? ORDER BY id`).all(o.id, key, scope)
  return openedRows(db, 'value', rows as VariableRow[])
}

export const VARIABLE_COLUMNS = 'key, value, variable_type, protected, masked, raw, description'
export const VARIABLE_VALUES = '@key, @value, @variable_type, @protected, @masked, @raw, @description'
export const VARIABLE_SETS = 'key = @key, value = @value, variable_type = @variable_type, protected = @protected, masked = @masked, raw = @raw, description = @description'

/** Runs a write of a variable with its value sealed, and answers the written row with it opened. */
export const writtenVariable = <T extends { value: string }>(db: Db, table: string, sql: string, v: { value: string }, extra: Record<string, unknown>) =>
  opened(db, 'value', write(db, table, sql).get({ ...v, ...extra, value: sealSecret(db, v.value) }) as T)

export function insertVariable(db: Db, o: VariableOwner, v: CiVariableFields): VariableRow {
  const { table, column } = TABLES[o.kind]
  return writtenVariable(db, table, `INSERT INTO ${table} (${column}, environment_scope, ${VARIABLE_COLUMNS})
    VALUES (@owner, @environment_scope, ${VARIABLE_VALUES}) RETURNING *`, v, { owner: o.id })
}

export const updateVariable = (db: Db, o: VariableOwner, id: number, v: CiVariableFields): VariableRow => writtenVariable(db, TABLES[o.kind].table,
  `UPDATE ${TABLES[o.kind].table} SET environment_scope = @environment_scope, ${VARIABLE_SETS} WHERE id = @id RETURNING *`, v, { id })

export const deleteVariable = (db: Db, o: VariableOwner, id: number) => write(db, TABLES[o.kind].table, `DELETE FROM ${TABLES[o.kind].table} WHERE id = ?`).run(id)
