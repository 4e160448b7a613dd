// A repository snapshot (GitLab's GET /projects/:id/snapshot, Gitaly's GetSnapshot): the bare repository's own files as
// an uncompressed tar, streamed one file at a time, so memory never grows with the repository.
import type { ReadStream } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough, Transform, type Readable } from 'node:stream'
import { createRequire } from 'node:module'
import type { Pack } from 'tar-stream'

/** What Gitaly puts in a snapshot, in its order: HEAD, the refs, then the objects they reach. */
const TOP = ['HEAD', 'packed-refs', 'shallow', 'refs', 'branches', 'objects']
/** Objects git is still writing (a push's quarantine, a repack's temporary packs) are not part of the repository yet. */
const UNFINISHED = /(^|\/)(incoming-|tmp_objdir|tmp_)|\.lock$/

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT'

/** The entries under `rel` of `root`, depth first and sorted; a file removed meanwhile (a repack) is skipped. */
async function* walk(root: string, rel: string): AsyncGenerator<{ path: string; dir: boolean }> {
  const info = await stat(join(root, rel)).catch((err) => (missing(err) ? null : Promise.reject(err)))
  if (!info || UNFINISHED.test(rel)) return
  if (!info.isDirectory()) {
    yield { path: rel, dir: false }
    return
  }
  yield { path: rel, dir: true }
  const names = await readdir(join(root, rel)).catch((err) => (missing(err) ? [] : Promise.reject(err)))
  for (const name of names.sort()) yield* walk(root, `${rel}/${name}`)
}

const ZEROS = Buffer.alloc(64 * 1024)

/**
 * Passes a file's bytes and, if it came up short, zeros up to the size its tar header announced: a loose object
 * rewritten in place while it was read (isomorphic-git opens an existing object's file for writing again when two
 * writes race) must not leave the tar's entry short, which tar-stream treats as a fatal error.
 */
export function exactly(size: number): Transform {
  let sent = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sent += chunk.length
      callback(null, chunk)
    },
    flush(callback) {
      for (; sent < size; sent += Math.min(ZEROS.length, size - sent)) this.push(ZEROS.subarray(0, Math.min(ZEROS.length, size - sent)))
      callback()
    },
  })
}

/** One file into the tar from an open descriptor, so a ref rewritten meanwhile (by rename) is read whole, old or new. */
async function addFile(pack: Pack, root: string, path: string): Promise<void> {
  const handle = await open(join(root, path), 'r').catch((err) => (missing(err) ? null : Promise.reject(err)))
  if (!handle) return
  // Once a read stream exists it owns the descriptor: it closes it when it ends or is destroyed.
  let body: ReadStream | undefined
  try {
    const info = await handle.stat()
    const header = { name: path, size: info.size, mode: info.mode & 0o7777, mtime: info.mtime, type: 'file' as const }
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null) => (err ? reject(err) : resolve())
      if (info.size === 0) {
        pack.entry(header, Buffer.alloc(0), done)
        return
      }
      const entry = pack.entry(header, done)
      entry.on('error', reject)
      body = handle.createReadStream({ start: 0, end: info.size - 1 })
      body.on('error', reject)
      body.pipe(exactly(info.size)).pipe(entry)
    })
  } finally {
    // A client that hung up destroys the pack and with it this entry (its callback fails): the read stops there.
    if (body) body.destroy()
    else await handle.close()
  }
}

/** Whether `gitdir` holds a repository (a wiki's is made by its first page). */
export const isRepository = (gitdir: string) => stat(join(gitdir, 'HEAD')).then(() => true, () => false)

/**
 * The tar of a bare repository's HEAD, refs and objects. Like Gitaly's, it takes no lock (a download may be slow and
 * must not hold up pushes), so a write during it may or may not be in it. Destroying the stream stops the walk.
 */
export function snapshotStream(gitdir: string): Readable {
  // tar-stream loads with the first snapshot (an administrator's rare download), not with every start of the server.
  const pack = (createRequire(import.meta.url)('tar-stream') as typeof import('tar-stream')).pack()
  const out = new PassThrough({ highWaterMark: 256 * 1024 })
  let stopped = false
  pack.once('error', (err: Error) => out.destroy(err))
  out.once('close', () => {
    stopped = true
    pack.destroy()
  })
  pack.pipe(out)
  void (async () => {
    for (const top of TOP) {
      for await (const e of walk(gitdir, top)) {
        if (stopped) return
        if (e.dir) pack.entry({ name: e.path, type: 'directory', mode: 0o755 })
        else await addFile(pack, gitdir, e.path)
      }
    }
    pack.finalize()
  })().catch((err: Error) => out.destroy(err))
  return out
}
