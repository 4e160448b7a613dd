// Merge requests benchmark: GET …/changes for 400 changed files against `git diff A...B`, cached and computed afresh;
// the MR list at 10,000 merge requests computed afresh (p50); GET one merge request, cached and uncached, against a bare
// node:http server returning the same bytes.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { dataLayout } from '../../src/core/paths.js'
import { median, ROOT, row, startBare, stopper, tempDir, TOKEN, waitForUrl, wallTimeMs, type Child, type Recorded } from './lib.js'

const FILES = 400
const MERGE_REQUESTS = 10_000
const RUNS = 15
/** Server processes started to read a diff never computed in them: each costs a start-up. */
const FRESH_RUNS = 7

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, { method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

async function timeGet(url: string, runs = RUNS): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    const res = await fetch(url, { headers: { 'private-token': TOKEN } })
    await res.arrayBuffer()
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`)
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return median(times)
}

async function load(url: string, connections: number, seconds = 5) {
  const r = await autocannon({ url, connections, duration: seconds, headers: { 'private-token': TOKEN } })
  if (r.non2xx || r.errors) throw new Error(`load run against ${url} saw ${r.non2xx} non-2xx and ${r.errors} errors`)
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 }
}

/** File f's 40 lines; line 20 holds `v`, so two versions differ by one line. */
const fileText = (f: number, v: string) => Array.from({ length: 40 }, (_, l) => `export const f${f}_${l} = '${l === 20 ? v : l}'`).join('\n') + '\n'

/** A merge request from `branch`, which changes FILES files of master with the text `v`. */
async function wideMergeRequest(api: string, projectId: number, files: string[], branch: string, v: string) {
  await call(`${api}/projects/${projectId}/repository/commits`, 'POST', { branch, start_branch: 'master', commit_message: 'change', actions: files.map((p, f) => ({ action: 'update', file_path: p, content: fileText(f, v) })) })
  return call(`${api}/projects/${projectId}/merge_requests`, 'POST', { source_branch: branch, target_branch: 'master', title: branch })
}

/**
 * A project whose `wide` branch changes FILES files of master, with a merge request from it; a second one from `warm`
 * (other commits, so another diff) that warms a fresh server before `wide`'s diff is read; the label for the list.
 */
async function seedProject(api: string) {
  const project = await call(`${api}/projects`, 'POST', { name: 'bench-mrs' })
  const files = Array.from({ length: FILES }, (_, f) => `src/dir${f % 20}/file${f}.ts`)
  await call(`${api}/projects/${project.id}/repository/commits`, 'POST', { branch: 'master', commit_message: 'files', actions: files.map((p, f) => ({ action: 'create', file_path: p, content: fileText(f, 'a') })) })
  const mr = await wideMergeRequest(api, project.id, files, 'wide', 'b')
  const warm = await wideMergeRequest(api, project.id, files, 'warm', 'c')
  const label = await call(`${api}/projects/${project.id}/labels`, 'POST', { name: 'x', color: '#336699' })
  return { project, label, mr, warm }
}

const LOADER = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs')]

/** The server from the sources (serve-source.ts), so the figures are of this checkout's code. */
async function startCollab(dataDir: string, _configDir: string, args: string[] = []): Promise<Child> {
  const cache = args.includes('--no-response-cache') ? 'no-cache' : 'cache'
  const proc = spawn(process.execPath, [...LOADER, join(ROOT, 'test/bench/serve-source.ts'), dataDir, TOKEN, cache], { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

export async function mergeRequestsBench() {
  const dataDir = tempDir('mrs-data')
  const configDir = tempDir('mrs-config')
  let collab = await startCollab(dataDir, configDir)
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  try {
    const api = `${collab.url}/api/v4`
    const { project, label, mr, warm } = await seedProject(api)
    const changes = `/api/v4/projects/${project.id}/merge_requests/${mr.iid}/changes`
    const one = `/api/v4/projects/${project.id}/merge_requests/${mr.iid}`
    const gitdir = join(dataLayout(dataDir).repositories, `${project.id}.git`)
    // Creating the merge request computed the diff; the reads come from the diff cache (the response cache is on, as served).
    const first = await timeGet(collab.url + changes, 1)
    const ours = await timeGet(collab.url + changes)
    const git = await wallTimeMs('git', ['--git-dir', gitdir, 'diff', '--full-index', 'master...wide'], {}, RUNS)

    const res = await fetch(collab.url + one, { headers: { 'private-token': TOKEN } })
    const recorded: Recorded = { [one]: { body: await res.text(), headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } } }
    bare = await startBare(recorded)
    const a = await load(collab.url + one, 10)
    const b = await load(bare.url + one, 10)

    // Computed afresh: a new server process has an empty diff cache (it lives in memory) and no response cache; the
    // `warm` merge request's changes, another diff, are read first so the figure is the diff, not a cold start.
    const fresh: number[] = []
    for (let i = 0; i < FRESH_RUNS; i++) {
      await collab.stop()
      collab = await startCollab(dataDir, configDir, ['--no-response-cache'])
      await timeGet(`${collab.url}/api/v4/projects/${project.id}/merge_requests/${warm.iid}/changes`, 1)
      fresh.push(await timeGet(collab.url + changes, 1))
    }
    const afresh = median(fresh)
    const uncached = await load(collab.url + one, 10)

    console.log(row(['GET …/changes, 400 files (median ms)', 'collab', 'git diff A...B', 'ratio']))
    console.log(row([`${FILES} changed files, first read`, first.toFixed(1), git.toFixed(1), `${(first / git).toFixed(2)} (<= 2)`]))
    console.log(row([`${FILES} changed files, repeated`, ours.toFixed(1), git.toFixed(1), (ours / git).toFixed(2)]))
    console.log(row([`${FILES} changed files, computed afresh (${FRESH_RUNS} servers)`, afresh.toFixed(1), git.toFixed(1), (afresh / git).toFixed(2)]))
    console.log(row(['GET one merge request, 10 connections, 5 s', 'collab req/s', 'bare req/s', 'ratio']))
    console.log(row(['GET /projects/:id/merge_requests/:iid', a.rps.toFixed(0), b.rps.toFixed(0), `${(a.rps / b.rps).toFixed(2)} (>= 0.40)`]))
    console.log(row(['GET /projects/:id/merge_requests/:iid, uncached', uncached.rps.toFixed(0), b.rps.toFixed(0), (uncached.rps / b.rps).toFixed(2)]))

    await collab.stop()
    const seed = spawnSync(process.execPath, [...LOADER, join(ROOT, 'test/bench/merge-requests-seed.ts'),
      dataLayout(dataDir).database, String(project.id), String(label.id), String(MERGE_REQUESTS)], { stdio: 'inherit' })
    if (seed.status !== 0) throw new Error('seeding merge requests failed')
    collab = await startCollab(dataDir, configDir, ['--no-response-cache'])
    const list = `${collab.url}/api/v4/projects/${project.id}/merge_requests?state=opened&labels=x&per_page=100`
    const latency = await load(list, 1)
    console.log(row([`MR list at ${MERGE_REQUESTS} merge requests, uncached`, 'p50/p99 ms', '', 'target']))
    console.log(row(['GET merge_requests?state=opened&labels=x&per_page=100', `${latency.p50}/${latency.p99}`, '', 'p50 < 15 ms']))
  } finally {
    await bare?.stop()
    await collab.stop()
    execFileSync('rm', ['-rf', dataDir, configDir])
  }
}
