// Backup benchmark (issue 26): `collab backup create` of a running instance holding 10,000 issues and a 200 MB
// repository, next to `tar` of the same data directory while the server is stopped (the copy gitea dump asks for).
// Issues are seeded through the API, the repository by git fast-import straight into the project's bare repository.
// Wall times and CPU times (user + system; for the online backup the CLI's and the server's) are printed: on a machine
// shared with other work the wall time follows the CPU share a process gets, and the CPU time says what it cost.
// The online backup is measured twice: on the server's machine (the server writes the archive into its data directory
// and the CLI moves the file), and as a CLI on another machine takes it: the server is reached by this machine's
// network address, which the CLI cannot tell from another machine's, so the archive is streamed over HTTP.
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { availableParallelism, loadavg, networkInterfaces } from 'node:os'
import { BIN, cpuMs, median, row, startCollab, tempDir, TOKEN, type Child } from './lib.js'

const ISSUES = 10_000
const WORKERS = 16
/** 50 incompressible blobs of 4 MB: a 200 MB pack that neither git nor tar can shrink. */
const BLOBS = 50
const BLOB_BYTES = 4 * 1024 * 1024
/** Runs of each, interleaved, so a busy moment of the machine falls on both sides. */
const RUNS = 5

async function call(api: string, method: string, path: string, body?: unknown) {
  const res = await fetch(api + path, {
    method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return JSON.parse(text)
}

async function seedIssues(api: string, projectId: number) {
  let next = 0
  const worker = async () => {
    while (next < ISSUES) {
      const i = next++
      await call(api, 'POST', `/projects/${projectId}/issues`, { title: `Issue ${i}`, description: `Generated issue number ${i}, routine work.` })
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, worker))
}

/** One commit adding BLOBS random files, written by fast-import into the bare repository, then packed. */
function seedRepository(gitdir: string) {
  const chunks: Buffer[] = [Buffer.from('commit refs/heads/master\nauthor Bench <bench@example.com> 1700000000 +0000\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 5\nbulk\n')]
  for (let i = 0; i < BLOBS; i++) chunks.push(Buffer.from(`M 100644 inline blob${i}.bin\ndata ${BLOB_BYTES}\n`), randomBytes(BLOB_BYTES), Buffer.from('\n'))
  chunks.push(Buffer.from('\n'))
  execFileSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: Buffer.concat(chunks), maxBuffer: 1 << 30 })
  // fast-import leaves so few objects loose; a real repository of this size is one pack.
  execFileSync('git', ['--git-dir', gitdir, 'repack', '-adq'])
  execFileSync('git', ['--git-dir', gitdir, 'symbolic-ref', 'HEAD', 'refs/heads/master'])
}

/** Wall time of a command, and its CPU time (user + system, its children included) from this process's reaped children. */
async function timed(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ wall: number; cpu: number }> {
  const cpu0 = cpuMs('self', true) - cpuMs('self')
  const start = process.hrtime.bigint()
  await new Promise<void>((resolve, reject) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    p.stderr.on('data', (b) => (err += b))
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))))
  })
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  return { wall, cpu: cpuMs('self', true) - cpuMs('self') - cpu0 }
}

interface Timing { wall: number; cpu: number }

/** This machine's own network address: a server reached by it is, for the CLI, on another machine. */
const outward = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address

const summary = (runs: Timing[]): Timing => ({ wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) })

export async function backupBench() {
  const dataDir = tempDir('backup-data')
  const configDir = tempDir('backup-config')
  const out = tempDir('backup-out')
  let collab: Child | undefined
  try {
    collab = await startCollab(dataDir, configDir, ['--no-runner'])
    const api = `${collab.url}/api/v4`
    const project = await call(api, 'POST', '/projects', { name: 'big' })
    const t0 = performance.now()
    await seedIssues(api, project.id)
    console.log(`seeded ${ISSUES} issues through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    await collab.stop()
    seedRepository(join(dataDir, 'repositories', `${project.id}.git`))
    const size = execFileSync('du', ['-sm', dataDir]).toString().split('\t')[0]
    console.log(`data directory: ${size} MB`)

    // Each round: tar and the offline backup with the server stopped, then the online backup with it running, so a
    // busy moment of the machine falls on both sides. Each run writes a new file (removed after), as a nightly one would.
    const env = { COLLAB_CONFIG_DIR: configDir, COLLAB_TOKEN: TOKEN }
    let bytes = 0
    const backupRun = async (args: string[], extra: Record<string, string> = {}) => {
      const file = join(out, 'backup.tar')
      const took = await timed(process.execPath, [BIN, 'backup', 'create', file, ...args], { ...env, ...extra })
      bytes = statSync(file).size
      rmSync(file)
      return took
    }
    const tars: Timing[] = []
    const offline: Timing[] = []
    const online: Timing[] = []
    const remote: Timing[] = []
    for (let i = 0; i < RUNS; i++) {
      tars.push(await timed('tar', ['-cf', join(out, 'stopped.tar'), '-C', dataDir, '.']))
      rmSync(join(out, 'stopped.tar'))
      offline.push(await backupRun(['--data', dataDir]))
      collab = await startCollab(dataDir, configDir, ['--no-runner', ...(outward ? ['--host', '0.0.0.0'] : [])])
      // The server's CPU time counts too: it reads, hashes and writes (or sends) the archive.
      const withServer = async (extra: Record<string, string>) => {
        const server = cpuMs(collab!.proc.pid!)
        const took = await backupRun([], { COLLAB_HOST: collab!.url, ...extra })
        return { wall: took.wall, cpu: took.cpu + cpuMs(collab!.proc.pid!) - server }
      }
      online.push(await withServer({}))
      remote.push(await withServer(outward ? { COLLAB_HOST: collab.url.replace('127.0.0.1', outward) } : { COLLAB_BACKUP_RECEIVE: '1' }))
      await collab.stop()
    }

    const tar = summary(tars)
    console.log(`archive: ${(bytes / 1024 / 1024).toFixed(1)} MB; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`)
    console.log(row(['operation (median of ' + RUNS + ' runs, ms)', 'collab', 'tar (stopped)', 'ratio']))
    const rows = [
      ['online, same machine (the server writes, the CLI moves)', online],
      [outward ? 'online over HTTP (a remote CLI: streamed)' : 'online, the stored file downloaded (no network address)', remote],
      ['backup create --data (server stopped)', offline],
    ] as const
    for (const [name, runs] of rows) {
      const mine = summary(runs)
      console.log(row([`${name}, wall`, mine.wall.toFixed(0), tar.wall.toFixed(0), (mine.wall / tar.wall).toFixed(2)]))
      console.log(row([`${name}, CPU`, mine.cpu.toFixed(0), tar.cpu.toFixed(0), (mine.cpu / tar.cpu).toFixed(2)]))
    }
  } finally {
    await collab?.stop()
    for (const dir of [dataDir, configDir, out]) rmSync(dir, { recursive: true, force: true })
  }
}
