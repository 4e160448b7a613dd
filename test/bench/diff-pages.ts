// Reading every page of a 400-file commit diff, next to one `git diff` of it: first fetches (the server computes the
// diff) over several commits it has not seen, then the same pages again (served from the diff cache).
import { execFile, execFileSync } from 'node:child_process'
import { appendFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { median, row, startBare, type Recorded } from './lib.js'

const run = promisify(execFile)
const RUNS = 15

export type Get = (path: string, onHeaders?: (h: Headers) => void) => Promise<string>

/** One page of a paginated GET and the number of the next. */
const pageReader = (get: Get) => async (path: string) => {
  let next: string | null = null
  await get(path, (h) => { next = h.get('x-next-page') || null })
  return next as string | null
}

/**
 * The same pages as bytes from a bare node:http server, read with the same client (fetch, following x-next-page): what
 * a sequential client pays for the round trips alone, with nothing computed.
 */
async function barePagesMs(get: Get, path: string) {
  const routes: Recorded = {}
  for (let page: string | null = '1'; page;) {
    const url = `/p?page=${page}`
    let next: string | null = null
    const body = await get(`${path}${path.includes('?') ? '&' : '?'}page=${page}`, (h) => { next = h.get('x-next-page') || null })
    routes[url] = { body, headers: { 'content-type': 'application/json', 'x-next-page': next ?? '' } }
    page = next
  }
  const bare = await startBare(routes)
  try {
    const bareGet: Get = async (p, onHeaders) => {
      const res = await fetch(bare.url + p.replace(/^.*[?&]page=/, '/p?page='))
      onHeaders?.(res.headers)
      return res.text()
    }
    return await timeMs(() => allPages(bareGet, '/p'))
  } finally {
    await bare.stop()
  }
}

/** Every page of a paginated GET, following x-next-page as a client does; how many it took, and how long page 1 took. */
async function allPages(get: Get, path: string) {
  const read = pageReader(get)
  const t = process.hrtime.bigint()
  let pageOne = 0
  let pages = 0
  for (let page: string | null = '1'; page; pages++) {
    page = await read(`${path}${path.includes('?') ? '&' : '?'}page=${page}`)
    pageOne ||= Number(process.hrtime.bigint() - t) / 1e6
  }
  return { pages, pageOne, total: Number(process.hrtime.bigint() - t) / 1e6 }
}

/** Median wall time of `runs` calls, after one unmeasured call. */
export async function timeMs(fn: () => Promise<unknown>, runs = RUNS) {
  await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(times)
}

/**
 * `count` commits on branch `wide`, from master, each adding a line to every file: 400-file diffs the server has
 * never computed, so a first fetch can be measured more than once. Made in a clone and pushed back to `dir`.
 */
export function addWideCommits(dir: string, work: string, count: number): string[] {
  execFileSync('git', ['clone', '-q', dir, work])
  const files = execFileSync('git', ['-C', work, 'ls-files', '-z']).toString().split('\0').filter(Boolean)
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    for (const f of files) appendFileSync(join(work, f), `export const wide${i} = ${i}\n`)
    execFileSync('git', ['-C', work, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-qam', `wide ${i}`])
    ids.push(execFileSync('git', ['-C', work, 'rev-parse', 'HEAD']).toString().trim())
  }
  execFileSync('git', ['-C', work, 'push', '-q', 'origin', 'HEAD:refs/heads/wide'])
  return ids
}

/**
 * Waits for the repack the server starts after a push (a 20,000-commit repository gets a bitmap): it takes both cores
 * for seconds, and when done makes the next read load the new pack's index (~100 ms in isomorphic-git). Measured
 * inside it, the first diff fetch took 90-440 ms against 15 ms for `git diff`: the repack, not the diff.
 */
export async function housekeepingDone(dataDir: string, projectId: number) {
  const packs = join(dataDir, 'repositories', `${projectId}.git`, 'objects', 'pack')
  const deadline = Date.now() + 60_000
  for (;;) {
    const names = readdirSync(packs)
    if (names.some((n) => n.endsWith('.bitmap')) && names.filter((n) => n.endsWith('.pack')).length === 1) break
    if (Date.now() > deadline) throw new Error(`no repacked pack in ${packs} after 60 s: ${names.join(' ')}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  // git has replaced the pack; the server forgets its pack index once the repack's process has exited.
  await new Promise((resolve) => setTimeout(resolve, 250))
}

/**
 * All pages at per_page=20 of each commit's diff, against `git diff` of it. The server first reads all pages of
 * `warmCommit`'s diff: the repository's first read and a cold process's first run of the route are not a diff's cost.
 * `write` makes any write, which empties the server's response cache: every page is then presented afresh from the
 * diff computed once, as on a server where others write meanwhile.
 */
export async function diffPagesBench(get: Get, write: () => Promise<unknown>, projectPath: string, gitDir: string, commits: string[], warmCommit: string) {
  const path = (sha: string) => `${projectPath}/repository/commits/${sha}/diff?per_page=20`
  await allPages(get, path(warmCommit))
  const firsts = []
  for (const sha of commits) firsts.push(await allPages(get, path(sha)))
  const cached = await timeMs(() => allPages(get, path(commits[0])))
  const presented: number[] = []
  for (let i = 0; i < RUNS; i++) {
    await write()
    presented.push((await allPages(get, path(commits[0]))).total)
  }
  const afresh = median(presented)
  const bare = await barePagesMs(get, path(commits[0]))
  const bases = []
  for (const sha of commits) bases.push(await timeMs(() => run('git', ['--git-dir', gitDir, 'diff', '-M', `${sha}~1`, sha], { maxBuffer: 1 << 28 })))
  const base = median(bases)
  const first = median(firsts.map((f) => f.total))
  const pageOne = median(firsts.map((f) => f.pageOne))
  const n = `${commits.length} commits`
  console.log(row(['all pages of a 400-file commit diff (per_page=20) ', afresh.toFixed(1), base.toFixed(1), `${(afresh / base).toFixed(2)} (<= 2)`]))
  console.log(row(['  the same with every page in the response cache', cached.toFixed(1), base.toFixed(1), (cached / base).toFixed(2)]))
  console.log(row([`  first fetch of the ${firsts[0].pages} pages (uncached, ${n})`, first.toFixed(1), base.toFixed(1), (first / base).toFixed(2)]))
  console.log(row(['    of which page 1 (runs git diff)', pageOne.toFixed(1), base.toFixed(1), (pageOne / base).toFixed(2)]))
  // What no server can go below: one `git diff` plus the round trips of the 20 pages with nothing computed.
  console.log(row([`  the ${firsts[0].pages} pages' bytes from bare node:http`, bare.toFixed(1), base.toFixed(1), (bare / base).toFixed(2)]))
  console.log(row(['  first fetch / (git diff + bare pages)', first.toFixed(1), (base + bare).toFixed(1), (first / (base + bare)).toFixed(2)]))
  console.log(`  first fetches (ms): ${firsts.map((f) => f.total.toFixed(1)).join(' ')}`)
}
