// Protected tags: the protected_tags API.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentProtectedTag } from '../present/protected-tags.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as rules from '../services/repository/index.js'

export const protectedTagHandlers = {
  listProtectedTags: (input, ctx) => {
    const { rows, total } = rules.listTagRules(ctx, findVisibleProject(ctx, input.id))
    return { status: 200, body: rows.map(presentProtectedTag), total }
  },
  getProtectedTag: (input, ctx) => ({ status: 200, body: presentProtectedTag(rules.getTagRule(ctx, findVisibleProject(ctx, input.id), input.name)) }),
  protectTag: (input, ctx) => ({ status: 201, body: presentProtectedTag(rules.protectTag(ctx, findVisibleProject(ctx, input.id), input)) }),
  unprotectTag: (input, ctx) => {
    rules.unprotectTag(ctx, findVisibleProject(ctx, input.id), input.name)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.protectedTags>
