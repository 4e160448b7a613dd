// Web benchmark (issue 13 item 3): an issue page (description, labels, 20 notes) read by a signed-in root, served next to the JSON API's answer
// for the same data (the issue and its notes, both computed afresh; target: the page within 1.5x), the issue alone beside it; the same
// for a merge request's page (overview with 20 notes, against GET merge request + its notes); and
// `collab serve`'s resident memory idle after start, after the timed reads and after the load runs (target < 120 MB).
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { timeMs } from './diff-pages.js'
import { requestsPerSecond, row, startCollab, tempDir, TOKEN } from './lib.js'

const NOTES = 20

/** The resident set of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
  return kb / 1024
}

async function seed(api: string, headers: Record<string, string>) {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(api + path, { method: 'POST', headers, body: JSON.stringify(body) })
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json() as Promise<{ id: number; iid: number; path_with_namespace: string }>
  }
  const project = await post('/projects', { name: 'bench-web', visibility: 'public' })
  const description = `## Steps\n\n- [ ] one\n- [x] two\n\nSee #1 and @root.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n${'Some text to read. '.repeat(40)}`
  const issue = await post(`/projects/${project.id}/issues`, { title: 'A benchmark issue', description, labels: 'bug,ui' })
  for (let i = 0; i < NOTES; i++) await post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: `Note ${i} with **markdown** and \`code\`.` })
  return { project, issue, mergeRequest: await seedMergeRequest(post, project.id, description) }
}

/** A merge request of one changed file with 20 notes, in the same project. */
async function seedMergeRequest(post: (path: string, body: unknown) => Promise<{ iid: number }>, projectId: number, description: string) {
  const files = (action: string, content: string) => [{ action, file_path: 'src/app.js', content }]
  await post(`/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'Initial', actions: files('create', 'const a = 1\n'.repeat(50)) })
  await post(`/projects/${projectId}/repository/commits`, {
    branch: 'feature', start_branch: 'main', commit_message: 'Change', actions: files('update', 'const a = 2\n'.repeat(50)),
  })
  const mr = await post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'A benchmark merge request', description, labels: 'bug' })
  for (let i = 0; i < NOTES; i++) await post(`/projects/${projectId}/merge_requests/${mr.iid}/notes`, { body: `Note ${i} with **markdown** and \`code\`.` })
  return mr
}

const PASSWORD = 'bench-root-password-1'

/** A session cookie for root, as a browser gets from the sign-in form (its pre-session cookie and token first). */
async function signIn(url: string) {
  const form = await fetch(`${url}/users/sign_in`)
  const token = /name="authenticity_token" value="([^"]+)"/.exec(await form.text())?.[1] ?? ''
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]
  const body = new URLSearchParams({ 'user[login]': 'root', 'user[password]': PASSWORD, authenticity_token: token })
  const res = await fetch(`${url}/users/sign_in`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' })
  if (res.status !== 302) throw new Error(`sign-in: ${res.status} ${await res.text()}`)
  return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

export async function webBench() {
  process.env.COLLAB_ROOT_PASSWORD = PASSWORD
  const collab = await startCollab(tempDir('web-data'), tempDir('web-config'), ['--no-response-cache'])
  const pid = collab.proc.pid!
  const api = `${collab.url}/api/v4`
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  try {
    await sleep(2000)
    const idleStart = rssMb(pid)
    const { project, issue, mergeRequest } = await seed(api, headers)
    const page = `${collab.url}/${project.path_with_namespace}/-/issues/${issue.iid}`
    const json = `${api}/projects/${project.id}/issues/${issue.iid}`
    const notes = `${json}/notes?per_page=100`
    const session = { cookie: await signIn(collab.url) }
    const token = { 'private-token': TOKEN }
    const get = async (url: string) => {
      const res = await fetch(url, { headers: url.startsWith(api) ? token : session })
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
      return res.text()
    }
    console.log(row(['root reads (median ms)', 'page', 'JSON API', 'ratio (target)']))
    const ours = await timeMs(() => get(page))
    const one = await timeMs(() => get(json))
    const both = await timeMs(() => Promise.all([get(json), get(notes)]))
    // The page shows the issue and its notes: the JSON answer for the same data is both reads (the target's figure);
    // the issue alone is printed beside it for scale.
    console.log(row([`issue page (${NOTES} notes) vs GET issue + its notes`, ours.toFixed(2), both.toFixed(2), `${(ours / both).toFixed(2)} (<= 1.5)`]))
    console.log(row([`issue page vs GET issue alone`, ours.toFixed(2), one.toFixed(2), `${(ours / one).toFixed(2)} (less data: no target)`]))
    const mrPage = `${collab.url}/${project.path_with_namespace}/-/merge_requests/${mergeRequest.iid}`
    const mrJson = `${api}/projects/${project.id}/merge_requests/${mergeRequest.iid}`
    // The page timed must be the one with every note on it, not a shorter answer.
    if (!(await get(mrPage)).includes(`Note ${NOTES - 1} with`)) throw new Error(`${mrPage} shows no notes`)
    const mrOurs = await timeMs(() => get(mrPage))
    const mrOne = await timeMs(() => get(mrJson))
    const mrBoth = await timeMs(() => Promise.all([get(mrJson), get(`${mrJson}/notes?per_page=100`)]))
    console.log(row([`MR page (${NOTES} notes) vs GET MR + its notes`, mrOurs.toFixed(2), mrBoth.toFixed(2), `${(mrOurs / mrBoth).toFixed(2)} (<= 1.5)`]))
    console.log(row([`MR page vs GET MR alone`, mrOurs.toFixed(2), mrOne.toFixed(2), `${(mrOurs / mrOne).toFixed(2)} (less data: no target)`]))
    await sleep(2000)
    const idlePages = rssMb(pid)
    console.log(row(['throughput, 10 connections, 5 s', 'page req/s', 'JSON req/s', 'ratio (target)']))
    const a = await requestsPerSecond(page, session)
    const b = await requestsPerSecond(json, token)
    console.log(row(['issue page vs GET issue (no notes)', a.toFixed(0), b.toFixed(0), `${(a / b).toFixed(2)} (no target)`]))
    await sleep(3000)
    // After the load runs V8 keeps the heap it grew to: printed for what it is, the target is the idle server's.
    console.log(row(['collab serve RSS (MB), idle', 'at start', 'after reads', 'after load']))
    console.log(row(['resident set (target < 120)', idleStart.toFixed(1), idlePages.toFixed(1), rssMb(pid).toFixed(1)]))
  } finally {
    await collab.stop()
  }
}
