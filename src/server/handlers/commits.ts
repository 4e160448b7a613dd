// The Commits API: commits, diffs, refs, cherry-picks, comments and statuses.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCommitComment, presentCommitStatus } from '../present/commit-notes.js'
import { presentCommit, presentDiff } from '../present/commits.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { createComment, listComments } from '../services/repository/index.js'
import { commitStatus, listStatuses, postStatus } from '../services/ci/index.js'
import * as commits from '../services/repository/index.js'
import { commitMergeRequests } from '../services/merge-requests/index.js'
import { bundles as mergeRequestBundles } from '../services/merge-requests/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { lastPipelineOf } from '../services/ci/index.js'
import { commitOr404, requireReadCode } from '../services/repository/index.js'
import { getUser } from '../services/users/index.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)

export const commitHandlers = {
  listCommits: async (input, ctx) => {
    const p = project(ctx, input.id)
    // Above 10,000 commits no total is known: X-Total, X-Total-Pages and the `last` link are left out, as GitLab does.
    const { commits: list, hasNextPage, total } = await commits.listCommitsPage(ctx, p, input)
    const body = []
    for (const c of list) body.push(presentCommit(c, p, ctx, input.with_stats ? { stats: await commits.statsOf(ctx, p, c.id) } : {}))
    return { status: 200, body, hasNextPage, total }
  },

  createCommit: async (input, ctx) => {
    const p = project(ctx, input.id)
    const c = await commits.createCommit(ctx, p, input)
    const stats = input.stats === false ? undefined : await commits.statsOf(ctx, p, c.id)
    return { status: 201, body: presentCommit(c, p, ctx, { stats, status: commitStatus(ctx, p.id, c.id), lastPipeline: lastPipelineOf(ctx, p, c.id) }) }
  },

  getCommit: async (input, ctx) => {
    const p = project(ctx, input.id)
    const c = await commits.getCommit(ctx, p, input.sha)
    const stats = input.stats === false ? undefined : await commits.statsOf(ctx, p, c.id)
    return { status: 200, body: presentCommit(c, p, ctx, { stats, status: commitStatus(ctx, p.id, c.id), lastPipeline: lastPipelineOf(ctx, p, c.id) }) }
  },

  getCommitRefs: async (input, ctx) => {
    const refs = await commits.commitRefs(ctx, project(ctx, input.id), input.sha, input.type ?? 'all')
    return { status: 200, body: refs.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: refs.length }
  },

  cherryPickCommit: async (input, ctx) => {
    const p = project(ctx, input.id)
    const { oid, dryRun } = await commits.cherryPickCommit(ctx, p, input.sha, input)
    if (dryRun) return { status: 200, body: { dry_run: 'success' } }
    return { status: 201, body: presentCommit(await commits.getCommit(ctx, p, oid), p, ctx) }
  },

  getCommitDiff: async (input, ctx) => {
    const { files, total } = await commits.getDiffPage(ctx, project(ctx, input.id), input.sha)
    return { status: 200, body: files.map((f) => presentDiff(f, { unidiff: input.unidiff })), total }
  },

  listCommitComments: async (input, ctx) => {
    const { rows, total } = await listComments(ctx, project(ctx, input.id), input.sha)
    return { status: 200, body: rows.map((c) => presentCommitComment(c, getUser(ctx, c.author_id), ctx)), total }
  },

  createCommitComment: async (input, ctx) => {
    const c = await createComment(ctx, project(ctx, input.id), input.sha, input)
    return { status: 201, body: presentCommitComment(c, ctx.user!, ctx) }
  },

  listCommitStatuses: async (input, ctx) => {
    const { rows, total } = await listStatuses(ctx, project(ctx, input.id), input.sha, input)
    return { status: 200, body: rows.map((s) => presentCommitStatus(s, getUser(ctx, s.author_id), ctx)), total }
  },

  postCommitStatus: async (input, ctx) => {
    const s = await postStatus(ctx, project(ctx, input.id), input.sha, input)
    return { status: 201, body: presentCommitStatus(s, ctx.user!, ctx) }
  },

  listCommitMergeRequests: async (input, ctx) => {
    const p = project(ctx, input.id)
    requireReadCode(ctx, p)
    const rows = commitMergeRequests(ctx, p.id, await commitOr404(ctx, p, input.sha))
    const page = rows.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit)
    return { status: 200, body: mergeRequestBundles(ctx, page).map((b) => presentMergeRequestBasic(b, ctx)), total: rows.length }
  },
} satisfies Handlers<typeof contract.commits>
