// SSH keys, GPG keys, emails and status of users.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentEmail, presentGpgKey, presentSshKey, presentStatus } from '../present/user-keys.js'
import { presentUserPublic } from '../present/users.js'
import * as mail from '../services/users/index.js'
import { findUserForAdmin } from '../services/users/index.js'
import * as keys from '../services/users/index.js'
import { publicFacts } from '../services/users/index.js'
import type { GpgKeyRow, SshKeyRow } from '../store/user-keys.js'

const me = (ctx: RequestContext) => ctx.user!.id
const ok = <T>(body: T) => ({ status: 200, body })
const created = <T>(body: T) => ({ status: 201, body })
const gone = () => ({ status: 204 as const })

const sshList = (ctx: RequestContext, userId: number) => {
  const { rows, total } = keys.listKeys<SshKeyRow>(ctx, 'ssh_keys', userId)
  return { status: 200, body: rows.map(presentSshKey), total }
}
const gpgList = (ctx: RequestContext, userId: number) => {
  const { rows, total } = keys.listKeys<GpgKeyRow>(ctx, 'gpg_keys', userId)
  return { status: 200, body: rows.map(presentGpgKey), total }
}
const emailList = (ctx: RequestContext, userId: number) => {
  const { rows, total } = mail.listEmails(ctx, userId)
  return { status: 200, body: rows.map(presentEmail), total }
}
const withUser = (ctx: RequestContext, k: SshKeyRow) => {
  const owner = keys.ownerOf(ctx, k)
  return { ...presentSshKey(k), user: presentUserPublic(owner, ctx, publicFacts(ctx.app, owner)) }
}

export const userKeyHandlers = {
  listOwnSshKeys: (_i, ctx) => sshList(ctx, me(ctx)),
  getOwnSshKey: (i, ctx) => ok(presentSshKey(keys.findKey<SshKeyRow>(ctx, 'ssh_keys', me(ctx), i.key_id))),
  addOwnSshKey: (i, ctx) => created(presentSshKey(keys.addSshKey(ctx, me(ctx), i))),
  deleteOwnSshKey: (i, ctx) => { keys.deleteKey(ctx, 'ssh_keys', me(ctx), i.key_id); return gone() },
  listUserSshKeys: (i, ctx) => sshList(ctx, keys.resolveUser(ctx, i.id).id),
  getUserSshKey: (i, ctx) => ok(presentSshKey(keys.findKey<SshKeyRow>(ctx, 'ssh_keys', keys.resolveUser(ctx, i.id).id, i.key_id))),
  addUserSshKey: (i, ctx) => { const { id, ...input } = i; return created(presentSshKey(keys.addSshKey(ctx, findUserForAdmin(ctx, id).id, input))) },
  deleteUserSshKey: (i, ctx) => { keys.deleteKey(ctx, 'ssh_keys', findUserForAdmin(ctx, i.id).id, i.key_id); return gone() },
  getSshKeyById: (i, ctx) => ok(withUser(ctx, keys.findKeyById(ctx, i.key_id))),
  findSshKeyByFingerprint: (i, ctx) => ok(withUser(ctx, keys.findKeyByFingerprint(ctx, i.fingerprint))),

  listOwnGpgKeys: (_i, ctx) => gpgList(ctx, me(ctx)),
  getOwnGpgKey: (i, ctx) => ok(presentGpgKey(keys.findKey<GpgKeyRow>(ctx, 'gpg_keys', me(ctx), i.key_id))),
  addOwnGpgKey: (i, ctx) => created(presentGpgKey(keys.addGpgKey(ctx, me(ctx), i.key))),
  deleteOwnGpgKey: (i, ctx) => { keys.deleteKey(ctx, 'gpg_keys', me(ctx), i.key_id); return gone() },
  listUserGpgKeys: (i, ctx) => gpgList(ctx, findUserForAdmin(ctx, i.id).id),
  getUserGpgKey: (i, ctx) => ok(presentGpgKey(keys.findKey<GpgKeyRow>(ctx, 'gpg_keys', findUserForAdmin(ctx, i.id).id, i.key_id))),
  addUserGpgKey: (i, ctx) => created(presentGpgKey(keys.addGpgKey(ctx, findUserForAdmin(ctx, i.id).id, i.key))),
  deleteUserGpgKey: (i, ctx) => { keys.deleteKey(ctx, 'gpg_keys', findUserForAdmin(ctx, i.id).id, i.key_id); return gone() },
  revokeOwnGpgKey: (i, ctx) => { keys.deleteKey(ctx, 'gpg_keys', me(ctx), i.key_id); return { status: 202 as const } },
  revokeUserGpgKey: (i, ctx) => { keys.deleteKey(ctx, 'gpg_keys', findUserForAdmin(ctx, i.id).id, i.key_id); return { status: 202 as const } },

  listOwnEmails: (_i, ctx) => emailList(ctx, me(ctx)),
  getOwnEmail: (i, ctx) => ok(presentEmail(mail.findEmail(ctx, me(ctx), i.email_id))),
  addOwnEmail: (i, ctx) => created(presentEmail(mail.addEmail(ctx, me(ctx), i.email, false))),
  deleteOwnEmail: (i, ctx) => { mail.deleteEmail(ctx, me(ctx), i.email_id); return gone() },
  listUserEmails: (i, ctx) => emailList(ctx, findUserForAdmin(ctx, i.id).id),
  addUserEmail: (i, ctx) => created(presentEmail(mail.addEmail(ctx, findUserForAdmin(ctx, i.id).id, i.email, i.skip_confirmation === true))),
  deleteUserEmail: (i, ctx) => { mail.deleteEmail(ctx, findUserForAdmin(ctx, i.id).id, i.email_id); return gone() },

  getOwnStatus: (_i, ctx) => ok(presentStatus(mail.currentStatus(ctx, me(ctx)))),
  setOwnStatus: (i, ctx) => ok(presentStatus(mail.setStatus(ctx, me(ctx), i, false))),
  patchOwnStatus: (i, ctx) => ok(presentStatus(mail.setStatus(ctx, me(ctx), i, true))),
  getUserStatus: (i, ctx) => ok(presentStatus(mail.currentStatus(ctx, keys.resolveUser(ctx, i.id).id))),
} satisfies Handlers<typeof contract.userKeys>
