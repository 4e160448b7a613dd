// Mixed workload, as issue 24 describes it: 10,000 issues in one project, 16 connections; 60% GETs of random issues,
// 30% list pages 1-10 under seven filters, 10% writes (4% creates, 3% title edits, 3% added labels). Next to a bare
// node:http server answering each request with collab's own bytes for its kind (bare-mixed.mjs), the two loaded in
// turns. Then creates alone against the same bare server, and the server's resident memory idle and after each load.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { BIN, ROOT, row, stopper, tempDir, TOKEN, waitForUrl, type Child } from './lib.js'

const ISSUES = 10_000
const LABELS = 10
const CONNECTIONS = 16
const SECONDS = Number(process.env.MIXED_SECONDS ?? 12)
const SLICES = 3
const HEADERS = { 'private-token': TOKEN, 'content-type': 'application/json' }

async function startNodeScript(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

// The built `collab serve` (npm run bench builds first), so its memory is the program's, not a TypeScript loader's.
// MIXED_NODE_ARGS adds node flags (for example `--cpu-prof --cpu-prof-dir=DIR` to see where its time goes).
// Those flags apply from after the seeding: the server is started again on the seeded data for the measured runs.
function startServer(dataDir: string, node: string[] = []): Promise<Child> {
  const proc = spawn(process.execPath, [...node, BIN, 'serve', '--port', '0', '--data', dataDir, '--root-token', TOKEN, '--no-runner'], {
    env: { ...process.env, COLLAB_CONFIG_DIR: tempDir('mixed-config'), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
  return waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/).then((url) => ({ url, proc, stop: stopper(proc) }))
}

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** Each issue has one label; every 10th is closed, every 7th assigned to root, every 5th in the milestone. */
async function seed(api: string, projectId: number, milestoneId: number) {
  let next = 0
  const worker = async () => {
    while (next < ISSUES) {
      const i = next++
      const issue = await call(`${api}/projects/${projectId}/issues`, 'POST', {
        title: `Issue ${i}: routine work item`, description: `Generated issue number ${i}.`, labels: `label-${i % LABELS}`,
        ...(i % 7 === 0 ? { assignee_ids: [1] } : {}), ...(i % 5 === 0 ? { milestone_id: milestoneId } : {}),
      })
      if (i % 10 === 9) await call(`${api}/projects/${projectId}/issues/${issue.iid}`, 'PUT', { state_event: 'close' })
    }
  }
  await Promise.all(Array.from({ length: CONNECTIONS }, worker))
}

const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]
const upTo = (n: number) => 1 + Math.floor(Math.random() * n)

/** The seven filters of list pages (each matches at least 10 pages of 20 in the seeded project). */
const FILTERS = [
  '', 'state=opened', 'state=closed', 'labels=label-3', 'milestone=v1.0', 'assignee_id=1', 'order_by=updated_at&sort=asc',
] as const

let made = 0
type Kind = 'issue' | 'list' | 'create' | 'title' | 'label'
function requestOf(projectId: number, kind: Kind) {
  const issues = `/api/v4/projects/${projectId}/issues`
  switch (kind) {
    case 'issue': return { method: 'GET' as const, path: `${issues}/${upTo(ISSUES)}` }
    case 'list': {
      const filter = pick(FILTERS)
      return { method: 'GET' as const, path: `${issues}?${filter ? `${filter}&` : ''}page=${upTo(10)}` }
    }
    case 'create': return { method: 'POST' as const, path: issues, body: JSON.stringify({ title: `Load issue ${++made}`, labels: `label-${upTo(LABELS) - 1}` }) }
    case 'title': return { method: 'PUT' as const, path: `${issues}/${upTo(ISSUES)}`, body: JSON.stringify({ title: `Edited ${++made}` }) }
    case 'label': return { method: 'PUT' as const, path: `${issues}/${upTo(ISSUES)}`, body: JSON.stringify({ add_labels: `label-${upTo(LABELS) - 1}` }) }
  }
}

/** One request of the mix: 60% one issue, 30% a list page, 4% a new issue, 3% a new title, 3% an added label. */
function mixed(projectId: number) {
  const r = Math.random()
  return requestOf(projectId, r < 0.6 ? 'issue' : r < 0.9 ? 'list' : r < 0.94 ? 'create' : r < 0.97 ? 'title' : 'label')
}

/** CPU time a process has used, in ms (Linux /proc; 0 elsewhere): per request, steadier than a rate on a shared machine. */
function cpuMs(pid: number | undefined): number {
  const file = `/proc/${pid}/stat`
  if (pid === undefined || !existsSync(file)) return 0
  const fields = readFileSync(file, 'utf8').replace(/^.*\) /, '').split(' ')
  // utime and stime, fields 14 and 15 of stat(5), counted from the state field (3); ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Resident memory of a process in MB (Linux /proc; 0 elsewhere). */
function rssMb(pid: number | undefined): number {
  const file = `/proc/${pid}/status`
  if (pid === undefined || !existsSync(file)) return 0
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(file, 'utf8'))?.[1]
  return kb ? Number(kb) / 1024 : 0
}

interface Run { requests: number; seconds: number; p50s: number[]; p99s: number[]; cpuMs: number }

async function load(url: string, next: () => { method: autocannon.Request['method']; path: string; body?: string }, seconds: number) {
  const result = await autocannon({
    url, connections: CONNECTIONS, duration: seconds, headers: HEADERS,
    // Fresh headers each time: autocannon adds the previous body's Content-Length to the object it hands back.
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...HEADERS }, ...next() }) }],
  })
  if (result.non2xx || result.errors) throw new Error(`load run against ${url} saw ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}) and ${result.errors} errors`)
  return result
}

/**
 * The same load against collab and the bare server in turns of SECONDS / SLICES each, so that a machine busy with
 * other work slows both alike: the ratio compares requests served in equal time.
 */
async function sideBySide(collab: Child, bare: Child, next: () => { method: autocannon.Request['method']; path: string; body?: string }) {
  const runs = { ours: { requests: 0, seconds: 0, p50s: [], p99s: [], cpuMs: 0 } as Run, base: { requests: 0, seconds: 0, p50s: [], p99s: [], cpuMs: 0 } as Run }
  for (let i = 0; i < SLICES; i++) {
    for (const [run, child] of [[runs.ours, collab], [runs.base, bare]] as const) {
      const cpu0 = cpuMs(child.proc.pid)
      const r = await load(child.url, next, SECONDS / SLICES)
      run.cpuMs += cpuMs(child.proc.pid) - cpu0
      run.requests += r.requests.total
      run.seconds += r.duration
      run.p50s.push(r.latency.p50)
      run.p99s.push(r.latency.p99)
    }
  }
  return runs
}

const rps = (r: Run) => r.requests / r.seconds
const latency = (r: Run) => `${Math.max(...r.p50s)} / ${Math.max(...r.p99s)} ms`
const cpuPerRequest = (r: Run) => (r.cpuMs ? `${((r.cpuMs * 1000) / r.requests).toFixed(0)} µs` : '')
/** The bare server's CPU per request over collab's: the ratio of the two when each had a core to itself. */
const cpuRatio = (r: { ours: Run; base: Run }) => (r.ours.cpuMs && r.base.cpuMs ? ` (CPU ${((r.base.cpuMs / r.base.requests) / (r.ours.cpuMs / r.ours.requests)).toFixed(3)})` : '')

/** Collab's own bytes for each kind of request, for the bare server to answer with. */
async function record(url: string, projectId: number) {
  const out: Record<string, { status: number; body: string; headers: Record<string, string> }> = {}
  const keep = async (key: string, r: { method: string; path: string; body?: string }) => {
    const res = await fetch(`${url}${r.path}`, { method: r.method, headers: HEADERS, body: r.body })
    out[key] = { status: res.status, body: await res.text(), headers: { 'content-type': res.headers.get('content-type') ?? '' } }
    for (const h of ['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'link']) {
      const v = res.headers.get(h)
      if (v !== null) out[key].headers[h] = v
    }
  }
  const issues = `/api/v4/projects/${projectId}/issues`
  await keep('issue', { method: 'GET', path: `${issues}/1` })
  for (const filter of FILTERS) await keep(`list:${filter}`, { method: 'GET', path: `${issues}?${filter ? `${filter}&` : ''}page=5` })
  for (const kind of ['create', 'title', 'label'] as const) await keep(kind, requestOf(projectId, kind))
  const file = join(tempDir('mixed-bare'), 'recorded.json')
  writeFileSync(file, JSON.stringify(out))
  return file
}

export async function mixedBench() {
  const dataDir = tempDir('mixed-data')
  let collab = await startServer(dataDir)
  let bare: Child | undefined
  try {
    const idle = rssMb(collab.proc.pid)
    const api = `${collab.url}/api/v4`
    const project = await call(`${api}/projects`, 'POST', { name: 'bench-mixed' })
    for (let l = 0; l < LABELS; l++) await call(`${api}/projects/${project.id}/labels`, 'POST', { name: `label-${l}`, color: '#336699' })
    const milestone = await call(`${api}/projects/${project.id}/milestones`, 'POST', { title: 'v1.0' })
    const t0 = Date.now()
    await seed(api, project.id, milestone.id)
    console.log(`seeded ${ISSUES} issues through the API in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    const node = process.env.MIXED_NODE_ARGS?.split(' ').filter(Boolean)
    if (node?.length) {
      await collab.stop()
      collab = await startServer(dataDir, node)
    }
    bare = await startNodeScript([join(ROOT, 'test/bench/bare-mixed.mjs'), await record(collab.url, project.id)])

    // Each reading comes a turn of the bare server (SECONDS / SLICES) after collab's last turn: after the full
    // collection `collab serve` makes a second or two into the quiet (docs/caching.md, "Memory after a burst").
    const mix = await sideBySide(collab, bare, () => mixed(project.id))
    const afterLoad = rssMb(collab.proc.pid)
    const creates = await sideBySide(collab, bare, () => requestOf(project.id, 'create'))
    const afterCreates = rssMb(collab.proc.pid)

    console.log(row([`mixed (issue 24), ${CONNECTIONS} connections, ${SECONDS} s each in ${SLICES} turns`, 'req/s', 'p50 / p99 (worst turn)', 'ratio (target)', 'CPU per request']))
    console.log(row(['collab: 60% issue, 30% list, 4% create, 3% title, 3% label', rps(mix.ours).toFixed(0), latency(mix.ours), `${(rps(mix.ours) / rps(mix.base)).toFixed(3)}${cpuRatio(mix)} (>= 0.1, goal 0.25)`, cpuPerRequest(mix.ours)]))
    console.log(row(['bare node:http, collab\'s bytes per kind', rps(mix.base).toFixed(0), latency(mix.base), '', cpuPerRequest(mix.base)]))
    console.log(row(['collab: issue creates alone', rps(creates.ours).toFixed(0), latency(creates.ours), `${(rps(creates.ours) / rps(creates.base)).toFixed(3)}${cpuRatio(creates)} (>= 0.1)`, cpuPerRequest(creates.ours)]))
    console.log(row(['bare node:http, a created issue\'s bytes', rps(creates.base).toFixed(0), latency(creates.base), '', cpuPerRequest(creates.base)]))
    console.log(row(['collab RSS', `idle ${idle.toFixed(0)} MB (< 100)`, `after the mix ${afterLoad.toFixed(0)} MB (< 200)`, `after creates ${afterCreates.toFixed(0)} MB`, '']))
  } finally {
    await bare?.stop()
    await collab.stop()
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await mixedBench()
