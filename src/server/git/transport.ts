// Smart HTTP transport: one request through `git http-backend` as a CGI, streamed both ways, and ref snapshots to see what a push moved.
import { gitChildEnv } from '../../core/child-env.js'
import { spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream'
import { runGit } from './exec.js'

export interface BackendRequest {
  /** The repositories directory: GIT_PROJECT_ROOT. */
  projectRoot: string
  /** `/<project-id>.git/info/refs` and the like: repositories are stored by id, whatever the URL's path. */
  pathInfo: string
  method: string
  /** Without the leading `?`. */
  query: string
  contentType?: string
  /** Only when the request has one: pushes are chunked, and git reads to EOF then. */
  contentLength?: string
  contentEncoding?: string
  gitProtocol?: string
  /** Set only once the caller may push: http-backend enables receive-pack exactly when REMOTE_USER is present. */
  remoteUser?: string
  remoteAddr?: string
  /** For pushes that need checking: the directory of the pre-receive hook (core.hooksPath) and what it reads from its environment. */
  hooks?: { dir: string; env: Record<string, string> }
}

export interface BackendResponse {
  status: number
  headers: [string, string][]
  /** The response body after the CGI headers; pipe it, never buffer it (packs can be large). */
  body: Readable
  /** Settles when git has exited and its output is closed. */
  done: Promise<{ code: number | null; stderr: string }>
}

// GIT_* variables of the server's own environment (GIT_DIR, GIT_WORK_TREE …) must not steer the backend.
const BASE_ENV: Record<string, string> = gitChildEnv()

/**
 * The refs GitLab keeps for itself (Gitaly's InternalRefPrefixes). None may be pushed: receive-pack hides them, so git
 * itself refuses an update ("deny updating a hidden ref") and a mirror push does not try to delete them. Merge request
 * heads, pipelines and environments stay fetchable (`git fetch origin merge-requests/1/head`); the rest are never shown.
 */
const READ_ONLY_REFS = ['refs/environments/', 'refs/merge-requests/', 'refs/pipelines/']
const INTERNAL_REFS = ['refs/keep-around/', 'refs/remotes/', 'refs/tmp/']

const CONFIG = [
  // receive-pack would start a detached `gc --auto` that packs refs outside our repository lock; we run gc under the lock instead.
  '-c', 'receive.autogc=false',
  // Partial clone (`--filter=blob:none`), as GitLab allows.
  '-c', 'uploadpack.allowFilter=true',
  ...[...READ_ONLY_REFS, ...INTERNAL_REFS].flatMap((prefix) => ['-c', `receive.hideRefs=${prefix}`]),
  ...INTERNAL_REFS.flatMap((prefix) => ['-c', `uploadpack.hideRefs=${prefix}`]),
]

function cgiEnv(r: BackendRequest): Record<string, string> {
  const env: Record<string, string> = {
    ...BASE_ENV,
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    GIT_PROJECT_ROOT: r.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: r.pathInfo,
    REQUEST_METHOD: r.method,
    QUERY_STRING: r.query,
  }
  const optional: [string, string | undefined][] = [
    ['CONTENT_TYPE', r.contentType], ['CONTENT_LENGTH', r.contentLength], ['HTTP_CONTENT_ENCODING', r.contentEncoding],
    ['GIT_PROTOCOL', r.gitProtocol], ['REMOTE_USER', r.remoteUser], ['REMOTE_ADDR', r.remoteAddr],
  ]
  for (const [k, v] of optional) if (v !== undefined && v !== '') env[k] = v
  if (r.hooks) Object.assign(env, r.hooks.env)
  return env
}

const MAX_HEADER_BYTES = 64 * 1024

function headerEnd(buf: Buffer): { head: number; body: number } | null {
  const crlf = buf.indexOf('\r\n\r\n')
  const lf = buf.indexOf('\n\n')
  if (crlf === -1 && lf === -1) return null
  if (lf !== -1 && (crlf === -1 || lf < crlf)) return { head: lf, body: lf + 2 }
  return { head: crlf, body: crlf + 4 }
}

function parseHeaders(text: string): { status: number; headers: [string, string][] } {
  let status = 200
  const headers: [string, string][] = []
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i <= 0) continue
    const name = line.slice(0, i).trim()
    const value = line.slice(i + 1).trim()
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500
    else headers.push([name, value])
  }
  return { status, headers }
}

/** Reads the CGI header block, then puts back what followed it so the caller can pipe the body from its first byte. */
function readCgiHeaders(out: Readable): Promise<{ status: number; headers: [string, string][] }> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0)
    const cleanup = () => {
      out.off('readable', onReadable)
      out.off('end', onEnd)
      out.off('error', onError)
    }
    const onEnd = () => { cleanup(); reject(new Error('git http-backend exited without answering')) }
    const onError = (err: Error) => { cleanup(); reject(err) }
    const onReadable = () => {
      let chunk: Buffer | null
      while ((chunk = out.read()) !== null) {
        buf = Buffer.concat([buf, chunk])
        const end = headerEnd(buf)
        if (end) {
          cleanup()
          if (end.body < buf.length) out.unshift(buf.subarray(end.body))
          resolve(parseHeaders(buf.subarray(0, end.head).toString('latin1')))
          return
        }
        if (buf.length > MAX_HEADER_BYTES) { cleanup(); reject(new Error('git http-backend sent an oversized header')); return }
      }
    }
    out.on('readable', onReadable)
    out.once('end', onEnd)
    out.once('error', onError)
  })
}

/**
 * Starts `git http-backend` for one request, feeding it `input` (the request body) as it arrives.
 * Resolves once the CGI headers are in; a client that goes away ends git's stdin, so git exits on its own.
 */
export async function startHttpBackend(r: BackendRequest, input: Readable): Promise<BackendResponse> {
  const hooks = r.hooks ? ['-c', `core.hooksPath=${r.hooks.dir}`] : []
  const child = spawn('git', [...CONFIG, ...hooks, 'http-backend'], { env: cgiEnv(r), stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (b: Buffer) => { if (stderr.length < 8192) stderr += b.toString('utf8') })
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.once('close', (code) => resolve({ code, stderr }))
    child.once('error', (err) => resolve({ code: null, stderr: stderr + String(err) }))
  })
  // Errors here are a client hanging up or git closing stdin early (a refused push): git's exit tells the story.
  pipeline(input, child.stdin, () => undefined)
  const spawned = new Promise<never>((_, reject) => child.once('error', reject))
  try {
    const head = await Promise.race([readCgiHeaders(child.stdout), spawned])
    return { ...head, body: child.stdout, done }
  } catch (err) {
    child.kill()
    const { stderr: text } = await done
    throw new Error(`git http-backend failed: ${err instanceof Error ? err.message : String(err)}${text ? `: ${text.trim()}` : ''}`)
  }
}

/** Branches and tags by full ref name, read in one `git for-each-ref`. */
export type RefSnapshot = Map<string, string>

export async function snapshotRefs(gitdir: string): Promise<RefSnapshot> {
  const out = await runGit(gitdir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags'])
  const refs: RefSnapshot = new Map()
  for (const line of out.split('\n')) {
    const i = line.indexOf(' ')
    if (i > 0) refs.set(line.slice(i + 1), line.slice(0, i))
  }
  return refs
}

export interface RefChange { ref: string; before: string | null; after: string | null }

/** Created, updated and deleted refs, sorted by name; `null` stands for "did not exist". */
export function diffRefs(before: RefSnapshot, after: RefSnapshot): RefChange[] {
  const changes: RefChange[] = []
  for (const ref of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(ref) ?? null
    const a = after.get(ref) ?? null
    if (a !== b) changes.push({ ref, before: b, after: a })
  }
  return changes.sort((x, y) => (x.ref < y.ref ? -1 : x.ref > y.ref ? 1 : 0))
}

/** Points HEAD at a branch, so clones check out the project's default branch. */
export async function setHeadBranch(gitdir: string, branch: string) {
  await runGit(gitdir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`])
}
