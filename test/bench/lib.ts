// Shared benchmark plumbing: a `collab serve` child process, a bare node:http baseline, load runs and timings.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'

export const ROOT = new URL('../../', import.meta.url).pathname
export const BIN = join(ROOT, 'bin/collab.js')
export const TOKEN = 'glpat-bench-root-token-000000000'

export interface Child { url: string; proc: ChildProcess; stop(): Promise<void> }

function waitForUrl(proc: ChildProcess, pattern: RegExp): Promise<string> {
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

const stopper = (proc: ChildProcess) => () => new Promise<void>((resolve) => {
  if (proc.exitCode !== null) return resolve()
  proc.once('exit', () => resolve())
  proc.kill('SIGTERM')
})

export async function startCollab(dataDir: string, configDir: string): Promise<Child> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dataDir, '--root-token', TOKEN], {
    env: { ...process.env, COLLAB_CONFIG_DIR: configDir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

/** A bare node:http server answering every path with fixed bytes per path: the baseline for request rates. */
export async function startBare(routes: Record<string, { body: string; headers: Record<string, string> }>): Promise<Child> {
  const file = join(mkdtempSync(join(tmpdir(), 'collab-bench-')), 'routes.json')
  writeFileSync(file, JSON.stringify(routes))
  const proc = spawn(process.execPath, [join(ROOT, 'test/bench/bare-server.mjs'), file], { stdio: ['ignore', 'pipe', 'pipe'] })
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

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `collab-bench-${label}-`))

export function row(cells: (string | number)[]) {
  const widths = [44, 14, 14, 10]
  return cells.map((c, i) => String(c).padEnd(widths[i] ?? 12)).join('')
}
