// Branches, tags, tree and files.
import type { contract } from '../../contract/index.js'
import { jsonAroundBase64, openStringField } from '../../core/base64-json.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentBranch, presentTag, presentTreeItem } from '../present/refs.js'
import { fileHeaders, listTree, openFile, writeFile } from '../services/repository/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as refs from '../services/repository/index.js'
import { deleteReleaseOfTag, releasesOfTags } from '../services/releases/index.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)

/** Binary content is sent as octet-stream; text as UTF-8. */
const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0)

export const repositoryHandlers = {
  listBranches: async (input, ctx) => {
    const p = project(ctx, input.id)
    const { views, total } = await refs.listBranchViews(ctx, p, input.search, input.regex)
    return { status: 200, body: views.map((b) => presentBranch(b, p, ctx)), total }
  },
  getBranch: async (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 200, body: presentBranch(await refs.getBranchView(ctx, p, input.branch), p, ctx) }
  },
  createBranch: async (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 201, body: presentBranch(await refs.createBranchFrom(ctx, p, input.branch, input.ref), p, ctx) }
  },
  deleteBranch: async (input, ctx) => {
    await refs.removeBranch(ctx, project(ctx, input.id), input.branch)
    return { status: 204 }
  },

  listTags: async (input, ctx) => {
    const p = project(ctx, input.id)
    const { views, total } = await refs.listTagViews(ctx, p, input)
    const notes = releasesOfTags(ctx, p)
    return { status: 200, body: views.map((t) => presentTag(t, p, ctx, notes.get(t.tag.name))), total }
  },
  getTag: async (input, ctx) => {
    const p = project(ctx, input.id)
    const view = await refs.getTagView(ctx, p, input.tag_name)
    return { status: 200, body: presentTag(view, p, ctx, releasesOfTags(ctx, p).get(view.tag.name)) }
  },
  createTag: async (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 201, body: presentTag(await refs.createTagAt(ctx, p, input), p, ctx) }
  },
  deleteTag: async (input, ctx) => {
    const p = project(ctx, input.id)
    await refs.removeTag(ctx, p, input.tag_name)
    await deleteReleaseOfTag(ctx, p, input.tag_name)
    return { status: 204 }
  },

  listTree: async (input, ctx) => {
    const { items, total } = await listTree(ctx, project(ctx, input.id), input)
    return { status: 200, body: items.map(presentTreeItem), total }
  },

  getFile: async (input, ctx) => {
    // Past 1 MB the content is encoded as git streams it: a large file's JSON is never whole in memory.
    const f = await openFile(ctx, project(ctx, input.id), input.file_path, input.ref, { sha256: true })
    const fields = {
      file_name: f.fileName, file_path: f.filePath, size: f.size, encoding: 'base64', content_sha256: f.sha256,
      ref: f.ref, blob_id: f.blobId, commit_id: f.commitId, last_commit_id: f.lastCommitId, execute_filemode: f.executable,
    }
    if (Buffer.isBuffer(f.body)) return { status: 200, headers: fileHeaders(f), body: { ...fields, content: f.body.toString('base64') } }
    const json = jsonAroundBase64(openStringField(fields, 'content'), f.body, f.size, '"}')
    return { status: 200, stream: json.stream, headers: { ...fileHeaders(f), 'Content-Type': 'application/json', 'Content-Length': String(json.length) } }
  },

  getRawFile: async (input, ctx) => {
    // Streamed from git past 1 MB: a large file is never whole in memory.
    const f = await openFile(ctx, project(ctx, input.id), input.file_path, input.ref, { sha256: true })
    const type = isBinary(f.head) ? 'application/octet-stream' : 'text/plain; charset=utf-8'
    const headers = { ...fileHeaders(f), 'Content-Type': type, 'Content-Length': String(f.size), 'X-Content-Type-Options': 'nosniff' }
    return Buffer.isBuffer(f.body) ? { status: 200, raw: f.body, headers } : { status: 200, stream: f.body, headers }
  },

  createFile: async (input, ctx) => {
    await writeFile(ctx, project(ctx, input.id), 'create', input.file_path, input)
    return { status: 201, body: { file_path: input.file_path, branch: input.branch } }
  },
  updateFile: async (input, ctx) => {
    await writeFile(ctx, project(ctx, input.id), 'update', input.file_path, input)
    return { status: 200, body: { file_path: input.file_path, branch: input.branch } }
  },
  deleteFile: async (input, ctx) => {
    await writeFile(ctx, project(ctx, input.id), 'delete', input.file_path, input)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.repository>
