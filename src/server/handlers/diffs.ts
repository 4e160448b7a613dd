// Diffs as bots read them: a merge request's diffs (paginated) and raw patch, and the comparison of two refs.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentCompare, presentDiff } from '../present/commits.js'
import { mergeRequestChanges, mergeRequestPatch } from '../services/merge-requests/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { compareRefs } from '../services/repository/index.js'
import { target } from './merge-requests.js'

/** Grape's no_cache_headers, as GitLab sends them with raw diffs. */
const NO_CACHE = { 'Cache-Control': 'no-cache, no-store', 'Pragma': 'no-cache', 'Expires': 'Fri, 01 Jan 1990 00:00:00 GMT' }

export const diffHandlers = {
  listMergeRequestDiffs: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    const files = await mergeRequestChanges(ctx, project, mr)
    const shown = files.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
    return { status: 200, body: shown.map((f) => presentDiff(f, { unidiff: input.unidiff, limits: true })), total: files.length }
  },

  getMergeRequestRawDiffs: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    const text = Buffer.from(await mergeRequestPatch(ctx, project, mr))
    return { status: 200, raw: text, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(text.length), ...NO_CACHE } }
  },

  compareRefs: async (input, ctx) => {
    const comparison = await compareRefs(ctx, findVisibleProject(ctx, input.id), input)
    return { status: 200, body: presentCompare(comparison, ctx, { unidiff: input.unidiff }) }
  },
} satisfies Handlers<typeof contract.diffs>
