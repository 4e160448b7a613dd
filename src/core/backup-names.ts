// The names of backup archives, which the CLI gives a file it writes and the server a file it stores, and by which the
// CLI recognises a server's stored file.

/** 20240102-030405 for a moment, in UTC. */
export const backupStamp = (now: Date) => now.toISOString().slice(0, 19).replace(/-|:/g, '').replace('T', '-')

/** The name `collab serve` gives a backup it stores (POST /admin/backups with store), the only names it serves back. */
export const STORED_BACKUP_NAME = /^collab-backup-\d{8}-\d{6}-[0-9a-f]{16}\.tar$/
