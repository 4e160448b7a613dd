// Builds the app's dependencies from a data directory: folders, the database, the first administrator.
import { constants, copyFileSync, mkdirSync } from 'node:fs'
import { systemClock, type Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import { dataLayout } from '../core/paths.js'
import { createSecretBox } from '../core/secret-box.js'
import type { AppDeps } from './context.js'
import { bootstrapRoot, setRootPassword } from './services/users/users.js'
import { closeDatabase, openDatabase, type Db } from './store/db.js'
import { hasSealedSecrets, useServerKey } from './store/secrets.js'
import { loadServerKey } from './secret-key.js'
import { createTaskQueue } from './tasks.js'

export interface BootOptions {
  dataDir: string
  log: Logger
  clock?: Clock
  rootToken?: string
  rootPassword?: string
  responseCache?: boolean
  trustedProxies?: readonly string[]
  /**
   * An empty database already migrated (the build writes dist/schema.db): a data directory without a database starts
   * from a copy of it instead of running every migration, which was most of a fresh start's extra time.
   */
  migratedDatabase?: string
}

export function boot(opts: BootOptions) {
  const layout = dataLayout(opts.dataDir)
  for (const dir of [layout.root, layout.repositories, layout.uploads]) mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (opts.migratedDatabase) startFromMigrated(opts.migratedDatabase, layout.database)
  const db = openDatabase(layout.database)
  unlockSecrets(db, layout.secrets)
  const app: AppDeps = {
    db, clock: opts.clock ?? systemClock, layout, log: opts.log, tasks: createTaskQueue(opts.log),
    responseCache: opts.responseCache ?? true, trustedProxies: opts.trustedProxies ?? [],
  }
  const root = bootstrapRoot(app, opts.rootToken)
  if (opts.rootPassword) setRootPassword(app, opts.rootPassword)
  return { app, root }
}

/** The key must open the database's secrets before anything reads them; otherwise the server does not start. */
function unlockSecrets(db: Db, keyFile: string) {
  try {
    useServerKey(db, createSecretBox(loadServerKey(keyFile, !hasSealedSecrets(db))), keyFile)
  } catch (err) {
    closeDatabase(db)
    throw err
  }
}

/**
 * A copy where there is no database yet (never over one: another server starting beside this one may have made it).
 * What the copy lacks, migrations newer than the build's, openDatabase applies as on any older database.
 */
function startFromMigrated(image: string, database: string) {
  try {
    copyFileSync(image, database, constants.COPYFILE_EXCL)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}
