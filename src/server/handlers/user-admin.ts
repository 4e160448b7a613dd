// Administration of users.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentUserPublic } from '../present/users.js'
import * as admin from '../services/user-admin.js'
import { deleteUser } from '../services/user-delete.js'
import { canCreateProject } from '../services/users.js'

const state = (action: Parameters<typeof admin.changeState>[2]) =>
  (input: { id: number }, ctx: Parameters<typeof admin.changeState>[0]) => ({ status: 201, body: admin.changeState(ctx, input.id, action) })

export const userAdminHandlers = {
  updateUser: async (input, ctx) => {
    const { id, ...fields } = input
    const user = await admin.updateUser(ctx, id, fields)
    return { status: 200, body: presentUserPublic(user, ctx, canCreateProject(ctx.app, user)) }
  },

  deleteUser: async (input, ctx) => {
    await deleteUser(ctx, input.id, input.hard_delete === true)
    return { status: 204 }
  },

  blockUser: state('block'),
  unblockUser: state('unblock'),
  banUser: state('ban'),
  unbanUser: state('unban'),
  activateUser: state('activate'),
  deactivateUser: state('deactivate'),
} satisfies Handlers<typeof contract.userAdmin>
