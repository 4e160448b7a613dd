// Migration benchmark (issue 26): `collab project migrate` of a project with 1,000 issues and 100 merge requests (a
// note on each) between two collab serve instances: the time and the requests per copied item, next to the floor of
// any API-only copier, one POST per item (the same number of issue creates, sequential, on the same target).
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { dataLayout } from '../../src/core/paths.js'
import { BIN, ROOT, row, stopper, tempDir, TOKEN, waitForUrl, type Child } from './lib.js'

const ISSUES = 1_000
const MERGE_REQUESTS = 100
const LOADER = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/sql-loader.mjs')]

/** The server from the sources (serve-source.ts), so the figures are of this checkout's code. */
async function startCollab(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, [...LOADER, join(ROOT, 'test/bench/serve-source.ts'), dataDir, TOKEN, 'cache'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitForUrl(proc, /(http:\/\/127\.0\.0\.1:\d+)/)
  return { url, proc, stop: stopper(proc) }
}

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, { method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** A project with a master commit and a branch of one commit per merge request; issues and merge requests come from the store. */
async function seedSource(dataDir: string): Promise<{ source: Child; project: { id: number; path_with_namespace: string } }> {
  let source = await startCollab(dataDir)
  const api = `${source.url}/api/v4`
  const project = await call(`${api}/projects`, 'POST', { name: 'bench-migrate' })
  await call(`${api}/projects/${project.id}/repository/commits`, 'POST', { branch: 'master', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: '# bench\n' }] })
  for (let i = 0; i < MERGE_REQUESTS; i++) {
    await call(`${api}/projects/${project.id}/repository/commits`, 'POST', { branch: `mr-${i}`, start_branch: 'master', commit_message: `change ${i}`, actions: [{ action: 'create', file_path: `mr-${i}.txt`, content: `${i}\n` }] })
  }
  await source.stop()
  const seed = spawnSync(process.execPath, [...LOADER, join(ROOT, 'test/bench/migrate-seed.ts'), dataLayout(dataDir).database, String(project.id), String(ISSUES), String(MERGE_REQUESTS)], { stdio: 'inherit' })
  if (seed.status !== 0) throw new Error('seeding the source project failed')
  source = await startCollab(dataDir)
  return { source, project }
}

function migrate(source: Child, target: Child, project: string, configDir: string) {
  return new Promise<{ ms: number; summary: any }>((resolve, reject) => {
    const start = process.hrtime.bigint()
    const env = { PATH: process.env.PATH ?? '', HOME: configDir, COLLAB_CONFIG_DIR: configDir, COLLAB_HOST: source.url, COLLAB_TOKEN: TOKEN, COLLAB_TO_TOKEN: TOKEN }
    const p = spawn(process.execPath, [BIN, 'project', 'migrate', project, '--to', target.url, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (b) => (out += b))
    p.stderr.on('data', (b) => (err += b))
    p.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      if (code !== 0) reject(new Error(`collab project migrate exited ${code}: ${err}`))
      else resolve({ ms, summary: JSON.parse(out) })
    })
  })
}

/** The floor: `count` issue creates, one request each, one after another, into a fresh project of the target. */
async function floor(target: Child, count: number): Promise<number> {
  const api = `${target.url}/api/v4`
  const project = await call(`${api}/projects`, 'POST', { name: 'bench-floor' })
  const start = process.hrtime.bigint()
  for (let i = 0; i < count; i++) await call(`${api}/projects/${project.id}/issues`, 'POST', { title: `Issue ${i}`, description: `Generated issue ${i}.` })
  return Number(process.hrtime.bigint() - start) / 1e6
}

export async function migrateBench() {
  const sourceDir = tempDir('migrate-source')
  const targetDir = tempDir('migrate-target')
  const configDir = tempDir('migrate-config')
  const { source, project } = await seedSource(sourceDir)
  const target = await startCollab(targetDir)
  try {
    const { ms, summary } = await migrate(source, target, project.path_with_namespace, configDir)
    const items = Object.values(summary.copied as Record<string, number>).reduce((a, b) => a + b, 0)
    const requests = summary.requests.source + summary.requests.target
    const again = await migrate(source, target, project.path_with_namespace, configDir)
    const floorMs = await floor(target, items)
    console.log(row([`migrate ${ISSUES} issues + ${MERGE_REQUESTS} MRs, a note each`, 'collab', 'floor', 'ratio']))
    console.log(row([`time (s), ${items} items copied`, (ms / 1000).toFixed(1), (floorMs / 1000).toFixed(1), (ms / floorMs).toFixed(2)]))
    console.log(row(['requests per copied item (source + target)', (requests / items).toFixed(2), '1.00', (requests / items).toFixed(2)]))
    console.log(row(['  of which on the target', (summary.requests.target / items).toFixed(2), '1.00', (summary.requests.target / items).toFixed(2)]))
    console.log(row(['re-run copying nothing (s), requests', `${(again.ms / 1000).toFixed(1)}, ${again.summary.requests.source + again.summary.requests.target}`, '', '']))
  } finally {
    await source.stop()
    await target.stop()
    execFileSync('rm', ['-rf', sourceDir, targetDir, configDir])
  }
}
