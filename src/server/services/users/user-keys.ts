// SSH and GPG keys of users: validation as GitLab's Key and GpgKey models, per-user reads, admin writes.
import { notFound, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import * as store from '../../store/user-keys.js'
import * as users from '../../store/users.js'
import { parseSshKey, TYPE_MESSAGE } from './ssh-key-format.js'
import { getUser } from './users.js'

/** A user named by id or username, as GitLab's find_user; 404 where the caller may not read profiles. */
export function resolveUser(ctx: RequestContext, ref: string | number) {
  const byName = typeof ref === 'string' && !/^\d+$/.test(ref) ? users.findUserByUsername(ctx.app.db, ref) : undefined
  if (typeof ref === 'string' && !/^\d+$/.test(ref) && !byName) throw notFound('User')
  return getUser(ctx, byName ? byName.id : Number(ref))
}

const page = (ctx: RequestContext) => ({ limit: ctx.page.limit, offset: ctx.page.offset })

export const listKeys = <T>(ctx: RequestContext, table: 'ssh_keys' | 'gpg_keys', userId: number) =>
  store.listForUser<T>(ctx.app.db, table, userId, page(ctx))

export function findKey<T>(ctx: RequestContext, table: 'ssh_keys' | 'gpg_keys', userId: number, keyId: number) {
  const row = store.findForUser<T>(ctx.app.db, table, userId, keyId)
  if (!row) throw notFound(table === 'ssh_keys' ? 'Key' : 'GPG Key')
  return row
}

export function deleteKey(ctx: RequestContext, table: 'ssh_keys' | 'gpg_keys', userId: number, keyId: number) {
  findKey(ctx, table, userId, keyId)
  store.deleteRow(ctx.app.db, table, keyId)
}

export interface SshKeyInput { title: string; key: string; expires_at?: string; usage_type?: string }

export function addSshKey(ctx: RequestContext, userId: number, input: SshKeyInput): store.SshKeyRow {
  const db = ctx.app.db
  const errors: Record<string, string[]> = {}
  if (!input.title.trim()) errors.title = ["can't be blank"]
  const parsed = parseSshKey(input.key)
  if (!parsed) Object.assign(errors, { key: [TYPE_MESSAGE], fingerprint_sha256: ['cannot be generated'] })
  else if (store.findSshKeyByFingerprint(db, parsed.fingerprintSha256)) errors.fingerprint_sha256 = ['has already been taken']
  const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at).toISOString()
  if (expiresAt !== null && expiresAt <= nowIso(ctx)) (errors.key ??= []).push('has expired')
  if (Object.keys(errors).length || !parsed) throw validationFailed(errors)
  const id = store.insertRow(db, 'ssh_keys', {
    user_id: userId, title: input.title, key: parsed.publishable, fingerprint: parsed.fingerprint,
    fingerprint_sha256: parsed.fingerprintSha256, usage_type: input.usage_type ?? 'auth_and_signing',
    created_at: nowIso(ctx), expires_at: expiresAt,
  })
  return store.findById<store.SshKeyRow>(db, 'ssh_keys', id)!
}

const GPG_PREFIX = '-----BEGIN PGP PUBLIC KEY BLOCK-----'
const GPG_SUFFIX = '-----END PGP PUBLIC KEY BLOCK-----'

export function addGpgKey(ctx: RequestContext, userId: number, key: string): store.GpgKeyRow {
  const db = ctx.app.db
  const text = key.trim()
  const body = text.startsWith(GPG_PREFIX) && text.endsWith(GPG_SUFFIX) ? text.slice(GPG_PREFIX.length, -GPG_SUFFIX.length) : null
  if (!text) throw validationFailed({ key: ["can't be blank"] })
  // One armored block only, with something in it (GitLab's format check refuses a second BEGIN or END inside).
  if (body === null || !body.trim() || body.includes('-----BEGIN') || body.includes('-----END')) {
    throw validationFailed({ key: [`is invalid. A valid public GPG key begins with '${GPG_PREFIX}' and ends with '${GPG_SUFFIX}'`] })
  }
  if (store.findGpgKeyByText(db, text)) throw validationFailed({ key: ['has already been taken'] })
  const id = store.insertRow(db, 'gpg_keys', { user_id: userId, key: text, created_at: nowIso(ctx) })
  return store.findById<store.GpgKeyRow>(db, 'gpg_keys', id)!
}

/** GET /keys?fingerprint=: MD5 (`aa:bb:…`, optionally `MD5:`-prefixed) or `SHA256:…`. */
export function findKeyByFingerprint(ctx: RequestContext, fingerprint: string) {
  const row = fingerprint.startsWith('SHA256:')
    ? store.findSshKeyByFingerprint(ctx.app.db, fingerprint)
    : store.findSshKeyByMd5(ctx.app.db, fingerprint.replace(/^MD5:/, '').toLowerCase())
  if (!row) throw notFound('Key')
  return row
}

/** The user a key belongs to (keys go with their user, so one always exists). */
export const ownerOf = (ctx: RequestContext, k: { user_id: number }) => users.findUserById(ctx.app.db, k.user_id)!

export function findKeyById(ctx: RequestContext, id: number) {
  const row = store.findById<store.SshKeyRow>(ctx.app.db, 'ssh_keys', id)
  if (!row) throw notFound('Key')
  return row
}
