// The Merge Requests API: the three lists, CRUD and the read-only sub-resources of one merge request.
import { renderMarkdown } from '../services/markup/index.js'
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCommit, presentDiff } from '../present/commits.js'
import { presentIssue } from '../present/issues.js'
import { presentMergeRequest, presentMergeRequestBasic, presentMergeRequestSimple, type MergeRequestSingle } from '../present/merge-requests.js'
import { presentUserBasic } from '../present/users.js'
import { participants } from '../services/issuables/index.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { bundles as issueBundles } from '../services/issuables/index.js'
import * as mrs from '../services/merge-requests/index.js'
import { divergedCount, mergeRequestChanges, mergeRequestCommits } from '../services/merge-requests/index.js'
import { closesIssues } from '../services/merge-requests/index.js'
import { CHANGES_CAP } from '../services/merge-requests/index.js'
import { createMergeRequest, deleteMergeRequest, updateMergeRequest } from '../services/merge-requests/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import { runMergeRequestPipeline } from '../services/merge-requests/index.js'
import { mergeRequestPipelines, pipelineDetails } from '../services/ci/index.js'
import { presentPipeline, presentPipelineBasic } from '../present/pipelines.js'

export const target = (ctx: RequestContext, input: { id: string; merge_request_iid: number }) => {
  const project = findVisibleProject(ctx, input.id)
  const mr = mrs.findVisibleMergeRequest(ctx, project, input.merge_request_iid)
  return { project, mr, noteable: { kind: 'MergeRequest' as const, row: mr } }
}

/** The single form of a merge request, as get, create, update, merge and subscribe answer it. */
export const presentSingle = (ctx: RequestContext, row: mrs.MergeRequestRow, extra?: Partial<MergeRequestSingle>) =>
  presentMergeRequest(mrs.bundle(ctx, row), mrs.singleOf(ctx, row, extra), ctx)

export const one = (ctx: RequestContext, row: mrs.MergeRequestRow, status = 200) => ({ status, body: presentSingle(ctx, row) })

const presentList = (ctx: RequestContext, view: 'simple' | undefined, { rows, total }: { rows: mrs.MergeRequestRow[]; total: number }) => {
  const bs = mrs.bundles(ctx, rows)
  return { status: 200, body: bs.map((b) => (view === 'simple' ? presentMergeRequestSimple(b, ctx) : presentMergeRequestBasic(b, ctx))), total }
}

const page = <T>(ctx: RequestContext, all: T[]) => ({ body: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: all.length })

export const mergeRequestHandlers = {
  listMergeRequests: (input, ctx) => presentList(ctx, input.view, mrs.listMergeRequests(ctx, input, {})),
  listGroupMergeRequests: (input, ctx) => presentList(ctx, input.view, mrs.listMergeRequests(ctx, input, { groupId: findVisibleGroup(ctx, input.id).id })),
  listProjectMergeRequests: (input, ctx) =>
    presentList(ctx, input.view, mrs.listMergeRequests(ctx, input, { project: mrs.requireMergeRequestAccess(ctx, findVisibleProject(ctx, input.id)) })),

  getProjectMergeRequest: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    const extra: Partial<MergeRequestSingle> = {}
    if (input.include_diverged_commits_count) {
      extra.divergedCommitsCount = await divergedCount(ctx, project, mr)
    }
    if (input.include_rebase_in_progress) extra.rebaseInProgress = false
    const body = presentSingle(ctx, mr, extra)
    if (input.render_html) {
      const base = { baseUrl: ctx.baseUrl, projectPath: `${project.ns_full_path}/${project.path}` }
      // GitLab renders the title as one inline line (no paragraph) and the description as a document.
      body.title_html = (await renderMarkdown(ctx.app, mr.title, base)).replace(/^<p>([\s\S]*)<\/p>\n?$/, '$1')
      body.description_html = await renderMarkdown(ctx.app, mr.description ?? '', base)
    }
    return { status: 200, body }
  },

  createProjectMergeRequest: async (input, ctx) => one(ctx, await createMergeRequest(ctx, findVisibleProject(ctx, input.id), input), 201),

  updateProjectMergeRequest: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    return one(ctx, await updateMergeRequest(ctx, project, mr, input))
  },

  deleteProjectMergeRequest: (input, ctx) => {
    const { project, mr } = target(ctx, input)
    deleteMergeRequest(ctx, project, mr)
    return { status: 204 }
  },

  listMergeRequestParticipants: (input, ctx) => {
    const { mr } = target(ctx, input)
    return { status: 200, ...page(ctx, participants(ctx, mr).map((u) => presentUserBasic(u, ctx))) }
  },

  listMergeRequestCommits: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    const list = await mergeRequestCommits(ctx, project, mr)
    return { status: 200, ...page(ctx, list.map((c) => presentCommit(c, project, ctx))) }
  },

  getMergeRequestChanges: async (input, ctx) => {
    const { project, mr } = target(ctx, input)
    const files = await mergeRequestChanges(ctx, project, mr)
    // Past GitLab's cap the list stops (`overflow`, changes_count "1000+") unless the raw diffs are asked for.
    const overflow = !input.access_raw_diffs && files.length > CHANGES_CAP
    const shown = overflow ? files.slice(0, CHANGES_CAP) : files
    return { status: 200, body: { ...presentSingle(ctx, mr), changes: shown.map((f) => presentDiff(f, { unidiff: input.unidiff })), overflow } }
  },

  listMergeRequestPipelines: (input, ctx) => {
    const rows = mergeRequestPipelines(ctx, target(ctx, input).mr)
    return { status: 200, ...page(ctx, rows.map((r) => presentPipelineBasic(r.row, r.projectPath, ctx))) }
  },

  createMergeRequestPipeline: async (input, ctx) => {
    const { project, row } = await runMergeRequestPipeline(ctx, input.id, input.merge_request_iid)
    return { status: 200, body: presentPipeline(row, `${project.ns_full_path}/${project.path}`, ctx, pipelineDetails(ctx, row)) }
  },

  listMergeRequestClosesIssues: (input, ctx) => {
    const { mr } = target(ctx, input)
    const rows = closesIssues(ctx, mr)
    return { status: 200, ...page(ctx, issueBundles(ctx, rows).map((b) => presentIssue(b, ctx))) }
  },
} satisfies Handlers<typeof contract.mergeRequests>
