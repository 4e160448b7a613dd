// Project snippets and personal snippets: resolve, call services/snippets/snippets.ts, present.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentSnippet } from '../present/snippets.js'
import { projectPaths } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as snippets from '../services/snippets/index.js'
import type { ProjectView } from '../store/projects.js'

/** Snippets with their authors, project paths and file names, each looked up once per page. */
export function presentSnippets(ctx: RequestContext, rows: snippets.SnippetRow[]) {
  const authors = snippets.authorsOf(ctx, rows)
  const names = snippets.fileNamesOf(ctx, rows)
  const pathOf = projectPaths(ctx)
  return rows.map((s) => presentSnippet(s, authors.get(s.author_id)!, s.project_id === null ? null : pathOf(s.project_id), names.get(s.id) ?? [], ctx))
}

const one = (ctx: RequestContext, s: snippets.SnippetRow, status = 200) => ({ status, body: presentSnippets(ctx, [s])[0] })
const list = (ctx: RequestContext, { rows, total }: { rows: snippets.SnippetRow[]; total: number }) => ({ status: 200, body: presentSnippets(ctx, rows), total })

/** A snippet's file as GitLab sends raw content: text/plain, inline, never sniffed into HTML. */
function raw(file: { path: string; content: string }) {
  const name = file.path.split('/').pop()!
  return {
    status: 200,
    raw: file.content,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': `inline; filename="${name.replace(/["\\]/g, '\\$&')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'X-Content-Type-Options': 'nosniff',
    },
  }
}

export const projectSnippet = (ctx: RequestContext, input: { id: string; snippet_id: number }) => {
  const project = findVisibleProject(ctx, input.id)
  return { project, snippet: snippets.findProjectSnippet(ctx, project, input.snippet_id) }
}

const visibleProject = (ctx: RequestContext, id: string): ProjectView => findVisibleProject(ctx, id)

export const snippetHandlers = {
  listProjectSnippets: (input, ctx) => list(ctx, snippets.listProjectSnippets(ctx, visibleProject(ctx, input.id))),
  getProjectSnippet: (input, ctx) => one(ctx, projectSnippet(ctx, input).snippet),
  createProjectSnippet: (input, ctx) => one(ctx, snippets.createSnippet(ctx, visibleProject(ctx, input.id), input), 201),
  updateProjectSnippet: (input, ctx) => {
    const { project, snippet } = projectSnippet(ctx, input)
    return one(ctx, snippets.updateSnippet(ctx, project, snippet, input))
  },
  deleteProjectSnippet: (input, ctx) => {
    const { project, snippet } = projectSnippet(ctx, input)
    snippets.deleteSnippet(ctx, project, snippet)
    return { status: 204 }
  },
  getProjectSnippetRaw: (input, ctx) => raw(snippets.rawFile(ctx, projectSnippet(ctx, input).snippet)),
  getProjectSnippetFileRaw: (input, ctx) => raw(snippets.rawFile(ctx, projectSnippet(ctx, input).snippet, input.file_path)),
  getProjectSnippetUserAgentDetail: (input, ctx) => ({ status: 200, body: snippets.userAgentDetail(ctx, projectSnippet(ctx, input).snippet) }),

  listSnippets: (_input, ctx) => list(ctx, snippets.listOwnSnippets(ctx)),
  listPublicSnippets: (_input, ctx) => list(ctx, snippets.listPublicSnippets(ctx)),
  listAllSnippets: (_input, ctx) => list(ctx, snippets.listAllSnippets(ctx)),
  getSnippet: (input, ctx) => one(ctx, snippets.findPersonalSnippet(ctx, input.id)),
  createSnippet: (input, ctx) => one(ctx, snippets.createSnippet(ctx, null, input), 201),
  updateSnippet: (input, ctx) => one(ctx, snippets.updateSnippet(ctx, null, snippets.findPersonalSnippet(ctx, input.id), input)),
  deleteSnippet: (input, ctx) => {
    snippets.deleteSnippet(ctx, null, snippets.findPersonalSnippet(ctx, input.id))
    return { status: 204 }
  },
  getSnippetRaw: (input, ctx) => raw(snippets.rawFile(ctx, snippets.findPersonalSnippet(ctx, input.id))),
  getSnippetFileRaw: (input, ctx) => raw(snippets.rawFile(ctx, snippets.findPersonalSnippet(ctx, input.id), input.file_path)),
  getSnippetUserAgentDetail: (input, ctx) => ({ status: 200, body: snippets.userAgentDetail(ctx, snippets.findPersonalSnippet(ctx, input.id)) }),
} satisfies Handlers<typeof contract.snippets>
