// POST /admin/backups: the instance's backup streamed as a tar (administrators; the mount answers 401 and 403 first).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { backupOfServer } from '../services/instance/index.js'

export const backupHandlers = {
  // No length: the archive is written as it is sent. The CLI reads the manifest at its end to know it arrived whole.
  createBackup: async (_input, ctx) => ({
    status: 200, stream: await backupOfServer(ctx),
    headers: {
      'Content-Type': 'application/x-tar', 'Content-Disposition': 'attachment; filename="collab-backup.tar"',
      'Content-Transfer-Encoding': 'binary', 'Cache-Control': 'private, no-store',
    },
  }),
} satisfies Handlers<typeof contract.backups>
