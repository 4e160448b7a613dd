// Archive benchmark: GET …/repository/archive.tar.gz of the 20,000-commit, 400-file repository, next to
// `git archive --format=tar.gz` run as a process on the same repository and read to the end (target ratio <= 1.2):
// made afresh each time (the server's archive cache emptied first), and answered from that cache.
import { execFile, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { get } from 'node:http'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { housekeepingDone, timeMs } from './diff-pages.js'
import { generateRepo } from './gen-repo.js'
import { median, row, startCollab, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)
const COMMITS = 20_000
const FILES = 400
const RUNS = 15

/** Bytes of a process's stdout, read to the end as a client reads the download. */
function processBytes(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let n = 0
    child.stdout.on('data', (d: Buffer) => { n += d.length })
    child.once('error', reject)
    child.once('close', (code) => (code === 0 ? resolve(n) : reject(new Error(`${cmd} exited ${code}`))))
  })
}

/** Bytes of a download read to the end through node:http, as the git side is read through a pipe (fetch's web
 * streams would add their own cost to ours). */
function downloadBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'private-token': TOKEN } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`))
      let n = 0
      res.on('data', (d: Buffer) => { n += d.length })
      res.once('end', () => resolve(n))
      res.once('error', reject)
    }).once('error', reject)
  })
}

/** Median time of `fn` over RUNS runs after one warm-up, `before` run untimed ahead of each. */
async function medianOf(before: () => void, fn: () => Promise<unknown>): Promise<number> {
  await fn()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    before()
    const t = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(times)
}

export async function archiveBench() {
  const root = tempDir('archive')
  const repo = generateRepo(root, COMMITS, FILES)
  const dataDir = tempDir('data')
  const collab = await startCollab(dataDir, tempDir('config'))
  const api = `${collab.url}/api/v4`
  try {
    const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
    const created = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) })
    const project = (await created.json()) as { id: number; http_url_to_repo: string }
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`)
    await run('git', ['--git-dir', repo.dir, 'push', '-q', pushUrl, 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    await housekeepingDone(dataDir, project.id)
    const url = `${api}/projects/${project.id}/repository/archive.tar.gz?sha=master`
    const ours = await downloadBytes(url)
    const theirs = await processBytes('git', ['--git-dir', repo.dir, 'archive', '--format=tar.gz', '--prefix=bench/', 'master'])
    console.log(`archive of ${FILES} files at the tip of ${COMMITS} commits: ${ours} bytes from collab, ${theirs} from git`)
    const gitRun = () => processBytes('git', ['--git-dir', repo.dir, 'archive', '--format=tar.gz', '--prefix=bench/', 'master'])
    // Cold: the server's archive cache emptied before each request, so every answer runs git archive as the baseline does.
    const cache = join(dataDir, 'cache')
    const cold = await medianOf(() => rmSync(cache, { recursive: true, force: true }), () => downloadBytes(url))
    const baseline = await medianOf(() => {}, gitRun)
    const warm = await timeMs(() => downloadBytes(url), RUNS)
    console.log(row(['operation (median ms)', 'collab', 'git archive', 'ratio']))
    console.log(row(['GET repository/archive.tar.gz (made each time)', cold.toFixed(1), baseline.toFixed(1), (cold / baseline).toFixed(2)]))
    console.log(row(['GET repository/archive.tar.gz (cached)', warm.toFixed(1), baseline.toFixed(1), (warm / baseline).toFixed(2)]))
  } finally {
    await collab.stop()
  }
}
