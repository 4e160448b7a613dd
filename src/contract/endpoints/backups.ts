// An online backup of the whole instance, for administrators: collab's own endpoint (GitLab backs up with a rake task).
import { defineEndpoint } from '../define.js'

/**
 * POST, not GET: every call makes a new archive (never a cached answer), and it reads every secret of the instance, so
 * it takes a token with the api scope. The answer is the archive itself, a tar streamed as it is written.
 */
export const createBackup = defineEndpoint({
  method: 'POST', path: '/admin/backups',
  summary: 'Stream a consistent backup of the instance as a tar: the database, every repository and wiki, uploads, CI files, packages, the secrets key and a manifest (administrators)',
  auth: 'admin', raw: true, responses: { 200: null },
})
