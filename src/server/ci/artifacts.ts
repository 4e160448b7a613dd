// Job artifacts: zipped from the work dir with yazl (streaming), stored with Workhorse's metadata.gz, single entries
// read and whole archives extracted with yauzl, never writing outside the target directory.
import { createWriteStream } from 'node:fs'
import { copyFile, lstat, mkdir, realpath, rename, rm, stat, unlink } from 'node:fs/promises'
import { dirname, extname, join, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'
import yazl from 'yazl'
import type { DataLayout } from '../../core/paths.js'
import { listUntrackedFiles } from '../git/work-tree.js'
import { selectArtifactSources, type ArtifactSelection } from './artifacts-paths.js'
import { writeMetadataGz } from './artifacts-metadata.js'
import type { JobArtifactSpec } from './runner/protocol.js'

export const ARTIFACTS_FILENAME = 'artifacts.zip'
export const METADATA_FILENAME = 'metadata.gz'

export const artifactsPath = (layout: DataLayout, jobId: number) => join(layout.artifacts, String(jobId), ARTIFACTS_FILENAME)
export const artifactsMetadataPath = (layout: DataLayout, jobId: number) => join(layout.artifacts, String(jobId), METADATA_FILENAME)

/** What `paths`, `exclude` and `untracked` select, for callers that report it before zipping. */
export function selectArtifacts(workDir: string, spec: JobArtifactSpec): Promise<ArtifactSelection> {
  // Outside a git work tree nothing counts as untracked.
  return selectArtifactSources(workDir, spec, () => listUntrackedFiles(workDir).catch(() => []))
}

/** Writes the zip of what the spec selects in `workDir`; files are streamed into it, never held in memory. */
export async function createArtifactsZip(workDir: string, spec: JobArtifactSpec, outFile: string): Promise<{ entries: number; unmatched: string[] }> {
  const { sources, unmatched } = await selectArtifacts(workDir, spec)
  const zip = new yazl.ZipFile()
  const failed = new Promise<never>((_, reject) => zip.on('error', reject))
  for (const s of sources) {
    const options = { mtime: s.stats.mtime, mode: s.stats.mode }
    if (s.directory) zip.addEmptyDirectory(s.name, options)
    else zip.addFile(s.realPath, s.name, options)
  }
  zip.end()
  await mkdir(dirname(outFile), { recursive: true })
  await Promise.race([pipeline(zip.outputStream, createWriteStream(outFile)), failed])
  return { entries: sources.length, unmatched }
}

/** Moves the zip to `<artifacts>/<job id>/artifacts.zip` and writes metadata.gz beside it. */
export async function storeArtifacts(layout: DataLayout, jobId: number, zipPath: string): Promise<{ file: string; size: number; metadataSize: number }> {
  const target = artifactsPath(layout, jobId)
  const metadata = artifactsMetadataPath(layout, jobId)
  await mkdir(dirname(target), { recursive: true })
  try {
    await rename(zipPath, target)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
    await copyFile(zipPath, target)
    await unlink(zipPath)
  }
  await writeMetadataGz(target, metadata)
  return { file: ARTIFACTS_FILENAME, size: (await stat(target)).size, metadataSize: (await stat(metadata)).size }
}

export async function eraseArtifacts(layout: DataLayout, jobId: number): Promise<void> {
  await rm(join(layout.artifacts, String(jobId)), { recursive: true, force: true })
}

// Go's mime.TypeByExtension: its built-in table plus the common entries of a Debian /etc/mime.types (text types get
// `; charset=utf-8` there too).
const CONTENT_TYPES: Record<string, string> = {
  '.avif': 'image/avif', '.css': 'text/css; charset=utf-8', '.gif': 'image/gif', '.htm': 'text/html; charset=utf-8',
  '.html': 'text/html; charset=utf-8', '.jpeg': 'image/jpeg', '.jpg': 'image/jpeg', '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json', '.mjs': 'text/javascript; charset=utf-8', '.pdf': 'application/pdf', '.png': 'image/png',
  '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.webp': 'image/webp', '.xml': 'text/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.csv': 'text/csv; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.zip': 'application/zip', '.gz': 'application/gzip', '.tar': 'application/x-tar', '.ico': 'image/vnd.microsoft.icon',
  '.bmp': 'image/bmp', '.mp4': 'video/mp4', '.mp3': 'audio/mpeg', '.woff': 'font/woff', '.woff2': 'font/woff2',
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/** Opens a zip reading entries on demand; the caller closes it. Null when the file is missing or not a zip. */
async function openZip(zipPath: string): Promise<yauzl.ZipFile | null> {
  try {
    return await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false })
  } catch {
    return null
  }
}

/** Calls `visit` for each entry in order until it returns true; resolves with that entry or null. */
function findEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => boolean | Promise<boolean>): Promise<yauzl.Entry | null> {
  return new Promise((resolveEntry, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      Promise.resolve(visit(entry)).then((stop) => (stop ? resolveEntry(entry) : zip.readEntry()), reject)
    })
    zip.on('end', () => resolveEntry(null))
    zip.on('error', reject)
    zip.readEntry()
  })
}

/** One file of a job's artifacts, streamed (Workhorse's `entry` handler); null when there is no such file. */
export async function readArtifactEntry(layout: DataLayout, jobId: number, entryPath: string): Promise<{ stream: Readable; size: number; contentType: string } | null> {
  if (entryPath === '' || entryPath.endsWith('/') || entryPath.includes('\0')) return null
  const zip = await openZip(artifactsPath(layout, jobId))
  if (!zip) return null
  try {
    const entry = await findEntry(zip, (e) => e.fileName === entryPath)
    if (!entry) {
      zip.close()
      return null
    }
    const stream = await zip.openReadStreamPromise(entry)
    stream.on('close', () => zip.close())
    return { stream, size: entry.uncompressedSize, contentType: contentTypeFor(entryPath) }
  } catch {
    zip.close()
    return null
  }
}

const isInside = (root: string, path: string) => path === root || path.startsWith(root + sep)

/**
 * Extracts every entry under `intoDir`. Entries naming absolute paths or `..` (zip-slip), symlink entries, and
 * paths that would pass through a symlink leading out of `intoDir` make it throw; nothing is written outside.
 */
export async function extractArtifacts(zipPath: string, intoDir: string): Promise<void> {
  await mkdir(intoDir, { recursive: true })
  const root = await realpath(intoDir)
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false })
  try {
    await findEntry(zip, async (entry) => {
      await extractEntry(zip, entry, root)
      return false
    })
  } finally {
    zip.close()
  }
}

async function extractEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string) {
  const target = resolve(root, entry.fileName)
  if (!isInside(root, target)) throw new Error(`artifact entry outside the target directory: ${entry.fileName}`)
  const fileType = (entry.externalFileAttributes >>> 16) & 0o170000
  if (fileType === 0o120000) throw new Error(`artifact entry is a symbolic link: ${entry.fileName}`)
  const directory = entry.fileName.endsWith('/')
  const dir = directory ? target : dirname(target)
  await mkdir(dir, { recursive: true })
  // The work dir comes from a repository, which may hold a symlink such as `out -> /etc`.
  if (!isInside(root, await realpath(dir))) throw new Error(`artifact entry leads outside the target directory: ${entry.fileName}`)
  if (directory) return
  const existing = await lstat(target).catch(() => null)
  if (existing?.isSymbolicLink()) await unlink(target)
  const mode = (entry.externalFileAttributes >>> 16) & 0o777
  await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { mode: mode || 0o644 }))
}
