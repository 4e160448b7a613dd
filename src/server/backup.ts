// collab backup's way into a data directory without a server: a stopped server's directory read for a backup, and a
// restore that makes a new one. (With a server running, `collab backup create` asks it over HTTP instead.)
import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { CollabError } from '../core/errors.js'
import { dataLayout } from '../core/paths.js'
import type { ArchiveProgress } from './services/instance/backup-archive.js'
import { createBackup } from './services/instance/backup.js'
import { closeStoppedDatabase, openStoppedDatabase } from './store/backup.js'

export type { ArchiveProgress, BackupManifest, BackupHeader } from './services/instance/backup-archive.js'
export { HEADER_ENTRY, MANIFEST_ENTRY } from './services/instance/backup-archive.js'
export { restoreBackup, type RestoreSummary } from './services/instance/backup-restore.js'

/** The backup of the stopped server's data directory `dataDir`, as a tar stream; fails at once if a server runs on it. */
export async function backupDataDirectory(dataDir: string, now: () => Date, onProgress?: (p: ArchiveProgress) => void): Promise<Readable> {
  const layout = dataLayout(dataDir)
  if (!(await stat(layout.database).then((s) => s.isFile(), () => false))) {
    throw new CollabError('FAILED', `${dataDir} holds no collab database (collab.db): is it a collab serve data directory?`)
  }
  const db = openStoppedDatabase(layout.database)
  try {
    const stream = await createBackup({ db, layout, now, source: 'directory', onProgress })
    stream.once('close', () => closeStoppedDatabase(db))
    return stream
  } catch (err) {
    closeStoppedDatabase(db)
    throw err
  }
}
