// Custom attributes: key/value pairs administrators attach to users, groups and projects.
import { stmt, write, type Db } from './db.js'

export type Subject = 'user' | 'group' | 'project'

export const listAttributes = (db: Db, subject: Subject, id: number) =>
  stmt(db, 'SELECT key, value FROM custom_attributes WHERE subject = ? AND subject_id = ? ORDER BY key').all(subject, id) as { key: string; value: string }[]

export const findAttribute = (db: Db, subject: Subject, id: number, key: string) =>
  stmt(db, 'SELECT key, value FROM custom_attributes WHERE subject = ? AND subject_id = ? AND key = ?').get(subject, id, key) as { key: string; value: string } | undefined

export const upsertAttribute = (db: Db, subject: Subject, id: number, key: string, value: string) =>
  write(db, 'custom_attributes', `INSERT INTO custom_attributes (subject, subject_id, key, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (subject, subject_id, key) DO UPDATE SET value = excluded.value`).run(subject, id, key, value)

export const deleteAttribute = (db: Db, subject: Subject, id: number, key: string) =>
  write(db, 'custom_attributes', 'DELETE FROM custom_attributes WHERE subject = ? AND subject_id = ? AND key = ?').run(subject, id, key).changes
