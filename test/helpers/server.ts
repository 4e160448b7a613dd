// Starts a real collab server in-process on 127.0.0.1 port 0 with a temp data directory and a known root token; with
// `runner`, CI jobs run as under `collab serve`: in the built `collab runner` as a child process, never in this one.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixedClock, type Clock } from '../../src/core/clock.js'
import { hashPasswordSync } from '../../src/core/ids.js'
import { silentLogger, streamLogger } from '../../src/core/logger.js'
import { dataLayout } from '../../src/core/paths.js'
import { createServer } from '../../src/server/app.js'
import { boot } from '../../src/server/boot.js'
import type { RunnerChild } from '../../src/server/runner-child.js'
import { startEmbeddedRunner } from '../../src/server/serve.js'
import { closeDatabase, openDatabase } from '../../src/server/store/db.js'
import { findUserByUsername, setPassword } from '../../src/server/store/users.js'

export const ROOT_TOKEN = 'glpat-test-root-token-0000000000'
export const ROOT_PASSWORD = 'root-password-123'

export interface TestServer {
  url: string
  api: string
  rootToken: string
  dataDir: string
  app: ReturnType<typeof boot>['app']
  /** The runner child's process id while it runs (with `runner`). */
  runnerPid(): number | undefined
  close(): Promise<void>
}

/** The built CLI the runner child runs (`npm run build` first). */
const COLLAB_BIN = new URL('../../bin/collab.js', import.meta.url).pathname
const BUILT_CLI = new URL('../../dist/cli.cjs', import.meta.url).pathname

// Running the migrations was half of a test server's start (hundreds start in a run): each worker migrates one empty
// database and every server starts from a copy, as collab serve starts on a database migrated before. It holds no
// rows, no key and no clock's time, so a copy is what a fresh migration would have written.
let migrated: Buffer | undefined

function migratedDatabase(): Buffer {
  if (!migrated) {
    const dir = mkdtempSync(join(tmpdir(), 'collab-test-schema-'))
    try {
      const file = join(dir, 'collab.db')
      closeDatabase(openDatabase(file))
      migrated = readFileSync(file)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return migrated
}

// Hashing root's password (scrypt, slow on purpose) was most of what was left of a start: each worker hashes it once and
// every server stores that hash, as boot's setRootPassword would store its own.
let rootPasswordHash: string | undefined

export async function startTestServer(opts: { clock?: Clock; log?: boolean; responseCache?: boolean; runner?: { concurrency: number } } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'collab-test-'))
  writeFileSync(dataLayout(dataDir).database, migratedDatabase(), { mode: 0o600 })
  const log = opts.log ? streamLogger((l) => process.stderr.write(l + '\n')) : silentLogger
  const { app } = boot({ dataDir, log, clock: opts.clock, rootToken: ROOT_TOKEN, responseCache: opts.responseCache })
  setPassword(app.db, findUserByUsername(app.db, 'root')!.id, (rootPasswordHash ??= hashPasswordSync(ROOT_PASSWORD)))
  const server = createServer(app)
  const { url } = await server.listen(0, '127.0.0.1')
  let runner: RunnerChild | undefined
  if (opts.runner) {
    if (!existsSync(BUILT_CLI)) throw new Error('CI test servers run jobs in the built collab runner: npm run build first')
    // Its own HOME, inside the data directory: a shell job's HOME, and nothing of the tester's home to hide or read.
    const home = join(dataDir, 'runner-home')
    mkdirSync(home)
    runner = await startEmbeddedRunner(app, {
      command: [process.execPath, COLLAB_BIN], url, dataDir, concurrency: opts.runner.concurrency, home, unsandboxedForAll: true,
      log: (line) => app.log.warn(line),
    })
  }
  return {
    url,
    api: `${url}/api/v4`,
    rootToken: ROOT_TOKEN,
    dataDir,
    app,
    runnerPid: () => runner?.pid(),
    async close() {
      // The runner first: it reports the jobs it stops while the server still answers.
      await runner?.stop()
      await server.close()
      closeDatabase(app.db)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export { fixedClock }
