// Object reads through git itself: a small pool of long-lived `git cat-file --batch-command` processes per busy
// repository, so the server's memory never grows with a repository's packs (git maps them; we hold only the objects
// asked for). Large blobs stream from a `git cat-file blob` of their own.
//
//   const objects = catFile(gitdir)
//   await objects.info('5f0c…')          // { oid, type, size } or null
//   await objects.read('5f0c…')          // { oid, type, size, content } or null (GitOutputTooLarge past the limit)
//   blobStream(gitdir, '5f0c…')          // a Readable of a blob's bytes, ended only when git exits cleanly
//
// Only object ids (4 to 40 hex digits) are ever written to git's stdin: a line of `--batch-command` input names any
// revision expression (`master:path`, `:/text`), so a name that is not hex is answered null without reaching git.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { PassThrough, type Readable } from 'node:stream'
import { gitChildEnv } from '../../core/child-env.js'
import { ByteCache } from '../../core/byte-cache.js'
import { CollabError } from '../../core/errors.js'
import { GitCommandError, GitOutputTooLarge, gitOutputLimit } from './exec.js'

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag'
export interface ObjectInfo { oid: string; type: ObjectType; size: number }
export interface GitObject extends ObjectInfo { content: Buffer }

export interface CatFile {
  /** The object's full id, type and size; null when no object has that id (or a short id names several). */
  info(name: string): Promise<ObjectInfo | null>
  /** The whole object; null when missing. An object past `maxBytes` (at most the git output limit) is never held: GitOutputTooLarge. */
  read(name: string, opts?: { maxBytes?: number }): Promise<GitObject | null>
}

/** Saturated: the repository's queue is full, as Gitaly's concurrency limiter answers (Gitlab::Git::ResourceExhaustedError). */
export class GitBusy extends CollabError {
  constructor() {
    super('GIT_BUSY', 'Upstream Gitaly has been exhausted. Try again later', { status: 503, headers: { 'Retry-After': '50' } })
  }
}

const OBJECT_NAME = /^[0-9a-f]{4,40}$/
const FULL_ID = /^[0-9a-f]{40}$/
const ENV = gitChildEnv({ LC_ALL: 'C' })

/** Processes per repository, requests written ahead to one process, and requests waiting for a process. */
const PROCESSES_PER_REPOSITORY = 2
const PIPELINE_DEPTH = 64
const MAX_WAITING = 1024
/** Repositories with live processes; past this, the least recently used one's processes are closed. */
const MAX_POOLS = 16
/** A pool unused for one sweep period and idle at the next sweep is closed. */
const IDLE_SWEEP_MS = 10_000
/** Blob streams (each a process) at once over the whole server. */
const MAX_STREAMS = 32

interface Request {
  kind: 'info' | 'contents'
  name: string
  maxBytes: number
  /** Processes that died before answering it: it is asked again while that is fewer than a pool's processes (all may die at once). */
  failures: number
  resolve(value: ObjectInfo | GitObject | null): void
  reject(err: unknown): void
}

const TYPES = new Set(['blob', 'tree', 'commit', 'tag'])

/** One `git cat-file --batch-command`: requests are written ahead and answered in order. */
class BatchProcess {
  readonly pending: Request[] = []
  private readonly child: ChildProcessWithoutNullStreams
  private header: Buffer[] = []
  /** The object being read; undefined once git has exited. */
  private body: { req: Request; info: ObjectInfo; remaining: number; chunks: Buffer[] | null } | null | undefined = null
  private stderr = ''
  private ended = false
  /** Settles when git has exited. */
  readonly closed: Promise<void>
  private resolveClosed!: () => void

  constructor(gitdir: string, private readonly onExit: (proc: BatchProcess, unanswered: Request[], err: Error) => void, private readonly onAnswer: (proc: BatchProcess) => void) {
    this.closed = new Promise<void>((resolve) => (this.resolveClosed = resolve))
    this.child = spawn('git', ['--git-dir', gitdir, 'cat-file', '--batch-command'], { env: ENV, stdio: ['pipe', 'pipe', 'pipe'] })
    this.child.stdout.on('data', (b: Buffer) => this.onData(b))
    this.child.stderr.on('data', (b: Buffer) => { if (this.stderr.length < 65_536) this.stderr += b.toString() })
    // A write to a process that died is answered by its close below.
    this.child.stdin.on('error', () => {})
    this.child.once('error', (err) => this.fail(err))
    this.child.once('close', (code, signal) => this.fail(new GitCommandError(['cat-file'], code ?? signal, this.stderr)))
    this.hold(false)
  }

  /** An idle process does not keep the server's process alive; one with reads to answer does, until it has answered. */
  private hold(busy: boolean) {
    // The pipes are sockets at run time (typed as plain streams), each with its own hold on the event loop.
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as { ref(): void; unref(): void }[]) {
      if (busy) handle.ref()
      else handle.unref()
    }
  }

  get alive() { return !this.ended }

  send(req: Request) {
    if (!this.pending.length) this.hold(true)
    this.pending.push(req)
    this.child.stdin.write(`${req.kind} ${req.name}\n`)
  }

  /** No more requests: git answers the ones written and exits. */
  end() {
    if (this.ended) return
    this.ended = true
    // Whoever ends the process waits for its exit (server close): that wait must keep node's event loop alive.
    this.hold(true)
    this.child.stdin.end()
  }

  kill() {
    this.end()
    this.child.kill()
  }

  private fail(err: Error) {
    if (this.body === undefined) return
    this.ended = true
    this.body = undefined
    this.resolveClosed()
    this.onExit(this, this.pending.splice(0), err)
  }

  private onData(b: Buffer) {
    let off = 0
    while (off < b.length) {
      if (this.body) {
        off = this.readBody(b, off)
        continue
      }
      const nl = b.indexOf(10, off)
      if (nl < 0) {
        this.header.push(b.subarray(off))
        return
      }
      const line = Buffer.concat([...this.header, b.subarray(off, nl)]).toString('latin1')
      this.header = []
      off = nl + 1
      this.answerHeader(line)
    }
  }

  private answerHeader(line: string) {
    const req = this.pending[0]
    if (!req) return this.kill()
    const [oid, type, size] = line.split(' ')
    if (!FULL_ID.test(oid) || !TYPES.has(type) || !/^\d+$/.test(size ?? '')) {
      // `<name> missing`, `<name> ambiguous`: no such object (or a short id git cannot settle).
      this.pending.shift()
      req.resolve(null)
      return this.answered()
    }
    const info: ObjectInfo = { oid, type: type as ObjectType, size: Number(size) }
    if (req.kind === 'info') {
      this.pending.shift()
      req.resolve(info)
      return this.answered()
    }
    // The content and git's newline after it; past the caller's limit the bytes are read and dropped, never held.
    this.body = { req, info, remaining: info.size + 1, chunks: info.size <= req.maxBytes ? [] : null }
  }

  private answered() {
    if (!this.pending.length && !this.ended) this.hold(false)
    this.onAnswer(this)
  }

  private readBody(b: Buffer, off: number): number {
    const body = this.body!
    const take = Math.min(body.remaining, b.length - off)
    body.chunks?.push(b.subarray(off, off + take))
    body.remaining -= take
    if (body.remaining > 0) return off + take
    this.body = null
    this.pending.shift()
    if (body.chunks) body.req.resolve({ ...body.info, content: Buffer.concat(body.chunks).subarray(0, body.info.size) })
    else body.req.reject(new GitOutputTooLarge(['cat-file', body.info.oid], body.req.maxBytes))
    this.answered()
    return off + take
  }
}

/** The processes of one repository and the requests waiting for them. */
class Pool {
  readonly procs: BatchProcess[] = []
  private readonly waiting: Request[] = []
  used = true

  constructor(private readonly gitdir: string) {}

  get idle() { return this.waiting.length === 0 && this.procs.every((p) => p.pending.length === 0) }

  submit(req: Request) {
    this.used = true
    const proc = this.pick()
    if (proc) return proc.send(req)
    if (this.waiting.length >= MAX_WAITING) return req.reject(new GitBusy())
    this.waiting.push(req)
  }

  /** A process with nothing to do, else a new one while there are fewer than the limit, else the least busy with room. */
  private pick(): BatchProcess | null {
    let best: BatchProcess | null = null
    for (const p of this.procs) if (p.alive && (!best || p.pending.length < best.pending.length)) best = p
    if (best?.pending.length === 0) return best
    if (this.procs.length < PROCESSES_PER_REPOSITORY) {
      const proc = new BatchProcess(this.gitdir, (p, unanswered, err) => this.exited(p, unanswered, err), (p) => this.answered(p))
      this.procs.push(proc)
      return proc
    }
    return best && best.pending.length < PIPELINE_DEPTH ? best : null
  }

  private answered(proc: BatchProcess) {
    while (this.waiting.length && proc.alive && proc.pending.length < PIPELINE_DEPTH) proc.send(this.waiting.shift()!)
  }

  /** A process that died (or was closed) leaves the pool; what it had not answered is asked again of another. */
  private exited(proc: BatchProcess, unanswered: Request[], err: Error) {
    const i = this.procs.indexOf(proc)
    if (i >= 0) this.procs.splice(i, 1)
    const retry = !closing.has(this)
    for (const req of unanswered) {
      if (retry && req.failures < PROCESSES_PER_REPOSITORY) this.submit({ ...req, failures: req.failures + 1 })
      else req.reject(err)
    }
    if (retry && this.waiting.length) {
      const next = this.pick()
      if (next) this.answered(next)
    }
  }

  /** Ends every process once it has answered what it was asked; waiting requests fail. */
  close(): Promise<void> {
    closing.add(this)
    for (const req of this.waiting.splice(0)) req.reject(new GitBusy())
    for (const p of this.procs) p.end()
    return Promise.all(this.procs.map((p) => p.closed)).then(() => {})
  }

  kill() {
    closing.add(this)
    for (const p of this.procs) p.kill()
  }
}

const pools = new Map<string, Pool>()
const closing = new WeakSet<Pool>()
let sweeper: NodeJS.Timeout | null = null

function poolFor(gitdir: string): Pool {
  let pool = pools.get(gitdir)
  if (pool) {
    // Map order is the eviction order: the most recently used repository goes last.
    pools.delete(gitdir)
    pools.set(gitdir, pool)
    return pool
  }
  if (pools.size >= MAX_POOLS) {
    const [oldest, p] = pools.entries().next().value as [string, Pool]
    pools.delete(oldest)
    void p.close()
  }
  pools.set(gitdir, (pool = new Pool(gitdir)))
  sweeper ??= setInterval(sweep, IDLE_SWEEP_MS).unref()
  return pool
}

/** Closes the processes of repositories nobody read since the last sweep. */
function sweep() {
  for (const [gitdir, pool] of pools) {
    if (!pool.used && pool.idle) {
      pools.delete(gitdir)
      void pool.close()
    }
    pool.used = false
  }
  if (!pools.size && sweeper) {
    clearInterval(sweeper)
    sweeper = null
  }
}

function ask(gitdir: string, kind: Request['kind'], name: string, maxBytes: number) {
  return new Promise<ObjectInfo | GitObject | null>((resolve, reject) => {
    poolFor(gitdir).submit({ kind, name, maxBytes, failures: 0, resolve, reject })
  })
}

// Objects never change, so they are kept by repository and id, bounded by bytes (the total and each object's).
const cache = new ByteCache<GitObject>(16 * 1024 * 1024, 256 * 1024, (o) => o.size)

export function catFile(gitdir: string): CatFile {
  return {
    async info(name) {
      if (!OBJECT_NAME.test(name)) return null
      const hit = cache.get(`${gitdir}\0${name}`)
      if (hit) return { oid: hit.oid, type: hit.type, size: hit.size }
      return (await ask(gitdir, 'info', name, 0)) as ObjectInfo | null
    },
    async read(name, opts = {}) {
      if (!OBJECT_NAME.test(name)) return null
      const hit = cache.get(`${gitdir}\0${name}`)
      if (hit) return hit
      const obj = (await ask(gitdir, 'contents', name, Math.min(opts.maxBytes ?? Infinity, gitOutputLimit()))) as GitObject | null
      if (obj) cache.set(`${gitdir}\0${obj.oid}`, obj)
      return obj
    },
  }
}

/**
 * Forgets what was read from a repository and ends its processes (after a push, a repack or its deletion): the next
 * read starts a process that sees the packs as they are now, and objects of a deleted repository are never answered
 * for a new one in its directory.
 */
export function forgetObjects(gitdir: string) {
  cache.deletePrefix(`${gitdir}\0`)
  const pool = pools.get(gitdir)
  if (pool) {
    pools.delete(gitdir)
    void pool.close()
  }
}

/** Ends the processes of every repository under `root` (the server's repositories, at its close), or of all. */
export async function closeCatFiles(root?: string) {
  const closing: Promise<void>[] = []
  for (const [gitdir, pool] of pools) {
    if (root !== undefined && !gitdir.startsWith(root)) continue
    pools.delete(gitdir)
    closing.push(pool.close())
  }
  for (const s of [...streams]) if (root === undefined || s.gitdir.startsWith(root)) s.stop()
  await Promise.all(closing)
}

/** Live processes of a repository (for tests: none after close, one per busy reader). */
export const catFileProcesses = (gitdir: string) => pools.get(gitdir)?.procs.length ?? 0

const streams = new Set<{ gitdir: string; stop(): void }>()

/**
 * A blob's bytes streamed from `git cat-file blob <oid>` (a full id), never whole in memory; the stream ends only after
 * git exits cleanly, so a failure midway breaks the response instead of ending it as if complete, and destroying the
 * stream stops git. GitBusy when too many streams run already.
 */
export function blobStream(gitdir: string, oid: string): Readable {
  if (!FULL_ID.test(oid)) throw new GitCommandError(['cat-file'], 'EINVAL', `not an object id: ${oid.slice(0, 64)}`)
  if (streams.size >= MAX_STREAMS) throw new GitBusy()
  const child = spawn('git', ['--git-dir', gitdir, 'cat-file', 'blob', oid], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
  const out = new PassThrough({ highWaterMark: 256 * 1024 })
  const entry = { gitdir, stop: () => out.destroy() }
  streams.add(entry)
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { if (stderr.length < 65_536) stderr += d.toString() })
  child.stdout.pipe(out, { end: false })
  child.once('error', (err) => out.destroy(err))
  child.once('close', (code, signal) => {
    streams.delete(entry)
    if (code === 0) out.end()
    else out.destroy(new GitCommandError(['cat-file', 'blob'], code ?? signal, stderr))
  })
  out.once('close', () => { if (child.exitCode === null && child.signalCode === null) child.kill() })
  return out
}
