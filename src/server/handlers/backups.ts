// /admin/backups: the instance's backup streamed as a tar, or stored in the data directory and read or deleted by name
// (administrators; the mount answers 401 and 403 first).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { backupOfServer, deleteStoredBackup, readStoredBackup, storeBackup } from '../services/instance/index.js'

const TAR_HEADERS = { 'Content-Type': 'application/x-tar', 'Content-Transfer-Encoding': 'binary', 'Cache-Control': 'private, no-store' }

export const backupHandlers = {
  // No length: the archive is written as it is sent. The CLI reads the manifest at its end to know it arrived whole.
  createBackup: async (input, ctx) => {
    if (input.store) return { status: 201, body: await storeBackup(ctx) }
    return { status: 200, stream: await backupOfServer(ctx), headers: { ...TAR_HEADERS, 'Content-Disposition': 'attachment; filename="collab-backup.tar"' } }
  },
  getStoredBackup: async ({ name }, ctx) => {
    const { stream, size } = await readStoredBackup(ctx, name)
    return { status: 200, stream, headers: { ...TAR_HEADERS, 'Content-Length': String(size), 'Content-Disposition': `attachment; filename="${name}"` } }
  },
  deleteStoredBackup: async ({ name }, ctx) => {
    await deleteStoredBackup(ctx, name)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.backups>
