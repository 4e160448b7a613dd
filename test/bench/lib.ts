// Shared benchmark plumbing: a `collab serve` child process, a bare node:http baseline, load runs and timings.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

export const ROOT = new URL('../../', import.meta.url).pathname
export const BIN = join(ROOT, 'bin/collab.js')
export const TOKEN = 'glpat-bench-root-token-000000000'

export interface Child { url: string; proc: ChildProcess; stop(): Promise<void> }

export function waitForUrl(proc: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const onData = (b: Buffer) => {
      seen += b.toString()
      const m = seen.match(pattern)
      if (m) resolve(m[1])
    }
    proc.stdout?.on('data', onData)
    proc.stderr?.on('data', onData)
    proc.once('exit', (code) => reject(new Error(`process exited (${code}) before listening:\n${seen}`)))
  })
}

export const stopper = (proc: ChildProcess) => () => new Promise<void>((resolve) => {
  if (proc.exitCode !== null) return resolve()
  proc.once('exit', () => resolve())
  proc.kill('SIGTERM')
})

export async function startCollab(dataDir: string, configDir: string, extraArgs: string[] = []): Promise<Child> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir, '--root-token', TOKEN, ...extraArgs], {
    env: { ...process.env, COLLAB_CONFIG_DIR: configDir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

/** `collab serve` from the sources (serve-source.ts), so the figures are of this checkout's code; `cache` turns the response cache on. */
export async function startSourceServer(dataDir: string, cache = false): Promise<Child> {
  const loader = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs')]
  const proc = spawn(process.execPath, [...loader, join(ROOT, 'test/bench/serve-source.ts'), dataDir, TOKEN, cache ? 'cache' : 'no-cache'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

/** A bare node:http server answering every path with fixed bytes per path: the baseline for request rates. */
export type Recorded = Record<string, { body: string; headers: Record<string, string> }>

function routesFile(routes: Recorded) {
  const file = join(mkdtempSync(join(tmpdir(), 'collab-bench-')), 'routes.json')
  writeFileSync(file, JSON.stringify(routes))
  return file
}

export async function startBare(routes: Recorded): Promise<Child> {
  const proc = spawn(process.execPath, [join(ROOT, 'test/bench/bare-server.mjs'), routesFile(routes)], { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

/** The storage floor for creating an issue (store-floor.ts) on collab's database file, answering with recorded bytes. */
export async function startStoreFloor(dbFile: string, routes: Recorded, projectId: number, labelId: number): Promise<Child> {
  const script = join(ROOT, 'test/bench/store-floor.ts')
  const args = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs'), script, dbFile, routesFile(routes), String(projectId), String(labelId)]
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

export async function requestsPerSecond(url: string, headers: Record<string, string>, seconds = 5): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers })
  if (result.non2xx || result.errors) throw new Error(`load run against ${url} saw ${result.non2xx} non-2xx and ${result.errors} errors`)
  return result.requests.average
}

export function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

export async function wallTimeMs(cmd: string, args: string[], env: Record<string, string>, runs = 20): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    await new Promise<void>((resolve, reject) => {
      const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      p.stderr.on('data', (b) => (err += b))
      p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))))
    })
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return median(times)
}

/**
 * CPU a process has used, user + system in ms, with its children that have exited when `children` (git commands a
 * server ran): steadier than wall time on a busy machine. From /proc, so Linux only.
 */
export function cpuMs(pid: number | 'self', children = false): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').map(Number)
  return (f[11] + f[12] + (children ? f[13] + f[14] : 0)) * 10
}

/** Scratch directories of this run, removed when it exits: runs had left hundreds of data directories in the temporary directory. */
const scratch: string[] = []
process.once('exit', () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})

export const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `collab-bench-${label}-`))
  scratch.push(dir)
  return dir
}

export function row(cells: (string | number)[]) {
  const widths = [48, 16, 16, 10]
  // A space between cells even when one is wider than its column: the figures must not run together.
  return cells.map((c, i) => String(c).padEnd(widths[i] ?? 12)).join(' ')
}
