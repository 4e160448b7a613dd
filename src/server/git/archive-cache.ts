// Archives kept on disk once made, as Workhorse keeps them: a commit's archive never changes, so a repeated download
// (CI jobs fetching the same tag) is a file read instead of a new `git archive`.
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough, type Readable } from 'node:stream'

/** Cached archives older than this are removed when the project's next archive is written. */
const MAX_AGE_MS = 2 * 60 * 60 * 1000
/** Archives larger than this are streamed but not kept. */
const MAX_CACHED_BYTES = 256 * 1024 * 1024

/** Where a project's archives are kept. */
export const archiveCacheDir = (dataRoot: string, projectId: number) => join(dataRoot, 'cache', 'archives', String(projectId))

/** Forgets a deleted project's archives: a later project may get its id. */
export const removeArchiveCache = (dataRoot: string, projectId: number) => rm(archiveCacheDir(dataRoot, projectId), { recursive: true, force: true })

export const archiveCacheKey = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex')

/** The cached archive, or null when it was never made (or was removed). */
export async function cachedArchive(dir: string, key: string): Promise<Readable | null> {
  const file = join(dir, key)
  try {
    await stat(file)
  } catch {
    return null
  }
  return createReadStream(file, { highWaterMark: 256 * 1024 })
}

/**
 * Passes `source` on unchanged while writing it to a temporary file, renamed into the cache only when the source ended
 * well; a failed or cut archive, or one past the size cap, leaves nothing behind.
 */
export function teeToCache(dir: string, key: string, source: Readable): Readable {
  const out = new PassThrough({ highWaterMark: 256 * 1024 })
  const temp = join(dir, `.${key}.${randomBytes(6).toString('hex')}.tmp`)
  let bytes = 0
  let file: ReturnType<typeof createWriteStream> | null = null
  const drop = () => {
    file?.destroy()
    file = null
    rm(temp, { force: true }).catch(() => {})
  }
  const opened = mkdir(dir, { recursive: true }).then(() => {
    file = createWriteStream(temp)
    // A full disk costs the cache, never the download.
    file.once('error', drop)
  }).catch(() => { file = null })
  source.on('data', (chunk: Buffer) => {
    if (out.destroyed) return
    bytes += chunk.length
    if (bytes > MAX_CACHED_BYTES) drop()
    else opened.then(() => { if (file && !file.destroyed) file.write(chunk) })
    if (!out.write(chunk)) source.pause()
  })
  out.on('drain', () => source.resume())
  source.once('error', (err) => { drop(); out.destroy(err) })
  source.once('end', () => {
    out.end()
    opened.then(() => {
      const f = file
      if (!f) return
      f.end(() => rename(temp, join(dir, key)).then(() => pruneOld(dir, join(dir, key))).catch(drop))
    })
  })
  out.once('close', () => { if (!source.readableEnded) { source.destroy(); drop() } })
  return out
}

/** Removes what is older than MAX_AGE_MS by the file system's clock: the file just written says what time it is. */
async function pruneOld(dir: string, fresh: string) {
  const now = (await stat(fresh)).mtimeMs
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name)
    const s = await stat(path).catch(() => null)
    if (s && now - s.mtimeMs > MAX_AGE_MS) await rm(path, { force: true }).catch(() => {})
  }
}
