// The built bundles as src/cli/launch.ts loads them (`npm run build` first): V8 takes their code caches, stacks name the
// files that ran, the source is kept one byte a character, and the server starts with its young generation held.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const DIST = new URL('../../dist/', import.meta.url).pathname
const scratch = mkdtempSync(join(tmpdir(), 'collab-launch-'))
// Says, for every script compiled with a code cache, whether V8 took it (it refuses one made under other V8 flags).
const REPORT_CACHE = join(scratch, 'report-cache.cjs')
beforeAll(() => writeFileSync(REPORT_CACHE, `
  const vm = require('node:vm')
  const Script = vm.Script
  vm.Script = class extends Script {
    constructor(code, options) {
      super(code, options)
      if (options && options.cachedData) process.stdout.write(require('node:path').basename(options.filename) + (this.cachedDataRejected ? ' rejected' : ' taken') + '\\n')
    }
  }`))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs a script in a fresh node (flags as collab runs with: none), answering its stdout. */
async function node(script: string, preload?: string): Promise<string> {
  const args = preload ? ['-r', preload, '-e', script] : ['-e', script]
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: scratch, env: { ...process.env, NO_COLOR: '1' } })
  return stdout
}

describe('the built bundles', () => {
  it('take their code caches: the server launcher holds the young generation only after compiling', async () => {
    expect(await node(`require(${JSON.stringify(join(DIST, 'server-launch.cjs'))})`, REPORT_CACHE)).toBe('server.cjs taken\n')
    expect(await node(`require(${JSON.stringify(join(DIST, 'launch.cjs'))}).loadCli(${JSON.stringify(DIST)})`, REPORT_CACHE)).toBe('cli.cjs taken\n')
  })

  it('name dist/server.cjs in stacks, not the build directory they were warmed in', async () => {
    const stack = await node(`
      const server = require(${JSON.stringify(join(DIST, 'server-launch.cjs'))})
      server.startServer({ host: '127.0.0.1', port: 0, dataDir: null, log() {} }).catch((err) => console.log(err.stack))`)
    expect(stack).toMatch(/^TypeError \[ERR_INVALID_ARG_TYPE\]/)
    expect(stack).toContain(`at boot (${join(DIST, 'server.cjs')}:`)
    expect(stack).not.toContain('dist.build-')
  })

  it('are ASCII, so V8 keeps their source one byte a character', () => {
    for (const file of ['server.cjs', 'cli.cjs']) expect(readFileSync(join(DIST, file), 'latin1')).not.toMatch(/[^\x00-\x7f]/)
  })

  it("start the server with V8's young generation at its first size, and let it grow once started", async () => {
    const dataDir = join(scratch, 'data')
    const sizes = JSON.parse(await node(`
      const v8 = require('node:v8')
      const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576
      const server = require(${JSON.stringify(join(DIST, 'server-launch.cjs'))})
      const loaded = newSpace()
      server.startServer({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir)}, log() {}, runner: { enabled: false } }).then(async (s) => {
        const started = newSpace()
        // A million objects that all survive: what makes V8 grow a young generation it is free to grow.
        const kept = Array.from({ length: 1e6 }, (_, i) => ({ i }))
        console.log(JSON.stringify({ loaded, started, grown: newSpace(), kept: kept.length }))
        await s.close()
      })`))
    // Unheld, the modules' setup alone grows it to 16 MB and the start to 32.
    expect(sizes.loaded).toBeLessThanOrEqual(4)
    expect(sizes.started).toBeLessThanOrEqual(4)
    expect(sizes.grown).toBeGreaterThanOrEqual(16)
  })
})
