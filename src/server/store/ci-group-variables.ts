// Instance CI/CD variables (one per key), and what a job inherits from the instance and its project's groups.
import { ancestorGroupIds } from './badges.js'
import {
  VARIABLE_COLUMNS as COLUMNS, VARIABLE_SETS as SETS, VARIABLE_VALUES as VALUES, variablePage as page, writtenVariable as written,
  type CiVariableFields, type CiVariableRow, type GroupVariableRow,
} from './ci-variables.js'
import { stmt, write, type Db } from './db.js'
import { opened, openedRows } from './secrets.js'

export type InstanceVariableRow = Omit<CiVariableRow, 'project_id' | 'environment_scope'>
export type InstanceVariableFields = Omit<CiVariableFields, 'environment_scope'>

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
