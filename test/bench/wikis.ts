// Wiki benchmark (issue 12 item 6): 1,000 pages pushed into a wiki over HTTP; `GET /wikis?with_content=1` computed
// afresh next to `git cat-file --batch` reading the same blobs (target <= 3x), and a single page read next to a bare
// node:http server returning the same bytes (target >= 0.4), both measured in alternating turns after a warm-up.
import { execFile, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { cpuMs, median, row, startBare, startCollab, tempDir, TOKEN, type Child } from './lib.js'

const run = promisify(execFile)
const PAGES = 1_000
const DIRS = 20

/** 1,000 markdown pages of about 1 KB in 20 directories, one commit in a fresh repository. */
function generateWiki(dir: string) {
  execFileSync('git', ['init', '-q', '-b', 'master', dir])
  for (let d = 0; d < DIRS; d++) mkdirSync(join(dir, `section-${d}`))
  for (let i = 0; i < PAGES; i++) {
    const text = `# Page ${i}\n\n${`Line ${i} of the benchmark wiki, with some words to read.\n`.repeat(18)}`
    writeFileSync(join(dir, `section-${i % DIRS}`, `Page-${i}.md`), text)
  }
  execFileSync('git', ['-C', dir, 'add', '-A'])
  execFileSync('git', ['-C', dir, '-c', 'user.name=b', '-c', 'user.email=b@e', 'commit', '-q', '-m', 'pages'])
}

const TURNS = 5
const TURN_SECONDS = 1

interface Served { requests: number; seconds: number; cpuMs: number }

/** `seconds` of 10 connections asking `url`; the server's CPU time from /proc (0 where there is none). */
async function serve(server: Child, path: string, headers: Record<string, string>, seconds: number): Promise<Served> {
  const cpu = () => { try { return cpuMs(server.proc.pid!) } catch { return 0 } }
  const cpu0 = cpu()
  const r = await autocannon({ url: server.url + path, connections: 10, duration: seconds, headers })
  if (r.non2xx || r.errors) throw new Error(`load run against ${server.url + path} saw ${r.non2xx} non-2xx and ${r.errors} errors`)
  return { requests: r.requests.total, seconds: r.duration, cpuMs: cpu() - cpu0 }
}

/**
 * Both servers warmed for a second each (a fresh server's first seconds of a route pay for V8 compiling it and growing
 * its young generation; the bare server's code is too small to notice), then served in TURNS alternating turns, so a
 * machine busy with other work slows both alike. Also the CPU each spent per request: steadier than rates when shared.
 */
async function sideBySide(collab: Child, bare: Child, path: string, headers: Record<string, string>) {
  await serve(collab, path, headers, 1)
  await serve(bare, path, {}, 1)
  const ours: Served = { requests: 0, seconds: 0, cpuMs: 0 }
  const base: Served = { requests: 0, seconds: 0, cpuMs: 0 }
  for (let i = 0; i < TURNS; i++) {
    for (const [into, r] of [[ours, await serve(collab, path, headers, TURN_SECONDS)], [base, await serve(bare, path, {}, TURN_SECONDS)]] as const) {
      into.requests += r.requests
      into.seconds += r.seconds
      into.cpuMs += r.cpuMs
    }
  }
  return { ours, base }
}

/** Median ms of each of two operations, run one after the other 15 times after one run each: a busy spell hits both. */
async function inTurns(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  await a()
  await b()
  const times: [number[], number[]] = [[], []]
  for (let i = 0; i < 15; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const t = process.hrtime.bigint()
      await fn()
      times[k].push(Number(process.hrtime.bigint() - t) / 1e6)
    }
  }
  return [median(times[0]), median(times[1])]
}

const rate = (s: Served) => s.requests / s.seconds
const cpuPerRequest = (s: Served) => (s.cpuMs * 1000) / s.requests

/** The baseline: one `git cat-file --batch` printing every page blob of the wiki's default branch. */
function catFileBatch(gitdir: string, oids: string) {
  return () => new Promise<void>((resolve, reject) => {
    const p = spawn('git', ['--git-dir', gitdir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] })
    p.stdout.resume()
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git cat-file exited ${code}`))))
    p.stdin.end(oids)
  })
}

export async function wikisBench() {
  const root = tempDir('wiki')
  const source = join(root, 'source')
  generateWiki(source)
  const dataDir = tempDir('data')
  const collab = await startCollab(dataDir, tempDir('config'), ['--no-response-cache'])
  const api = `${collab.url}/api/v4`
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  try {
    const created = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench-wiki' }) })
    const project = (await created.json()) as { id: number; http_url_to_repo: string }
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`).replace(/\.git$/, '.wiki.git')
    const t0 = Date.now()
    await run('git', ['-C', source, 'push', '-q', pushUrl, 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    console.log(`pushed ${PAGES} pages into the wiki over HTTP in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

    const list = `${api}/projects/${project.id}/wikis?with_content=1`
    const get = async (url: string) => {
      const res = await fetch(url, { headers })
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`)
      return res.text()
    }
    const count = (JSON.parse(await get(list)) as unknown[]).length
    if (count !== PAGES) throw new Error(`the wiki lists ${count} pages, not ${PAGES}`)
    const gitdir = join(dataDir, 'repositories', `${project.id}.wiki.git`)
    const oids = execFileSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--format=%(objectname)', 'HEAD']).toString()
    console.log(row(['operation (median ms)', 'collab', 'git CLI', 'ratio (target)']))
    const [ours, theirs] = await inTurns(() => get(list), catFileBatch(gitdir, oids))
    console.log(row([`GET /wikis?with_content=1 (${PAGES} pages)`, ours.toFixed(1), theirs.toFixed(1), `${(ours / theirs).toFixed(2)} (<= 3)`]))

    const one = `/api/v4/projects/${project.id}/wikis/${encodeURIComponent('section-7/Page-507')}`
    const res = await fetch(collab.url + one, { headers })
    const bare = await startBare({ [one]: { body: await res.text(), headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } } })
    try {
      const turns = await sideBySide(collab, bare, one, headers)
      const [a, b] = [rate(turns.ours), rate(turns.base)]
      console.log(row([`throughput, 10 connections, ${TURNS} x ${TURN_SECONDS} s`, 'collab req/s', 'bare req/s', 'ratio (target)']))
      console.log(row(['GET /projects/:id/wikis/:slug', a.toFixed(0), b.toFixed(0), `${(a / b).toFixed(2)} (>= 0.40)`]))
      if (turns.ours.cpuMs && turns.base.cpuMs) {
        const [a, b] = [cpuPerRequest(turns.ours), cpuPerRequest(turns.base)]
        console.log(row(['  CPU per request (µs)', a.toFixed(0), b.toFixed(0), `${(b / a).toFixed(2)} (bare / collab)`]))
      }
    } finally {
      await bare.stop()
    }
  } finally {
    await collab.stop()
  }
}
