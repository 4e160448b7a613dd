// A project's repository storage and snapshot, for administrators (the mount answers 401 and 403 first).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentProjectStorage } from '../present/project-storage.js'
import { findVisibleProject } from '../services/projects/index.js'
import { diskPathOf, projectSnapshot, REPOSITORY_STORAGE } from '../services/projects/index.js'

export const projectStorageHandlers = {
  getProjectStorage: (input, ctx) => {
    const p = findVisibleProject(ctx, input.id)
    return { status: 200, body: presentProjectStorage(p, { diskPath: diskPathOf(ctx, p), name: REPOSITORY_STORAGE }) }
  },

  // Workhorse's SendSnapshot headers: no length (the tar is made as it is sent), binary, private.
  getProjectSnapshot: async (input, ctx) => ({
    status: 200, stream: await projectSnapshot(ctx, findVisibleProject(ctx, input.id), input.wiki ?? false),
    headers: {
      'Content-Type': 'application/x-tar', 'Content-Disposition': 'attachment; filename="snapshot.tar"',
      'Content-Transfer-Encoding': 'binary', 'Cache-Control': 'private',
    },
  }),
} satisfies Handlers<typeof contract.projectStorage>
