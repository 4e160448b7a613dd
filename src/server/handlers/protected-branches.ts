// Protected branches: the protected_branches API and the legacy protect/unprotect routes of branches.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentProtectedBranch } from '../present/protected-branches.js'
import { presentBranch } from '../present/refs.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as rules from '../services/repository/index.js'
import { getBranchView } from '../services/repository/index.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)

export const protectedBranchHandlers = {
  listProtectedBranches: (input, ctx) => {
    const { rows, total } = rules.listRules(ctx, project(ctx, input.id), input.search)
    return { status: 200, body: rows.map(presentProtectedBranch), total }
  },
  getProtectedBranch: (input, ctx) => ({ status: 200, body: presentProtectedBranch(rules.getRule(ctx, project(ctx, input.id), input.name)) }),
  protectBranch: (input, ctx) => ({ status: 201, body: presentProtectedBranch(rules.protect(ctx, project(ctx, input.id), input)) }),
  updateProtectedBranch: (input, ctx) => ({
    status: 200, body: presentProtectedBranch(rules.updateRule(ctx, project(ctx, input.id), input.name, input)),
  }),
  unprotectBranch: (input, ctx) => {
    rules.unprotect(ctx, project(ctx, input.id), input.name)
    return { status: 204 }
  },

  // GitLab finds the branch first (404 Branch Not Found), then changes the rule, then presents the branch.
  protectRepositoryBranch: async (input, ctx) => {
    const p = project(ctx, input.id)
    rules.requireManageRules(ctx, p)
    const branch = await getBranchView(ctx, p, input.branch)
    rules.protectLegacy(ctx, p, branch.name, input)
    return { status: 200, body: presentBranch(await getBranchView(ctx, p, branch.name), p, ctx) }
  },
  unprotectRepositoryBranch: async (input, ctx) => {
    const p = project(ctx, input.id)
    rules.requireManageRules(ctx, p)
    const branch = await getBranchView(ctx, p, input.branch)
    rules.unprotectLegacy(ctx, p, branch.name)
    return { status: 200, body: presentBranch(await getBranchView(ctx, p, branch.name), p, ctx) }
  },
} satisfies Handlers<typeof contract.protectedBranches>
