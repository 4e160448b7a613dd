// Start-up benchmark (issue 24): from spawning `collab serve` (the built CLI) to its first 200 on /api/v4/version, with
// a fresh data directory and with an existing one, and its RSS once idle; beside a bare node:http server spawned and
// asked the same way (target: under 300 ms; idle RSS under 100 MB). Then the time of a second request, to a project's
// merge requests: the server builds a route group's tree and imports the contract group's declarations and handlers on
// first use (the build's code cache holds only the groups it warmed, not this one), and this shows what that costs the
// first caller (404 on the empty instance, which still routes, authenticates and looks the project up).
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { BIN, cpuMs, median, row, stopper, tempDir, TOKEN } from './lib.js'

const RUNS = 7

const BARE = `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"version":"17.0.0-collab"}') }).listen(Number(process.argv[1]), '127.0.0.1')`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

const SECOND = '/api/v4/projects/1/merge_requests'

/** Milliseconds a request takes to be answered, whatever its status. */
async function timed(url: string) {
  const t = process.hrtime.bigint()
  const res = await fetch(url, { headers: { 'private-token': TOKEN } })
  await res.arrayBuffer()
  return Number(process.hrtime.bigint() - t) / 1e6
}

/** Asks until the first 200; a refused connection means not listening yet. */
async function firstAnswer(url: string, proc: ChildProcess) {
  for (let attempt = 0; attempt < 20_000; attempt++) {
    if (proc.exitCode !== null) throw new Error(`the server exited (${proc.exitCode}) before answering`)
    try {
      const res = await fetch(url, { headers: { 'private-token': TOKEN } })
      await res.arrayBuffer()
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  throw new Error(`no answer from ${url}`)
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** Milliseconds from spawn to the first 200, then of a second request, and the RSS a second later. */
async function startOnce(args: (port: number) => string[], env: Record<string, string> = {}) {
  const port = await freePort()
  const t = process.hrtime.bigint()
  const proc = spawn(process.execPath, args(port), { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  try {
    await firstAnswer(`http://127.0.0.1:${port}/api/v4/version`, proc)
    const ms = Number(process.hrtime.bigint() - t) / 1e6
    const cpu = cpuMs(proc.pid!)
    const second = await timed(`http://127.0.0.1:${port}${SECOND}`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    return { ms, cpu, second, rss: rssMb(proc.pid!) }
  } finally {
    await stopper(proc)()
  }
}

export async function startBench() {
  const root = tempDir('start')
  const config = join(root, 'config')
  const serve = (dataDir: string) => (port: number) => [BIN, 'serve', '--port', String(port), '--data', dataDir, '--root-token', TOKEN, '--quiet']
  try {
    const fresh = []
    for (let i = 0; i < RUNS; i++) fresh.push(await startOnce(serve(join(root, `fresh-${i}`)), { COLLAB_CONFIG_DIR: config }))
    const existing = []
    for (let i = 0; i < RUNS; i++) existing.push(await startOnce(serve(join(root, 'fresh-0')), { COLLAB_CONFIG_DIR: config }))
    const bare = []
    for (let i = 0; i < RUNS; i++) bare.push(await startOnce((port) => ['-e', BARE, String(port)]))
    const b = median(bare.map((s) => s.ms))
    const bRss = median(bare.map((s) => s.rss))
    console.log(row(['spawn to first 200 (median ms)', 'collab serve', 'bare node:http', 'ratio (target)']))
    const bCpu = median(bare.map((s) => s.cpu))
    for (const [label, runs] of [['fresh data directory', fresh], ['existing data directory', existing]] as const) {
      const ms = median(runs.map((s) => s.ms))
      console.log(row([label, ms.toFixed(0), b.toFixed(0), `${(ms / b).toFixed(2)} (< 300 ms)`]))
      const cpu = median(runs.map((s) => s.cpu))
      console.log(row([`  CPU used by then (ms)`, cpu.toFixed(0), bCpu.toFixed(0), (cpu / bCpu).toFixed(2)]))
    }
    const second = median(existing.map((s) => s.second))
    const bSecond = median(bare.map((s) => s.second))
    console.log(row([`then ${SECOND.slice(7)}, existing (ms)`, second.toFixed(1), bSecond.toFixed(1), (second / bSecond).toFixed(2)]))
    const rss = median(existing.map((s) => s.rss))
    console.log(row(['idle RSS, MB (existing data directory)', rss.toFixed(0), bRss.toFixed(0), `${(rss / bRss).toFixed(2)} (< 100 MB)`]))
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
