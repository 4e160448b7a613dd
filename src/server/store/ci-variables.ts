// Project CI/CD variables (/projects/:id/variables): one row per key and environment scope.
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

export function listVariables(db: Db, projectId: number, limit: number, offset: number) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM ci_variables WHERE project_id = ?').get(projectId) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM ci_variables WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?').all(projectId, limit, offset) as CiVariableRow[]
  return { rows: openedRows(db, 'value', rows), total }
}

/** Every variable of a project, for a job's environment. */
export const allVariables = (db: Db, projectId: number) =>
  openedRows(db, 'value', stmt(db, 'SELECT * FROM ci_variables WHERE project_id = ? ORDER BY id').all(projectId) as CiVariableRow[])

/** Rows with this key, of one environment scope when given. */
export function findVariables(db: Db, projectId: number, key: string, scope?: string) {
  const rows = scope === undefined
    ? stmt(db, 'SELECT * FROM ci_variables WHERE project_id = ? AND key = ? ORDER BY id').all(projectId, key)
    : stmt(db, 'SELECT * FROM ci_variables WHERE project_id = ? AND key = ? AND environment_scope = ? ORDER BY id').all(projectId, key, scope)
  return openedRows(db, 'value', rows as CiVariableRow[])
}

export function insertVariable(db: Db, projectId: number, v: CiVariableFields): CiVariableRow {
  return opened(db, 'value', write(db, 'ci_variables', `INSERT INTO ci_variables (project_id, key, value, variable_type, protected, masked, raw, environment_scope, description)
    VALUES (@project_id, @key, @value, @variable_type, @protected, @masked, @raw, @environment_scope, @description) RETURNING *`)
    .get({ ...v, value: sealSecret(db, v.value), project_id: projectId }) as CiVariableRow)
}

export function updateVariable(db: Db, id: number, v: CiVariableFields): CiVariableRow {
  return opened(db, 'value', write(db, 'ci_variables', `UPDATE ci_variables SET key = @key, value = @value, variable_type = @variable_type, protected = @protected,
    masked = @masked, raw = @raw, environment_scope = @environment_scope, description = @description WHERE id = @id RETURNING *`)
    .get({ ...v, value: sealSecret(db, v.value), id }) as CiVariableRow)
}

export const deleteVariable = (db: Db, id: number) => write(db, 'ci_variables', 'DELETE FROM ci_variables WHERE id = ?').run(id)
