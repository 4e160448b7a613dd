// Trees and files of a repository: listing, reading with GitLab's metadata, and single-file commits.
import { createHash } from 'node:crypto'
import { basename } from 'node:path'
import type { Readable } from 'node:stream'
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { lastCommitForPath } from '../../git/log.js'
import { blobInfo, blobSha256, blobToSend, entryAt, readBlob, readTreeItems, WHOLE_BLOB_BYTES } from '../../git/read.js'
import type { TreeItem } from '../../git/types.js'
import type { ProjectView } from '../../store/projects.js'
import { createCommit } from './commits.js'
import { checkFilePath, commitOr404, gitdirOf, requireReadCode } from './repository.js'

const ORDER = { tree: 0, blob: 1, commit: 2 }

export async function listTree(ctx: RequestContext, p: ProjectView, input: { path?: string; ref?: string; recursive?: boolean }) {
  requireReadCode(ctx, p)
  const ref = input.ref ?? p.default_branch ?? 'master'
  const gitdir = gitdirOf(ctx, p)
  const path = input.path ? input.path.replace(/^\/+|\/+$/g, '') : ''
  if (path) checkFilePath(path, 'path')
  if (p.empty_repo && !input.ref) return { items: [] as TreeItem[], total: 0 }
  const commit = await commitOr404(ctx, p, ref).catch(() => { throw notFound('Tree') })
  const entry = await entryAt(gitdir, commit, path)
  if (!entry || entry.type !== 'tree') throw notFound('Tree')
  const items = await readTreeItems(gitdir, entry.oid, path, Boolean(input.recursive))
  // GitLab's sorted_entries: trees, then blobs, then submodules, each kept in git's order (recursive listings too).
  items.sort((a, b) => ORDER[a.type] - ORDER[b.type])
  return { items: items.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: items.length }
}

/** What GitLab tells of a file beside its bytes. */
export interface FileMeta {
  fileName: string
  filePath: string
  ref: string
  blobId: string
  commitId: string
  lastCommitId: string
  executable: boolean
  size: number
}

export interface FileRead extends FileMeta { content: Buffer; sha256: string }

async function fileMeta(ctx: RequestContext, p: ProjectView, rawPath: string, ref: string | undefined): Promise<FileMeta> {
  requireReadCode(ctx, p)
  const path = checkFilePath(rawPath)
  const r = ref ?? p.default_branch ?? 'HEAD'
  const gitdir = gitdirOf(ctx, p)
  const commit = await commitOr404(ctx, p, r)
  const entry = await entryAt(gitdir, commit, path)
  if (!entry || entry.type !== 'blob') throw notFound('File')
  const [info, lastCommitId] = await Promise.all([blobInfo(gitdir, entry.oid), lastCommitForPath(gitdir, commit, path)])
  if (!info) throw notFound('File')
  return {
    fileName: basename(path), filePath: path, ref: r, blobId: entry.oid, commitId: commit,
    lastCommitId: lastCommitId ?? commit, executable: entry.mode === '100755', size: info.size,
  }
}

export async function readFile(ctx: RequestContext, p: ProjectView, rawPath: string, ref: string | undefined): Promise<FileRead> {
  const meta = await fileMeta(ctx, p, rawPath, ref)
  const content = await readBlob(gitdirOf(ctx, p), meta.blobId)
  return { ...meta, content, sha256: createHash('sha256').update(content).digest('hex') }
}

/**
 * A file to send as it is read: small ones whole, larger ones as a stream with their first bytes read ahead (enough to
 * tell binary from text). With `sha256`, its digest too (a large blob's read by a pass of its own, then kept).
 */
export async function openFile(ctx: RequestContext, p: ProjectView, rawPath: string, ref: string | undefined, opts: { sha256?: boolean } = {}):
  Promise<FileMeta & { head: Buffer; body: Buffer | Readable; sha256?: string }> {
  const meta = await fileMeta(ctx, p, rawPath, ref)
  const gitdir = gitdirOf(ctx, p)
  const sha256 = opts.sha256 ? await blobSha256(gitdir, meta.blobId) : undefined
  return { ...meta, ...(await blobToSend(gitdir, meta.blobId, meta.size)), sha256 }
}

/** A file to show on a page: its bytes when they are at most 1 MB, else null (a page offers larger files for download). */
export async function readFileToShow(ctx: RequestContext, p: ProjectView, rawPath: string, ref: string | undefined): Promise<FileMeta & { content: Buffer | null }> {
  const meta = await fileMeta(ctx, p, rawPath, ref)
  return { ...meta, content: meta.size > WHOLE_BLOB_BYTES ? null : await readBlob(gitdirOf(ctx, p), meta.blobId) }
}

/** GitLab sends names and paths as they are (`X-Gitlab-File-Path: app/models/key.rb`); only what a header cannot carry is percent-encoded. */
const headerValue = (s: string) => s.replace(/[^\x20-\x7e]+/g, (run) => encodeURIComponent(Buffer.from(run).toString()))

/** The headers GitLab sets on file reads (lib/api/files.rb). */
export function fileHeaders(f: FileMeta & { sha256?: string }): Record<string, string> {
  return {
    'X-Gitlab-File-Name': headerValue(f.fileName),
    'X-Gitlab-File-Path': headerValue(f.filePath),
    'X-Gitlab-Ref': headerValue(f.ref),
    'X-Gitlab-Blob-Id': f.blobId,
    'X-Gitlab-Commit-Id': f.commitId,
    'X-Gitlab-Last-Commit-Id': f.lastCommitId,
    'X-Gitlab-Size': String(f.size),
    'X-Gitlab-Encoding': 'base64',
    ...(f.sha256 ? { 'X-Gitlab-Content-Sha256': f.sha256 } : {}),
    'X-Gitlab-Execute-Filemode': String(f.executable),
  }
}

export interface FileWriteInput {
  branch: string
  commit_message: string
  start_branch?: string
  encoding?: 'text' | 'base64'
  author_email?: string
  author_name?: string
  last_commit_id?: string
  execute_filemode?: boolean
  content?: string
}

export async function writeFile(ctx: RequestContext, p: ProjectView, action: 'create' | 'update' | 'delete', filePath: string, input: FileWriteInput) {
  return createCommit(ctx, p, {
    branch: input.branch, commit_message: input.commit_message, start_branch: input.start_branch,
    author_email: input.author_email, author_name: input.author_name,
    actions: [{ action, file_path: filePath, content: input.content, encoding: input.encoding, last_commit_id: input.last_commit_id, execute_filemode: input.execute_filemode }],
  })
}
