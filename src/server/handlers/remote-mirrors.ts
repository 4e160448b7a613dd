// Push mirrors: the remote_mirrors API.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentRemoteMirror } from '../present/remote-mirrors.js'
import * as mirrors from '../services/repository/index.js'

export const remoteMirrorHandlers = {
  listRemoteMirrors: (input, ctx) => {
    const { rows, total } = mirrors.listMirrors(ctx, mirrors.mirrorsProject(ctx, input.id))
    return { status: 200, body: rows.map(presentRemoteMirror), total }
  },
  getRemoteMirror: (input, ctx) => {
    const project = mirrors.mirrorsProject(ctx, input.id)
    return { status: 200, body: presentRemoteMirror(mirrors.findMirror(ctx, project, input.mirror_id)) }
  },
  createRemoteMirror: async (input, ctx) => {
    const { id, ...fields } = input
    return { status: 201, body: presentRemoteMirror(await mirrors.createMirror(ctx, mirrors.mirrorsProject(ctx, id), fields)) }
  },
  updateRemoteMirror: (input, ctx) => {
    const { id, mirror_id, ...fields } = input
    const mirror = mirrors.findMirror(ctx, mirrors.mirrorsProject(ctx, id), mirror_id)
    return { status: 200, body: presentRemoteMirror(mirrors.updateMirror(ctx, mirror, fields)) }
  },
  deleteRemoteMirror: (input, ctx) => {
    mirrors.deleteMirror(ctx, mirrors.findMirror(ctx, mirrors.mirrorsProject(ctx, input.id), input.mirror_id))
    return { status: 204 }
  },
  syncRemoteMirror: (input, ctx) => {
    mirrors.syncMirror(ctx, mirrors.findMirror(ctx, mirrors.mirrorsProject(ctx, input.id), input.mirror_id))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.remoteMirrors>
