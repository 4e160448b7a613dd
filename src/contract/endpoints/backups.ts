// An online backup of the whole instance, for administrators: collab's own endpoint (GitLab backs up with a rake task,
// gitlab-backup, which writes the archive into its backup_path on the server).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { bool, str } from '../params.js'

/** An archive the server wrote into its data directory's backups/, with what its manifest says. */
export const StoredBackup = z.object({
  name: z.string(), path: z.string(), size: z.number(),
  collab_version: z.string(), schema_version: z.number(), created_at: z.string(), source: z.string(),
  files: z.number(), data_bytes: z.number(),
})

/**
 * POST, not GET: every call makes a new archive (never a cached answer), and it reads every secret of the instance, so
 * it takes a token with the api scope. The answer is the archive itself, a tar streamed as it is written; with `store`,
 * the server writes it into <data dir>/backups/ instead and answers where (a CLI on the same machine takes the file).
 */
export const createBackup = defineEndpoint({
  method: 'POST', path: '/admin/backups',
  summary: 'Stream a consistent backup of the instance as a tar: the database, every repository and wiki, uploads, CI files, packages, the secrets key and a manifest; with store=true, write it into the data directory\'s backups/ and answer its name, size and path (administrators)',
  auth: 'admin', raw: true, input: { store: bool().optional() }, responses: { 200: null, 201: StoredBackup },
})

/** A stored archive's name, as the server makes them; anything else (a path, `..`) is no stored backup. */
const name = () => str(255)

export const getStoredBackup = defineEndpoint({
  method: 'GET', path: '/admin/backups/:name',
  summary: 'Download a backup archive the server stored (administrators)',
  // The api scope, as for making one: the archive holds every secret of the instance.
  auth: 'admin', scope: 'write', raw: true, params: { name: name() }, responses: { 200: null },
})

export const deleteStoredBackup = defineEndpoint({
  method: 'DELETE', path: '/admin/backups/:name',
  summary: 'Delete a backup archive the server stored (administrators)',
  auth: 'admin', params: { name: name() }, responses: { 204: null },
})
