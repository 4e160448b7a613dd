// Starts a real collab server in-process on 127.0.0.1 port 0 with a temp data directory and a known root token.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixedClock, type Clock } from '../../src/core/clock.js'
import { silentLogger, streamLogger } from '../../src/core/logger.js'
import { createServer } from '../../src/server/app.js'
import { boot } from '../../src/server/boot.js'
import { closeDatabase } from '../../src/server/store/db.js'

export const ROOT_TOKEN = 'glpat-test-root-token-0000000000'
export const ROOT_PASSWORD = 'root-password-123'

export interface TestServer {
  url: string
  api: string
  rootToken: string
  dataDir: string
  app: ReturnType<typeof boot>['app']
  close(): Promise<void>
}

export async function startTestServer(opts: { clock?: Clock; log?: boolean; responseCache?: boolean; runner?: import('../../src/server/ci/lifecycle-runtime.js').RunnerOptions } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'collab-test-'))
  const log = opts.log ? streamLogger((l) => process.stderr.write(l + '\n')) : silentLogger
  const { app } = boot({ dataDir, log, clock: opts.clock, rootToken: ROOT_TOKEN, rootPassword: ROOT_PASSWORD, responseCache: opts.responseCache })
  const server = createServer(app, { runner: opts.runner })
  const { url } = await server.listen(0, '127.0.0.1')
  return {
    url,
    api: `${url}/api/v4`,
    rootToken: ROOT_TOKEN,
    dataDir,
    app,
    async close() {
      await server.close()
      closeDatabase(app.db)
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export { fixedClock }
