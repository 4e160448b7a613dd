// Job artifacts on the server's disk: stored with Workhorse's metadata.gz, single entries read with yauzl. Runners
// make and unpack archives themselves (src/runner/executor/artifacts.ts).
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { dirname, extname, join } from 'node:path'
import type { Readable } from 'node:stream'
import type yauzl from 'yauzl'
import type { DataLayout } from '../../core/paths.js'
import { findZipEntry } from '../../core/zip.js'
import { writeMetadataGz } from './artifacts-metadata.js'

export const ARTIFACTS_FILENAME = 'artifacts.zip'
export const METADATA_FILENAME = 'metadata.gz'

export const artifactsPath = (layout: DataLayout, jobId: number) => join(layout.artifacts, String(jobId), ARTIFACTS_FILENAME)
export const artifactsMetadataPath = (layout: DataLayout, jobId: number) => join(layout.artifacts, String(jobId), METADATA_FILENAME)

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
    const { default: yauzl } = await import('yauzl')
    return await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false })
  } catch {
    return null
  }
}

/** One file of a job's artifacts, streamed (Workhorse's `entry` handler); null when there is no such file. */
export async function readArtifactEntry(layout: DataLayout, jobId: number, entryPath: string): Promise<{ stream: Readable; size: number; contentType: string } | null> {
  if (entryPath === '' || entryPath.endsWith('/') || entryPath.includes('\0')) return null
  const zip = await openZip(artifactsPath(layout, jobId))
  if (!zip) return null
  try {
    const entry = await findZipEntry(zip, (e) => e.fileName === entryPath)
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
