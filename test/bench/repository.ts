// Repository benchmark on a generated repository of 20,000 commits and 400 files: collab's API next to the git
// command line doing the same work, median of repeated runs, and the ratio (target: within 3x; clone within 1.3x).
import { execFile, execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { generateRepo } from './gen-repo.js'
import { median, row, startCollab, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)
const COMMITS = 20_000
const FILES = 400
const RUNS = 15

async function timeMs(fn: () => Promise<unknown>, runs = RUNS) {
  await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(times)
}

/** Every page of a paginated GET, following x-next-page as a client does; returns how many pages it took. */
async function fetchAllPages(fetchPage: (path: string) => Promise<{ next: string | null }>, path: string) {
  let pages = 0
  for (let page: string | null = '1'; page; pages++) page = (await fetchPage(`${path}${path.includes('?') ? '&' : '?'}page=${page}`)).next
  return pages
}

/**
 * All pages of the 400-file diff at per_page=20 against one `git diff`: the first fetch computes the diff, the pages
 * after it (and every later fetch) read it from the diff cache. Run first, while the commit's diff is not cached yet.
 */
async function diffPagesBench(get: (path: string, onHeaders: (h: Headers) => void) => Promise<string>, diffPath: string, gitDiff: () => Promise<unknown>) {
  const getPage = async (path: string) => {
    let next: string | null = null
    await get(path, (h) => { next = h.get('x-next-page') || null })
    return { next: next as string | null }
  }
  const path = `${diffPath}?per_page=20`
  const t = process.hrtime.bigint()
  const pages = await fetchAllPages(getPage, path)
  const first = Number(process.hrtime.bigint() - t) / 1e6
  const cached = await timeMs(() => fetchAllPages(getPage, path))
  const base = await timeMs(gitDiff)
  console.log(row(['all pages of a 400-file commit diff (per_page=20) ', cached.toFixed(1), base.toFixed(1), `${(cached / base).toFixed(2)} (<= 2)`]))
  console.log(row([`  first fetch of the ${pages} pages (uncached, one run)`, first.toFixed(1), base.toFixed(1), (first / base).toFixed(2)]))
}

export async function repositoryBench() {
  const root = tempDir('repo')
  const t0 = Date.now()
  const repo = generateRepo(root, COMMITS, FILES)
  console.log(`generated ${COMMITS} commits over ${FILES} files in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const collab = await startCollab(tempDir('data'), tempDir('config'))
  const api = `${collab.url}/api/v4`
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const get = async (path: string, onHeaders?: (h: Headers) => void) => {
    const res = await fetch(api + path, { headers })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    onHeaders?.(res.headers)
    return res.text()
  }
  try {
    const created = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) })
    const project = (await created.json()) as { id: number; http_url_to_repo: string }
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`)
    const tp = Date.now()
    await run('git', ['--git-dir', repo.dir, 'push', '-q', pushUrl, 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    console.log(`pushed it over HTTP in ${((Date.now() - tp) / 1000).toFixed(1)} s`)

    const git = (...args: string[]) => () => run('git', ['--git-dir', repo.dir, ...args], { maxBuffer: 1 << 28 })
    const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      ['GET commits?per_page=20 (page 1)', () => get(`/projects/${project.id}/repository/commits?per_page=20`), git('log', '-n', '20', 'master')],
      ['GET commits?per_page=20&page=500', () => get(`/projects/${project.id}/repository/commits?per_page=20&page=500`), git('log', '-n', '20', '--skip=9980', 'master')],
      ['GET commits/:sha/diff (1 file)', () => get(`/projects/${project.id}/repository/commits/${repo.narrowCommit}/diff`), git('diff', '-M', `${repo.narrowCommit}~1`, repo.narrowCommit)],
      ['GET commits/:sha/diff (400 files)', () => get(`/projects/${project.id}/repository/commits/${repo.wideCommit}/diff?per_page=100`), git('diff', '-M', `${repo.wideCommit}~1`, repo.wideCommit)],
    ]
    console.log(row(['operation (median ms)', 'collab', 'git CLI', 'ratio']))
    // First: the pages must meet the wide commit's diff uncached. Reading another commit loads the pack's index, a
    // once-per-repository cost that is not the diff's.
    await get(`/projects/${project.id}/repository/commits/${repo.narrowCommit}`)
    await diffPagesBench(get, `/projects/${project.id}/repository/commits/${repo.wideCommit}/diff`, git('diff', '-M', `${repo.wideCommit}~1`, repo.wideCommit))
    for (const [label, ours, theirs] of cases) {
      const a = await timeMs(ours)
      const b = await timeMs(theirs)
      console.log(row([label, a.toFixed(1), b.toFixed(1), (a / b).toFixed(2)]))
    }

    // 10 file actions in one commit, against git writing the same 10 files and committing in a work tree.
    const work = join(root, 'work')
    execFileSync('git', ['clone', '-q', repo.dir, work])
    let n = 0
    const apiCommit = () => {
      n++
      const actions = Array.from({ length: 10 }, (_, i) => ({ action: 'create', file_path: `bench/${n}/f${i}.txt`, content: `content ${n} ${i}\n` }))
      return fetch(`${api}/projects/${project.id}/repository/commits`, { method: 'POST', headers, body: JSON.stringify({ branch: 'master', commit_message: `bench ${n}`, actions }) })
        .then(async (r) => { if (r.status !== 201) throw new Error(`commit: ${r.status} ${await r.text()}`) })
    }
    let m = 0
    const cliCommit = async () => {
      m++
      mkdirSync(join(work, 'bench', String(m)), { recursive: true })
      for (let i = 0; i < 10; i++) writeFileSync(join(work, 'bench', String(m), `f${i}.txt`), `content ${m} ${i}\n`)
      await run('git', ['-C', work, 'add', '-A'])
      await run('git', ['-C', work, '-c', 'user.name=b', '-c', 'user.email=b@e', 'commit', '-q', '-m', `bench ${m}`])
    }
    const a = await timeMs(apiCommit)
    const b = await timeMs(cliCommit)
    console.log(row(['POST commits (10 actions)', a.toFixed(1), b.toFixed(1), (a / b).toFixed(2)]))

    const { cloneBench } = await import('./git-clone.js')
    await cloneBench(project.http_url_to_repo.replace('://', `://root:${TOKEN}@`), repo.dir)
  } finally {
    await collab.stop()
  }
}
