// Mixed workload: 10,000 issues in one project, 16 connections, 90% reads of random issues and list pages (some filtered),
// 10% creates and edits, next to a bare node:http server answering every request with one issue's recorded bytes.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { ROOT, row, stopper, tempDir, TOKEN, waitForUrl, type Child } from './lib.js'

const ISSUES = 10_000
const LABELS = 10
const CONNECTIONS = 16
const SECONDS = Number(process.env.MIXED_SECONDS ?? 10)
const HEADERS = { 'private-token': TOKEN, 'content-type': 'application/json' }

async function startNodeScript(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

// MIXED_NODE_ARGS adds node flags to the server (for example `--cpu-prof --cpu-prof-dir=DIR` to see where its time goes).
const startServer = (dataDir: string) =>
  startNodeScript([...(process.env.MIXED_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs'), join(ROOT, 'test/bench/mixed-server.ts'), dataDir, TOKEN])

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

/** A list page: unfiltered (any of 500 pages), or filtered by label, state or order, within the filter's own pages. */
function listPath(projectId: number): string {
  const base = `/api/v4/projects/${projectId}/issues`
  const filters: [string, number][] = [
    ['', ISSUES], ['', ISSUES], ['', ISSUES],
    [`labels=label-${upTo(LABELS) - 1}`, ISSUES / LABELS], ['state=opened', ISSUES * 0.9], ['state=closed', ISSUES / 10], ['order_by=updated_at&sort=asc', ISSUES],
  ]
  const [filter, matching] = pick(filters)
  const page = upTo(Math.ceil(matching / 20))
  return `${base}?${filter ? `${filter}&` : ''}page=${page}`
}

let made = 0
/** One request of the mix: 45% one issue, 45% a list page, 5% a new issue, 5% an edit. */
function nextRequest(projectId: number) {
  const r = Math.random()
  const issues = `/api/v4/projects/${projectId}/issues`
  if (r < 0.45) return { method: 'GET' as const, path: `${issues}/${upTo(ISSUES)}` }
  if (r < 0.9) return { method: 'GET' as const, path: listPath(projectId) }
  if (r < 0.95) return { method: 'POST' as const, path: issues, body: JSON.stringify({ title: `Load issue ${++made}`, labels: `label-${upTo(LABELS) - 1}` }) }
  const edit = pick([{ title: `Edited ${++made}` }, { add_labels: `label-${upTo(LABELS) - 1}` }, { description: `Edited ${made}` }])
  return { method: 'PUT' as const, path: `${issues}/${upTo(ISSUES)}`, body: JSON.stringify(edit) }
}

/** CPU time a process has used, in ms (Linux /proc; 0 elsewhere): per request, steadier than a rate on a shared machine. */
function cpuMs(pid: number | undefined): number {
  const file = `/proc/${pid}/stat`
  if (pid === undefined || !existsSync(file)) return 0
  const fields = readFileSync(file, 'utf8').replace(/^.*\) /, '').split(' ')
  // utime and stime, fields 14 and 15 of stat(5), counted from the state field (3); ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10
}

async function load(url: string, projectId: number) {
  const result = await autocannon({
    url, connections: CONNECTIONS, duration: SECONDS, headers: HEADERS,
    // Fresh headers each time: autocannon adds the previous body's Content-Length to the object it hands back.
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...HEADERS }, ...nextRequest(projectId) }) }],
  })
  if (result.non2xx || result.errors) throw new Error(`load run against ${url} saw ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}) and ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

export async function mixedBench() {
  const dataDir = tempDir('mixed-data')
  const collab = await startServer(dataDir)
  let bare: Child | undefined
  try {
    const api = `${collab.url}/api/v4`
    const project = await call(`${api}/projects`, 'POST', { name: 'bench-mixed' })
    for (let l = 0; l < LABELS; l++) await call(`${api}/projects/${project.id}/labels`, 'POST', { name: `label-${l}`, color: '#336699' })
    const milestone = await call(`${api}/projects/${project.id}/milestones`, 'POST', { title: 'v1.0' })
    const t0 = Date.now()
    await seed(api, project.id, milestone.id)
    console.log(`seeded ${ISSUES} issues through the API in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

    const one = await fetch(`${api}/projects/${project.id}/issues/1`, { headers: HEADERS })
    const recorded = join(tempDir('mixed-bare'), 'response.json')
    writeFileSync(recorded, JSON.stringify({ body: await one.text(), headers: { 'content-type': one.headers.get('content-type') } }))
    bare = await startNodeScript([join(ROOT, 'test/bench/bare-replay.mjs'), recorded])

    const cpu0 = cpuMs(collab.proc.pid)
    const ours = await load(collab.url, project.id)
    const cpu = cpuMs(collab.proc.pid) - cpu0
    const base = await load(bare.url, project.id)
    console.log(row([`mixed, ${CONNECTIONS} connections, ${SECONDS} s`, 'req/s', 'p50 / p99', 'ratio (target)']))
    console.log(row(['collab (90% reads, 10% writes)', ours.rps.toFixed(0), `${ours.p50} / ${ours.p99} ms`, `${(ours.rps / base.rps).toFixed(3)} (>= 0.1)`]))
    console.log(row(['bare node:http (one issue, every time)', base.rps.toFixed(0), `${base.p50} / ${base.p99} ms`, '']))
    if (cpu) console.log(`collab's CPU per request: ${((cpu * 1000) / (ours.rps * SECONDS)).toFixed(0)} µs`)
  } finally {
    await bare?.stop()
    await collab.stop()
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await mixedBench()
