// collab job, measured: `job trace --follow` on a 10 MB log (bytes over the wire ÷ the log's size) next to a client
// that downloads the whole log on every poll, and a 100 MB artifact through the API next to a bare node:http file server.
import { spawn } from 'node:child_process'
import { createReadStream, createWriteStream, statSync } from 'node:fs'
import { copyFile } from 'node:fs/promises'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import net from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import yazl from 'yazl'
import type { TestServer } from '../helpers/server.js'
import type { CiWorld } from '../server/ci/jobs/fixture.js'
import { BIN, median, ROOT, row, tempDir } from './lib.js'

// The server runs in this process (its jobs are moved through the coordinator, as a runner would), which needs the
// .sql loader: the benchmark runs in a child started with it, and loads the server only there.
const fixture = () => import('../server/ci/jobs/fixture.js')

const LOG_BYTES = 10 * 1024 * 1024
const LOG_CHUNK = 64 * 1024
const POLL_SECONDS = 0.5
const ARTIFACT_BYTES = 100_000_000
const RUNS = 5

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A TCP relay in front of `target` that counts the bytes the server sends to its clients. */
async function countingProxy(target: string) {
  const { hostname, port } = new URL(target)
  const counter = { bytes: 0, url: '', close: () => {} }
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname)
    upstream.on('data', (b: Buffer) => (counter.bytes += b.length))
    client.pipe(upstream).pipe(client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  counter.url = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`
  counter.close = () => proxy.close()
  return counter
}

/** Runs a child to its end; resolves with its wall time in ms (rejects on a non-zero exit). */
function timed(args: string[], env: Record<string, string> = {}): Promise<number> {
  const start = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    p.stderr.on('data', (b) => (err += b))
    p.once('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))))
  })
}

/** What the anchors do: GET the whole trace every poll until the job has finished. */
async function naiveFollower(base: string, token: string, project: number, job: number) {
  const headers = { 'PRIVATE-TOKEN': token }
  for (;;) {
    await (await fetch(`${base}/api/v4/projects/${project}/jobs/${job}/trace`, { headers })).arrayBuffer()
    const status = ((await (await fetch(`${base}/api/v4/projects/${project}/jobs/${job}`, { headers })).json()) as { status: string }).status
    if (['success', 'failed', 'canceled'].includes(status)) {
      await (await fetch(`${base}/api/v4/projects/${project}/jobs/${job}/trace`, { headers })).arrayBuffer()
      return
    }
    await sleep(POLL_SECONDS * 1000)
  }
}

/** A running job whose log grows by 64 KB lines-of-x chunks to 10 MB, as a runner streams it, then succeeds. */
async function writeLog(server: TestServer, w: CiWorld, job: { id: number; token: string }) {
  const line = `${'x'.repeat(99)}\n`
  const chunk = Buffer.from(line.repeat(Math.floor(LOG_CHUNK / line.length)))
  let size = 0
  // The trace store directly, with a cap above the log: the built-in runner's cap (4 MB) would cut a 10 MB log.
  const { appendTrace } = await import('../../src/server/ci/traces.js')
  while (size < LOG_BYTES) {
    size = await appendTrace(server.app.layout, job.id, size, chunk, { masks: [], capBytes: 64 * 1024 * 1024 })
    await sleep(20)
  }
  await w.coordinator.updateJob(job.id, job.token, { state: 'success' })
  return size
}

async function followBench(server: TestServer, w: CiWorld) {
  const { jobSpec, seedPipeline, takeJob } = await fixture()
  seedPipeline(w, [jobSpec('log', 0)])
  const job = await takeJob(w)
  const [cliProxy, naiveProxy] = [await countingProxy(server.url), await countingProxy(server.url)]
  try {
    const env = { COLLAB_HOST: cliProxy.url, COLLAB_TOKEN: w.owner.token, COLLAB_CONFIG_DIR: tempDir('config'), NO_COLOR: '1' }
    const cli = timed([BIN, 'job', 'trace', String(job.id), '--follow', '--interval', String(POLL_SECONDS), '-p', String(w.project.id)], env)
    const naive = naiveFollower(naiveProxy.url, w.owner.token, w.project.id, job.id)
    const size = await writeLog(server, w, job)
    await Promise.all([cli, naive])
    console.log(row(['following a 10 MB job log', 'bytes moved', 'log bytes', 'ratio (target)']))
    console.log(row([`collab job trace --follow (poll ${POLL_SECONDS}s)`, cliProxy.bytes, size, `${(cliProxy.bytes / size).toFixed(3)} (<= 1.05)`]))
    console.log(row(['whole trace every poll (the anchors)', naiveProxy.bytes, size, (naiveProxy.bytes / size).toFixed(3)]))
  } finally {
    cliProxy.close()
    naiveProxy.close()
  }
}

/** A finished job with a 100 MB artifact of random bytes (stored: random data does not deflate). */
async function bigArtifact(w: CiWorld, dir: string) {
  const { jobSpec, seedPipeline, takeJob } = await fixture()
  seedPipeline(w, [jobSpec('big', 0)])
  const job = await takeJob(w)
  const zipPath = join(dir, 'upload.zip')
  const zip = new yazl.ZipFile()
  zip.addBuffer(randomBytes(ARTIFACT_BYTES), 'big.bin', { compress: false })
  zip.end()
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(zipPath)).on('close', resolve).on('error', reject))
  // The upload takes the file over: the baseline serves a copy.
  await copyFile(zipPath, join(dir, 'served.zip'))
  await w.coordinator.uploadArtifacts(job.id, job.token, { path: zipPath, expire_in: null, artifact_type: 'archive', artifact_format: 'zip' })
  await w.coordinator.updateJob(job.id, job.token, { state: 'success' })
  return { job, zipPath: join(dir, 'served.zip') }
}

/** The baseline: node:http streaming the same file from disk. */
async function staticServer(file: string) {
  const size = statSync(file).size
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) })
    // The same 1 MB reads as collab's artifact download: the baseline is not slowed by 64 KB ones.
    createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/artifacts.zip`, close: () => server.close() }
}

// A node GET that streams a body to a file: the same client for both servers.
const GET = `const [u, t, o] = process.argv.slice(1); require('node:http').get(u, { headers: t ? { 'PRIVATE-TOKEN': t } : {} }, (r) => {
  if (r.statusCode !== 200) process.exit(1); r.pipe(require('node:fs').createWriteStream(o)) })`

async function downloadBench(server: TestServer, w: CiWorld) {
  const dir = tempDir('artifact')
  const { job, zipPath } = await bigArtifact(w, dir)
  const bare = await staticServer(zipPath)
  try {
    const api = `${server.api}/projects/${w.project.id}/jobs/${job.id}/artifacts`
    const env = { COLLAB_HOST: server.url, COLLAB_TOKEN: w.owner.token, COLLAB_CONFIG_DIR: tempDir('config'), NO_COLOR: '1' }
    const cliArgs = [BIN, 'job', 'artifacts', 'download', String(job.id), '--zip', '-o', join(dir, 'cli.zip'), '-p', String(w.project.id)]
    const [viaApi, viaCli, viaBare]: number[][] = [[], [], []]
    for (let i = 0; i < RUNS; i++) {
      viaApi.push(await timed(['-e', GET, api, w.owner.token, join(dir, 'api.zip')]))
      viaCli.push(await timed(cliArgs, env))
      viaBare.push(await timed(['-e', GET, bare.url, '', join(dir, 'bare.zip')]))
    }
    const [a, c, b] = [median(viaApi), median(viaCli), median(viaBare)]
    const mbps = (ms: number) => ((statSync(zipPath).size / 1e6) / (ms / 1000)).toFixed(0)
    console.log(row([`100 MB artifact (median of ${RUNS}, alternating)`, 'ms (MB/s)', 'bare ms (MB/s)', 'throughput ratio (target)']))
    console.log(row(['node GET through the API vs bare node:http', `${a.toFixed(0)} (${mbps(a)})`, `${b.toFixed(0)} (${mbps(b)})`, `${(b / a).toFixed(2)} (>= 0.8)`]))
    console.log(row(['collab job artifacts download --zip vs bare', `${c.toFixed(0)} (${mbps(c)})`, `${b.toFixed(0)} (${mbps(b)})`, (b / c).toFixed(2)]))
  } finally {
    bare.close()
  }
}

async function benchInProcess() {
  const { startTestServer } = await import('../helpers/server.js')
  const server = await startTestServer()
  try {
    const w = await (await fixture()).ciWorld(server, 'bench')
    await followBench(server, w)
    await downloadBench(server, w)
  } finally {
    await server.close()
  }
}

export async function ciCliBench() {
  const self = fileURLToPath(import.meta.url)
  const args = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs'), self, 'child']
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the ci-cli benchmark exited ${code}`))))
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'child') await benchInProcess()
