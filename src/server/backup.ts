// collab backup's way into a data directory without a server: a stopped server's directory read for a backup, and a
// restore that makes a new one. (With a server running, `collab backup create` asks it over HTTP instead.)
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { CollabError } from '../core/errors.js'
import { dataLayout } from '../core/paths.js'
import type { ArchiveProgress } from './services/instance/backup-archive.js'
import { createBackup, writeBackup } from './services/instance/backup.js'
import { FileSink } from './services/instance/backup-sink.js'
import { closeStoppedDatabase, openStoppedDatabase } from './store/backup.js'

export type { ArchiveProgress, BackupManifest, BackupHeader } from './services/instance/backup-archive.js'
export { HEADER_ENTRY, MANIFEST_ENTRY } from './services/instance/backup-archive.js'
export { restoreBackup, type RestoreSummary } from './services/instance/backup-restore.js'

/** A stopped server's data directory and its database, opened for a backup; fails at once if a server runs on it. */
async function stoppedServer(dataDir: string) {
  const layout = dataLayout(dataDir)
  if (!(await stat(layout.database).then((s) => s.isFile(), () => false))) {
    throw new CollabError('FAILED', `${dataDir} holds no collab database (collab.db): is it a collab serve data directory?`)
  }
  return { layout, db: openStoppedDatabase(layout.database) }
}

/** The backup of the stopped server's data directory `dataDir`, as a tar stream. */
export async function backupDataDirectory(dataDir: string, now: () => Date, onProgress?: (p: ArchiveProgress) => void): Promise<Readable> {
  const { layout, db } = await stoppedServer(dataDir)
  try {
    const stream = await createBackup({ db, layout, now, source: 'directory', onProgress })
    stream.once('close', () => closeStoppedDatabase(db))
    return stream
  } catch (err) {
    closeStoppedDatabase(db)
    throw err
  }
}

/**
 * The backup of the stopped server's data directory `dataDir` written into the open file `fd` from its start, each
 * chunk shown to `see` on its way: no stream in between, and the file chunks' memory reused once written.
 */
export async function writeDataDirectoryBackup(dataDir: string, now: () => Date, fd: number, see: (chunk: Buffer) => void): Promise<void> {
  const { layout, db } = await stoppedServer(dataDir)
  try {
    await writeBackup({ db, layout, now, source: 'directory' }, new FileSink(fd, see))
  } finally {
    closeStoppedDatabase(db)
  }
}
