// collab backup create to a plain .tar from a running server: the server writes the archive into its data directory
// (as gitlab-backup writes into its backup_path) and a CLI on the same machine moves the file into place, so no byte
// crosses a socket (a socket costs a copy on each side: about twice tar's CPU). A CLI that cannot see or move the
// server's file (another machine, another user) downloads it by name and has the server delete it.
import { createWriteStream } from 'node:fs'
import { chmod, copyFile, open as openFile, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, isAbsolute } from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { IO } from '../../src/cli/io.js'
import type { StoredBackup } from '../../src/contract/endpoints/backups.js'
import { STORED_BACKUP_NAME } from '../../src/core/backup-names.js'
import type { z } from 'zod'
import { failure } from '../../src/cli/errors.js'
import { openBytes } from '../job/bytes.js'
import { progress, showsProgress } from '../job/transfer.js'
import { completeManifest, seeing, summaryOf, watchArchive } from './archive.js'
import { receivable, receiveInto } from './receive.js'

/** Set (to anything but 0), the CLI downloads the server's archive even where it could move the file. */
export const RECEIVE_ENV = 'COLLAB_BACKUP_RECEIVE'

type Stored = z.infer<typeof StoredBackup>
/** What the archive holds, and whether its file was moved here or downloaded. */
export type StoredSummary = ReturnType<typeof summaryOf> & { transfer: 'moved' | 'downloaded' }

/**
 * Whether the server runs on this machine, by its address: only then is the file it names ours to look for. A server
 * elsewhere is sent the bytes straight (storing, reading back and sending costs it more than streaming), and a path it
 * answers is never acted on here: a hostile server could name any file of this user's with its size.
 */
export function sameMachine(host: string): boolean {
  let hostname: string
  try {
    hostname = new URL(host).hostname.replace(/^\[|\]$/g, '').toLowerCase()
  } catch {
    return false
  }
  return hostname === 'localhost' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * Moves the server's archive to `to`: false when it is not the file the server answered (not visible here, another
 * name or size) or cannot be moved (permissions); across file systems it is copied (copy_file_range) and the original
 * removed.
 */
async function moved(stored: Stored, to: string): Promise<boolean> {
  if (!STORED_BACKUP_NAME.test(stored.name) || basename(stored.path) !== stored.name || basename(dirname(stored.path)) !== 'backups' || !isAbsolute(stored.path)) return false
  const info = await stat(stored.path).catch(() => null)
  if (!info?.isFile() || info.size !== stored.size) return false
  try {
    await rename(stored.path, to)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') return false
  }
  try {
    await copyFile(stored.path, to)
    await chmod(to, 0o600)
  } catch {
    await unlink(to).catch(() => undefined)
    return false
  }
  // The copy is whole; an original left behind (no right to remove it) is deleted through the server by the caller.
  return unlink(stored.path).then(() => true, () => true)
}

/** The stored archive downloaded into `to` (made 0600), checked whole by its manifest as it passes. */
async function received(io: IO, api: ApiClient, stored: Stored, to: string): Promise<ReturnType<typeof summaryOf>> {
  const { see, watched } = watchArchive()
  const get = route('getStoredBackup', { name: stored.name })
  if (receivable(api) && !showsProgress(io)) {
    const handle = await openFile(to, 'w', 0o600).catch((err: Error) => {
      throw failure(`cannot write the backup to ${to}: ${err.message}`, 'the server deleted its copy; nothing was backed up')
    })
    try {
      await receiveInto(api, get, handle.fd, see)
    } finally {
      await handle.close()
    }
  } else {
    const steps: (Readable | Writable)[] = [await openBytes(api, get)]
    if (showsProgress(io)) steps.push(progress(io, stored.size))
    steps.push(seeing(see), createWriteStream(to, { mode: 0o600 }))
    await (pipeline as unknown as (...args: unknown[]) => Promise<void>)(...steps)
  }
  return summaryOf(completeManifest(watched))
}

/**
 * Asks the server to store a backup and brings it to `to` (a temporary name beside the caller's file): moved when the
 * server's file is here, downloaded otherwise. The server keeps no copy either way, whatever fails.
 */
export async function takeStoredBackup(io: IO, api: ApiClient, to: string): Promise<StoredSummary> {
  const { data: stored } = await api.send(route('createBackup', {}), { store: true })
  let gone = false
  try {
    const receive = (io.env[RECEIVE_ENV] ?? '0') !== '0'
    if (!receive && (await moved(stored, to))) {
      gone = !(await stat(stored.path).then(() => true, () => false))
      const { collab_version, schema_version, created_at, source, files, data_bytes } = stored
      return { collab_version, schema_version, created_at, source: source as StoredSummary['source'], files, data_bytes, transfer: 'moved' }
    }
    return { ...(await received(io, api, stored, to)), transfer: 'downloaded' }
  } finally {
    if (!gone) await api.call(route('deleteStoredBackup', { name: stored.name }), { throwOnError: false }).catch(() => undefined)
  }
}
