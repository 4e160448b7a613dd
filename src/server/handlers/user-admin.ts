// Administration of users.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentUserBasic, presentUserPublic } from '../present/users.js'
import { checkAvatar, saveAvatar } from '../services/markup/index.js'
import * as admin from '../services/users/index.js'
import { deleteUser } from '../services/users/index.js'
import { deleteIdentity } from '../services/users/index.js'
import { publicFacts } from '../services/users/index.js'

const state = (action: Parameters<typeof admin.changeState>[2]) =>
  (input: { id: number }, ctx: Parameters<typeof admin.changeState>[0]) => ({ status: 201, body: admin.changeState(ctx, input.id, action) })

export const userAdminHandlers = {
  updateUser: async (input, ctx) => {
    const { id, avatar, ...fields } = input
    checkAvatar(avatar)
    let user = await admin.updateUser(ctx, id, fields)
    if (avatar) user = await saveAvatar(ctx.app, user.id, avatar)
    return { status: 200, body: presentUserPublic(user, ctx, publicFacts(ctx.app, user)) }
  },

  setOwnAvatar: async (input, ctx) => {
    checkAvatar(input.avatar)
    const user = await saveAvatar(ctx.app, ctx.user!.id, input.avatar)
    return { status: 200, body: { avatar_url: presentUserBasic(user, ctx).avatar_url } }
  },

  deleteUser: async (input, ctx) => {
    await deleteUser(ctx, input.id, input.hard_delete === true)
    return { status: 204 }
  },

  deleteUserIdentity: (input, ctx) => {
    deleteIdentity(ctx, admin.findUserForAdmin(ctx, input.id).id, input.provider)
    return { status: 204 }
  },

  blockUser: state('block'),
  unblockUser: state('unblock'),
  banUser: state('ban'),
  unbanUser: state('unban'),
  activateUser: state('activate'),
  deactivateUser: state('deactivate'),
} satisfies Handlers<typeof contract.userAdmin>
