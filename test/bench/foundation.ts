// Foundation benchmark: 10,000 projects; GET /projects/:id and GET /projects?per_page=100 next to a bare node:http
// server returning the same bytes; CLI wall times for `collab --version` and `collab project list --json`.
import { BIN, requestsPerSecond, row, startBare, startCollab, tempDir, TOKEN, wallTimeMs } from './lib.js'

const PROJECTS = 10_000

async function seed(api: string) {
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  let next = 0
  const worker = async () => {
    while (next < PROJECTS) {
      const i = next++
      const res = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: `project-${i}`, visibility: i % 3 ? 'private' : 'public' }) })
      if (res.status !== 201) throw new Error(`seeding project ${i}: ${res.status} ${await res.text()}`)
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
}

export async function foundationBench() {
  const dataDir = tempDir('data')
  const configDir = tempDir('config')
  let collab = await startCollab(dataDir, configDir)
  const api = `${collab.url}/api/v4`
  try {
    const t0 = Date.now()
    await seed(api)
    console.log(`seeded ${PROJECTS} projects through the API in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    const headers = { 'private-token': TOKEN }
    const paths = { one: '/api/v4/projects/5000', list: '/api/v4/projects?per_page=100' }
    const recorded: Record<string, { body: string; headers: Record<string, string> }> = {}
    for (const path of Object.values(paths)) {
      const res = await fetch(collab.url + path, { headers })
      const keep = ['content-type', 'link', 'x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page']
      recorded[path] = { body: await res.text(), headers: Object.fromEntries(keep.flatMap((h) => (res.headers.get(h) !== null ? [[h, res.headers.get(h)!]] : []))) }
    }
    const bare = await startBare(recorded)
    try {
      const measure = async (label: string, path: string, target = '') => {
        const ours = await requestsPerSecond(collab.url + path, headers)
        const base = await requestsPerSecond(bare.url + path, headers)
        console.log(row([label, ours.toFixed(0), base.toFixed(0), `${(ours / base).toFixed(2)} ${target}`]))
      }
      console.log(row(['request (10 connections, 5 s)', 'collab req/s', 'bare req/s', 'ratio (target)']))
      await measure('GET /projects/:id', paths.one, '(>= 0.40)')
      await measure('GET /projects?per_page=100', paths.list)
      // The same requests computed afresh every time: what the response cache saves, and what a first read costs.
      await collab.stop()
      collab = await startCollab(dataDir, configDir, ['--no-response-cache'])
      await measure('GET /projects/:id, uncached', paths.one)
      await measure('GET /projects?per_page=100, uncached', paths.list)
    } finally {
      await bare.stop()
    }
    const env = { COLLAB_CONFIG_DIR: configDir, COLLAB_HOST: collab.url, COLLAB_TOKEN: TOKEN, NO_COLOR: '1' }
    const version = await wallTimeMs(process.execPath, [BIN, '--version'], env)
    const list = await wallTimeMs(process.execPath, [BIN, 'project', 'list', '--json'], env)
    const bareNode = await wallTimeMs(process.execPath, ['-e', ''], env)
    console.log(row(['command (median of 20)', 'wall ms', 'node -e ""', 'target']))
    console.log(row(['collab --version', version.toFixed(0), bareNode.toFixed(0), '< 100']))
    console.log(row(['collab project list --json', list.toFixed(0), bareNode.toFixed(0), '< 200']))
  } finally {
    await collab.stop()
  }
}
