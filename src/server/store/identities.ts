// Users' accounts at external providers (GitLab's identities): one per provider per user.
import { stmt, write, type Db } from './db.js'

export interface IdentityRow { id: number; user_id: number; provider: string; extern_uid: string; saml_provider_id: number | null; created_at: string }

export const listUserIdentities = (db: Db, userId: number) =>
  stmt(db, 'SELECT * FROM identities WHERE user_id = ? ORDER BY id').all(userId) as IdentityRow[]

export const findUserIdentity = (db: Db, userId: number, provider: string) =>
  stmt(db, 'SELECT * FROM identities WHERE user_id = ? AND provider = ?').get(userId, provider) as IdentityRow | undefined

/** The identity naming `externUid` at `provider`, compared without case as GitLab's Identity.with_extern_uid. */
export const findIdentityByExternUid = (db: Db, provider: string, externUid: string) =>
  stmt(db, 'SELECT * FROM identities WHERE provider = ? AND extern_uid = ? COLLATE NOCASE').get(provider, externUid) as IdentityRow | undefined

/** Sets the user's extern_uid at the provider, adding the identity if the user has none there. */
export function upsertIdentity(db: Db, i: { user_id: number; provider: string; extern_uid: string; created_at: string }) {
  write(db, 'identities', `INSERT INTO identities (user_id, provider, extern_uid, created_at) VALUES (@user_id, @provider, @extern_uid, @created_at)
    ON CONFLICT (user_id, provider) DO UPDATE SET extern_uid = excluded.extern_uid`).run(i)
}

export const deleteIdentity = (db: Db, id: number) => write(db, 'identities', 'DELETE FROM identities WHERE id = ?').run(id)
