// Where downloaded bytes go: a file written through a progress bar (a terminal's stderr only), or a zip extracted
// into a directory without ever writing outside it or into a .git directory.
import { createWriteStream } from 'node:fs'
import { lstat, mkdir, realpath, unlink } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { CliError, failure } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import { entryRefusal, isDotGit } from '../../src/cli/archive-entries.js'

const MB = 1024 * 1024
const units = (n: number) => (n >= MB ? `${(n / MB).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`)

/** `[#########.........]  45%  45.0 MB / 100.0 MB`; without a Content-Length, the bytes so far. */
export function progressLine(received: number, total: number | undefined, width = 30): string {
  if (!total) return `${units(received)}`
  const done = Math.min(width, Math.floor((received / total) * width))
  const percent = String(Math.floor((received / total) * 100)).padStart(3)
  return `[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${percent}%  ${units(received)} / ${units(total)}`
}

/** A bar on a person's terminal only: never in a pipe, never in CI (where logs keep every redraw). */
export const showsProgress = (io: IO) => io.stdoutIsTTY && !io.env.CI

/** Counts bytes on their way through and redraws the bar at most ten times a second, and once at the end. */
export function progress(io: IO, total: number | undefined): Transform {
  let received = 0
  let drawn = 0
  const draw = () => io.stderr.write(`\r${progressLine(received, total)}\x1b[K`)
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length
      const now = performance.now()
      if (now - drawn > 100) {
        drawn = now
        draw()
      }
      done(null, chunk)
    },
    flush(done) {
      draw()
      io.stderr.write('\n')
      done()
    },
  })
}

/** Writes `body` to `file` (or stdout for `-`), through a progress bar when one is shown. */
export async function saveTo(io: IO, body: Readable, file: string, total: number | undefined): Promise<void> {
  if (file === '-') {
    for await (const chunk of body) io.stdout.write(chunk as Buffer)
    return
  }
  await mkdir(dirname(file), { recursive: true })
  if (showsProgress(io)) await pipeline(body, progress(io, total), createWriteStream(file))
  else await pipeline(body, createWriteStream(file))
}

const inside = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

/** An entry with its name decoded as yauzl would, before any of yauzl's checks can stop the listing. */
interface NamedEntry { entry: import('yauzl').Entry; name: string; isLink: boolean }

/**
 * Extracts `zipFile` into `dir`; returns the files written. Every entry is checked first (archive-entries): when any is
 * refused, nothing is written and the error names each one, as git refuses a whole checkout with an invalid path
 * (a half-extracted archive would be mistaken for the artifacts). A path that, once written, leads through a
 * symbolic link of the directory out of it or into a `.git` directory still stops the extraction there.
 */
export async function extractZip(zipFile: string, dir: string): Promise<string[]> {
  const { default: yauzl } = await import('yauzl')
  await mkdir(dir, { recursive: true })
  const root = await realpath(dir)
  const zip = await yauzl.openPromise(zipFile, { lazyEntries: true, autoClose: false, decodeStrings: false })
  const written: string[] = []
  try {
    const all = await listEntries(yauzl, zip)
    const refused = all.flatMap(({ name, isLink }) => {
      const why = entryRefusal(name, isLink)
      return why ? [`  '${name}': ${why}`] : []
    })
    if (refused.length) {
      throw failure(`the artifacts hold ${refused.length === 1 ? 'an entry' : `${refused.length} entries`} that may not be extracted into ${dir}; nothing was extracted:\n${refused.join('\n')}`,
        '--zip saves the archive as it is')
    }
    for (const { entry, name } of all) {
      const target = resolve(root, name)
      const isDir = name.endsWith('/')
      await mkdir(isDir ? target : dirname(target), { recursive: true })
      const real = relative(root, await realpath(isDir ? target : dirname(target)))
      if (!inside(root, resolve(root, real)) || real.split(sep).some(isDotGit)) {
        throw failure(`the archive's entry '${name}' leads through a symbolic link outside ${dir} or into a .git directory; nothing more was extracted`)
      }
      if (isDir) continue
      if ((await lstat(target).catch(() => null))?.isSymbolicLink()) await unlink(target)
      const mode = (entry.externalFileAttributes >>> 16) & 0o777
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { mode: mode || 0o644 }))
      written.push(name)
    }
  } catch (err) {
    if (err instanceof CliError) throw err
    throw failure(`cannot extract the artifacts: ${(err as Error).message}; nothing more was extracted`)
  } finally {
    zip.close()
  }
  return written
}

/** Every entry, its name decoded (UTF-8 flag, Info-ZIP's Unicode path field, `\` read as `/`) but not yet judged. */
async function listEntries(yauzl: typeof import('yauzl'), zip: import('yauzl').ZipFile): Promise<NamedEntry[]> {
  const all: NamedEntry[] = []
  for await (const entry of entries(zip)) {
    const raw = entry.fileName as unknown as Buffer
    const name = (yauzl as unknown as { getFileNameLowLevel(flags: number, raw: Buffer, extra: unknown, strict: boolean): string })
      .getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false)
    all.push({ entry, name, isLink: ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000 })
  }
  return all
}

/** yauzl's entries one at a time (lazyEntries: the next is read when asked for). */
async function* entries(zip: import('yauzl').ZipFile): AsyncGenerator<import('yauzl').Entry> {
  for (;;) {
    const next = await new Promise<import('yauzl').Entry | null>((resolveEntry, reject) => {
      const onEntry = (entry: import('yauzl').Entry) => { cleanup(); resolveEntry(entry) }
      const onEnd = () => { cleanup(); resolveEntry(null) }
      const onError = (err: Error) => { cleanup(); reject(err) }
      const cleanup = () => { zip.off('entry', onEntry); zip.off('end', onEnd); zip.off('error', onError) }
      zip.once('entry', onEntry).once('end', onEnd).once('error', onError)
      zip.readEntry()
    })
    if (!next) return
    yield next
  }
}
