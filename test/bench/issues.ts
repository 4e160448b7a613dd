// Issues benchmark: 100,000 issues across 10 labels in one project, seeded through the real API; list and search latency,
// single-issue reads and create throughput, each next to a bare node:http server returning the same bytes.
import autocannon from 'autocannon'
import { dataLayout } from '../../src/core/paths.js'
import { row, startBare, startCollab, startStoreFloor, tempDir, TOKEN, type Recorded } from './lib.js'

const ISSUES = 100_000
const LABELS = 10
const WORKERS = 16

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** Every 10th issue is closed and every 100th mentions "needle", so both filters have work to do. */
async function seed(api: string, projectId: number) {
  let next = 0
  const worker = async () => {
    while (next < ISSUES) {
      const i = next++
      const words = i % 100 === 0 ? 'needle in the haystack' : 'routine work item'
      const issue = await call(`${api}/projects/${projectId}/issues`, 'POST', {
        title: `Issue ${i}: ${words}`, description: `Generated issue number ${i} about ${words}.`, labels: `label-${i % LABELS}`,
      })
      if (i % 10 === 9) await call(`${api}/projects/${projectId}/issues/${issue.iid}`, 'PUT', { state_event: 'close' })
    }
  }
  await Promise.all(Array.from({ length: WORKERS }, worker))
}

async function load(url: string, opts: { connections: number; seconds: number; method?: string; body?: string }) {
  const result = await autocannon({
    url, connections: opts.connections, duration: opts.seconds, method: (opts.method ?? 'GET') as 'GET',
    headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: opts.body,
  })
  if (result.non2xx || result.errors) throw new Error(`load run against ${url} saw ${result.non2xx} non-2xx and ${result.errors} errors`)
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

async function record(base: string, paths: string[], post: string, postBody: string): Promise<Recorded> {
  const keep = ['content-type', 'link', 'x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page']
  const out: Recorded = {}
  for (const [path, init] of [...paths.map((p) => [p, {}] as const), [post, { method: 'POST', body: postBody }] as const]) {
    const res = await fetch(base + path, { ...init, headers: { 'private-token': TOKEN, 'content-type': 'application/json' } })
    out[path] = { body: await res.text(), headers: Object.fromEntries(keep.flatMap((h) => (res.headers.get(h) !== null ? [[h, res.headers.get(h)!]] : []))) }
  }
  return out
}

export async function issuesBench() {
  const dataDir = tempDir('issues-data')
  const configDir = tempDir('issues-config')
  let collab = await startCollab(dataDir, configDir)
  let api = `${collab.url}/api/v4`
  const labelIds: number[] = []
  let project: { id: number }
  let recorded: Recorded
  const create = (projectId: number) => `/api/v4/projects/${projectId}/issues`
  const createBody = JSON.stringify({ title: 'Benchmark issue', labels: 'label-1' })
  try {
    project = await call(`${api}/projects`, 'POST', { name: 'bench-issues' })
    for (let l = 0; l < LABELS; l++) labelIds.push((await call(`${api}/projects/${project.id}/labels`, 'POST', { name: `label-${l}`, color: '#336699' })).id)
    const t0 = Date.now()
    await seed(api, project.id)
    const seconds = (Date.now() - t0) / 1000
    console.log(`seeded ${ISSUES} issues (${ISSUES / 10} closed) through the API with ${WORKERS} clients in ${seconds.toFixed(1)} s (${(ISSUES * 1.1 / seconds).toFixed(0)} req/s)`)

    const paths = {
      list: `/api/v4/projects/${project.id}/issues?labels=label-3&state=opened&per_page=100`,
      search: '/api/v4/issues?scope=all&search=needle',
      one: `/api/v4/projects/${project.id}/issues/50000`,
    }
    recorded = await record(collab.url, Object.values(paths), create(project.id), createBody)
    const bare = await startBare(recorded)
    try {
      console.log(row(['throughput, 10 connections, 5 s', 'collab req/s', 'bare req/s', 'ratio (target)']))
      const runs = [
        ['GET issues?labels&state&per_page=100', paths.list, undefined, ''],
        ['GET /issues?scope=all&search=word', paths.search, undefined, ''],
        ['GET /projects/:id/issues/:iid', paths.one, undefined, '>= 0.40'],
        ['POST /projects/:id/issues', create(project.id), createBody, '>= 0.25'],
      ] as const
      for (const [label, path, body, target] of runs) {
        const method = body ? 'POST' : 'GET'
        const ours = await load(collab.url + path, { connections: 10, seconds: 5, method, body })
        const base = await load(bare.url + path, { connections: 10, seconds: 5, method, body })
        console.log(row([label, ours.rps.toFixed(0), base.rps.toFixed(0), `${(ours.rps / base.rps).toFixed(2)} ${target ? `(${target})` : ''}`]))
      }

      // The same reads computed afresh every time: what the response cache saves, and what a first read costs.
      await collab.stop()
      collab = await startCollab(dataDir, configDir, ['--no-response-cache'])
      api = `${collab.url}/api/v4`
      // Latency is measured computed afresh: a repeated list from the response cache would say nothing about the query.
      console.log(row(['latency, uncached, 1 connection, 5 s', 'collab p50/p99', 'bare p50/p99', 'target']))
      for (const [label, path, target] of [['GET issues?labels&state&per_page=100', paths.list, 'p50 < 15 ms'], ['GET /issues?scope=all&search=word', paths.search, '']] as const) {
        const ours = await load(collab.url + path, { connections: 1, seconds: 5 })
        const base = await load(bare.url + path, { connections: 1, seconds: 5 })
        console.log(row([label, `${ours.p50}/${ours.p99} ms`, `${base.p50}/${base.p99} ms`, target]))
      }
      console.log(row(['throughput, uncached, 10 connections, 5 s', 'collab req/s', 'bare req/s', 'ratio']))
      for (const [label, path] of [['GET issues?labels&state&per_page=100', paths.list], ['GET /projects/:id/issues/:iid', paths.one]] as const) {
        const ours = await load(collab.url + path, { connections: 10, seconds: 5 })
        const base = await load(bare.url + path, { connections: 10, seconds: 5 })
        console.log(row([label, ours.rps.toFixed(0), base.rps.toFixed(0), (ours.rps / base.rps).toFixed(2)]))
      }

      // Creating an issue writes a row, its label, its iid and its user-agent detail. The same writes with nothing
      // around them show how much of the bare server's rate SQLite alone leaves.
      await collab.stop()
      const floor = await startStoreFloor(dataLayout(dataDir).database, recorded, project.id, labelIds[1])
      try {
        const path = create(project.id)
        const ours = await load(floor.url + path, { connections: 10, seconds: 5, method: 'POST', body: createBody })
        const base = await load(bare.url + path, { connections: 10, seconds: 5, method: 'POST', body: createBody })
        console.log(row(['storage floor, 10 connections, 5 s', 'floor req/s', 'bare req/s', 'ratio']))
        console.log(row(['POST /projects/:id/issues, store writes only', ours.rps.toFixed(0), base.rps.toFixed(0), (ours.rps / base.rps).toFixed(2)]))
      } finally {
        await floor.stop()
      }
    } finally {
      await bare.stop()
    }
  } finally {
    await collab.stop()
  }
}
