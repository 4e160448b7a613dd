// Markdown benchmark (issue 21): anonymous views of an issue whose description is close to 1 MB (over the render limit:
// its first 100,000 characters rendered once) and of one of 90 KB (rendered once, then read back), each next to a bare node:http server
// answering the same bytes; then the latency of a small GET while 4 views of the 1 MB page run in parallel, next to
// the same GET on the idle server.
import { timeMs } from './diff-pages.js'
import { median, row, startBare, startCollab, tempDir, TOKEN } from './lib.js'

const PARALLEL_VIEWS = 4
const SMALL_GETS = 30

/** Markdown prose with references, emphasis and a list, `size` characters long. */
function description(size: number) {
  const block = 'A paragraph about #1 and !2 by @root, with **bold**, `code` and a [link](http://example.com).\n\n- [ ] a task\n- [x] another\n\n'
  return block.repeat(Math.ceil(size / block.length)).slice(0, size)
}

async function seed(api: string) {
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const post = async (path: string, body: unknown) => {
    const res = await fetch(api + path, { method: 'POST', headers, body: JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<{ id: number; iid: number; path_with_namespace: string }>
  }
  const project = await post('/projects', { name: 'bench-markdown', visibility: 'public' })
  const huge = await post(`/projects/${project.id}/issues`, { title: 'A 1 MB description', description: description(999_000) })
  const long = await post(`/projects/${project.id}/issues`, { title: 'A 90 KB description', description: description(90_000) })
  return { project, huge, long }
}

async function fetchOk(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers })
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
  return { text: await res.text(), headers: res.headers }
}

/** A page's view time next to a bare server answering its recorded bytes. */
async function pageVersusBare(label: string, url: string) {
  const { text, headers } = await fetchOk(url)
  const path = new URL(url).pathname
  const bare = await startBare({ [path]: { body: text, headers: { 'content-type': headers.get('content-type') ?? 'text/html' } } })
  try {
    const ours = await timeMs(() => fetchOk(url))
    const base = await timeMs(() => fetchOk(bare.url + path))
    console.log(row([label, ours.toFixed(2), base.toFixed(2), `${(ours / base).toFixed(2)}`]))
  } finally {
    await bare.stop()
  }
}

/** Median and worst of `SMALL_GETS` sequential small GETs, each timed alone. */
async function smallGets(url: string, headers: Record<string, string>) {
  const times: number[] = []
  for (let i = 0; i < SMALL_GETS; i++) {
    const t = process.hrtime.bigint()
    await fetchOk(url, headers)
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return { median: median(times), worst: Math.max(...times) }
}

export async function markdownBench() {
  const collab = await startCollab(tempDir('markdown-data'), tempDir('markdown-config'), ['--no-response-cache'])
  try {
    const api = `${collab.url}/api/v4`
    const { project, huge, long } = await seed(api)
    const page = (iid: number) => `${collab.url}/${project.path_with_namespace}/-/issues/${iid}`
    console.log(row(['anonymous issue page (median ms)', 'collab', 'bare node:http', 'ratio']))
    await pageVersusBare('1 MB description (first 100,000 chars, kept)', page(huge.iid))
    await pageVersusBare('90 KB description (rendered once, kept)', page(long.iid))

    const small = `${api}/projects/${project.id}`
    const token = { 'private-token': TOKEN }
    const idle = await smallGets(small, token)
    let viewing = true
    const views = Array.from({ length: PARALLEL_VIEWS }, async () => {
      while (viewing) await fetchOk(page(huge.iid))
    })
    const loaded = await smallGets(small, token)
    viewing = false
    await Promise.all(views)
    console.log(row([`GET project (ms), ${PARALLEL_VIEWS} views of the 1 MB page running`, 'median / worst', 'idle: median / worst', 'ratio']))
    console.log(row(['small GET latency', `${loaded.median.toFixed(2)} / ${loaded.worst.toFixed(2)}`,
      `${idle.median.toFixed(2)} / ${idle.worst.toFixed(2)}`, `${(loaded.median / idle.median).toFixed(2)}`]))
  } finally {
    await collab.stop()
  }
}
