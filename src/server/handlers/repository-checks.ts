// Repository checks of one project (administrators only).
import type { contract } from '../../contract/index.js'
import { CollabError } from '../../core/errors.js'
import type { Handlers } from '../http/mount.js'
import { findVisibleProject } from '../services/projects/index.js'
import { checkRepository, findRepositoryCheck } from '../services/repository/index.js'

const noGit = () => new CollabError('GIT_UNAVAILABLE', 'git is not installed on the server: repository checks need it.', { status: 503 })

export const repositoryCheckHandlers = {
  getRepositoryCheck: (input, ctx) => ({ status: 200, body: findRepositoryCheck(ctx.app, findVisibleProject(ctx, input.id).id) }),
  runRepositoryCheck: async (input, ctx) => {
    const result = await checkRepository(ctx.app, findVisibleProject(ctx, input.id).id)
    if (!result) throw noGit()
    return { status: 201, body: result }
  },
} satisfies Handlers<typeof contract.repositoryChecks>
