// Job artifacts on the runner's side: zipped from the work dir with yazl (streamed, never held in memory) as the
// job's `artifacts:` select them, and dependencies' archives extracted with yauzl, never writing outside the target.
import { createWriteStream } from 'node:fs'
import { lstat, mkdir, realpath, unlink } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import yauzl from 'yauzl'
import yazl from 'yazl'
import type { RunnerJobArtifactsSpec } from '../../contract/entities/runner-job.js'
import { findZipEntry } from '../../core/zip.js'
import { selectArtifactSources, type ArtifactSelection } from './artifacts-paths.js'
import { listUntrackedFiles } from './checkout.js'

/** What `paths`, `exclude` and `untracked` select, for callers that report it before zipping. */
export function selectArtifacts(workDir: string, spec: RunnerJobArtifactsSpec): Promise<ArtifactSelection> {
  // Outside a git work tree nothing counts as untracked.
  return selectArtifactSources(workDir, spec, () => listUntrackedFiles(workDir).catch(() => []))
}

/** Writes the zip of what the spec selects in `workDir`; files are streamed into it, never held in memory. */
export async function createArtifactsZip(workDir: string, spec: RunnerJobArtifactsSpec, outFile: string): Promise<{ entries: number; unmatched: string[] }> {
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
    await findZipEntry(zip, async (entry) => {
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
