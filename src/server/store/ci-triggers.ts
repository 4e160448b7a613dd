// Pipeline trigger tokens of projects, found by the SHA-256 of their token.
import { stmt, write, type Db } from './db.js'
import { opened, openedRows, sealSecret } from './secrets.js'

export interface TriggerRow {
  id: number
  project_id: number
  owner_id: number | null
  description: string
  token: string
  token_hash: string
  created_at: string
  updated_at: string
  expires_at: string | null
  last_used: string | null
}

export function listTriggers(db: Db, projectId: number, limit: number, offset: number) {
  const total = (stmt(db, 'SELECT COUNT(*) AS n FROM ci_triggers WHERE project_id = ?').get(projectId) as { n: number }).n
  const rows = stmt(db, 'SELECT * FROM ci_triggers WHERE project_id = ? ORDER BY id LIMIT ? OFFSET ?').all(projectId, limit, offset) as TriggerRow[]
  return { rows: openedRows(db, 'token', rows), total }
}

/** The token column holds the sealed token; rows leave the store with it opened. */
const openedTrigger = (db: Db, row: unknown) => (row === undefined ? undefined : opened(db, 'token', row as TriggerRow))

export const findProjectTrigger = (db: Db, projectId: number, id: number) =>
  openedTrigger(db, stmt(db, 'SELECT * FROM ci_triggers WHERE project_id = ? AND id = ?').get(projectId, id))

export const findTriggerByHash = (db: Db, hash: string) => openedTrigger(db, stmt(db, 'SELECT * FROM ci_triggers WHERE token_hash = ?').get(hash))

export const insertTrigger = (db: Db, t: Omit<TriggerRow, 'id' | 'last_used'>) => openedTrigger(db,
  write(db, 'ci_triggers', `INSERT INTO ci_triggers (project_id, owner_id, description, token, token_hash, created_at, updated_at, expires_at)
    VALUES (@project_id, @owner_id, @description, @token, @token_hash, @created_at, @updated_at, @expires_at) RETURNING *`).get({ ...t, token: sealSecret(db, t.token) }))!

export const updateTriggerDescription = (db: Db, id: number, description: string, at: string) =>
  openedTrigger(db, write(db, 'ci_triggers', 'UPDATE ci_triggers SET description = ?, updated_at = ? WHERE id = ? RETURNING *').get(description, at, id))!

export const markTriggerUsed = (db: Db, id: number, at: string) => write(db, 'ci_triggers', 'UPDATE ci_triggers SET last_used = ? WHERE id = ?').run(at, id)

export const deleteTrigger = (db: Db, id: number) => write(db, 'ci_triggers', 'DELETE FROM ci_triggers WHERE id = ?').run(id)

/** Which trigger made a pipeline, with the token's first characters as its jobs see them. */
export const recordTriggeredPipeline = (db: Db, pipelineId: number, triggerId: number, shortToken: string) =>
  write(db, 'ci_trigger_pipelines', 'INSERT INTO ci_trigger_pipelines (pipeline_id, trigger_id, short_token) VALUES (?, ?, ?)').run(pipelineId, triggerId, shortToken)

export const triggerShortToken = (db: Db, pipelineId: number) =>
  (stmt(db, 'SELECT short_token FROM ci_trigger_pipelines WHERE pipeline_id = ?').get(pipelineId) as { short_token: string } | undefined)?.short_token

/** GitLab's short_token: four characters after the prefix. */
