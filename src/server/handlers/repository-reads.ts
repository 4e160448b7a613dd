// Repository reads of issue 15: archives (streamed), blame, blobs, merge base, commit signatures and revert.
import type { contract } from '../../contract/index.js'
import { jsonAroundBase64, openStringField } from '../../core/base64-json.js'
import type { HandlerResult, RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCommit } from '../present/commits.js'
import { presentBlameRange, presentSignature } from '../present/repository-reads.js'
import { getCommit } from '../services/repository/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as reads from '../services/repository/index.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)

/** Workhorse's setArchiveHeaders: no length (the archive is made as it is sent), zip or octet-stream, binary. */
async function archive(ctx: RequestContext, input: { id: string; format?: string; sha?: string; path?: string; exclude_paths?: string[] }): Promise<HandlerResult> {
  const a = await reads.repositoryArchive(ctx, project(ctx, input.id), input)
  const name = a.filename.replace(/["\\\r\n]/g, '_')
  return {
    status: 200, stream: a.stream,
    headers: {
      'Content-Type': a.kind === 'zip' ? 'application/zip' : 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${name}"`, 'Content-Transfer-Encoding': 'binary',
    },
  }
}

/** Binary content is sent as octet-stream, text as UTF-8 (Rails' safe_content_type). */
const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0)

export const repositoryReadHandlers = {
  getArchive: (input, ctx) => archive(ctx, input),
  getArchiveFormat: (input, ctx) => archive(ctx, input),

  getFileBlame: async (input, ctx) => {
    const p = project(ctx, input.id)
    const ranges = await reads.fileBlame(ctx, p, input.file_path, input)
    return { status: 200, body: ranges.map((r) => presentBlameRange(r, p, ctx)) }
  },

  getBlob: async (input, ctx) => {
    // Past 1 MB the content is encoded as git streams it: a large blob's JSON is never whole in memory.
    const b = await reads.blobById(ctx, project(ctx, input.id), input.sha)
    if (Buffer.isBuffer(b.body)) return { status: 200, body: { size: b.size, encoding: 'base64', content: b.body.toString('base64'), sha: b.oid } }
    const json = jsonAroundBase64(openStringField({ size: b.size, encoding: 'base64' }, 'content'), b.body, b.size, `","sha":"${b.oid}"}`)
    return { status: 200, stream: json.stream, headers: { 'Content-Type': 'application/json', 'Content-Length': String(json.length) } }
  },
  getRawBlob: async (input, ctx) => {
    // Streamed from git past 1 MB: a large blob is never whole in memory.
    const b = await reads.blobById(ctx, project(ctx, input.id), input.sha)
    const type = isBinary(b.head) ? 'application/octet-stream' : 'text/plain; charset=utf-8'
    const headers = { 'Content-Type': type, 'Content-Length': String(b.size), 'Content-Disposition': 'inline', 'X-Content-Type-Options': 'nosniff', 'ETag': `"${b.oid}"` }
    return Buffer.isBuffer(b.body) ? { status: 200, raw: b.body, headers } : { status: 200, stream: b.body, headers }
  },

  getMergeBase: async (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 200, body: presentCommit(await reads.mergeBase(ctx, p, input.refs), p, ctx) }
  },

  revertCommit: async (input, ctx) => {
    const p = project(ctx, input.id)
    const r = await reads.revertCommit(ctx, p, input.sha, input)
    if (r.dryRun) return { status: 200, body: { dry_run: 'success' } }
    return { status: 201, body: presentCommit(await getCommit(ctx, p, r.oid), p, ctx) }
  },

  getCommitSignature: async (input, ctx) => {
    const s = await reads.commitSignature(ctx, project(ctx, input.id), input.sha)
    return { status: 200, body: presentSignature(s) }
  },
} satisfies Handlers<typeof contract.repositoryReads>
