// Archive benchmark: GET …/repository/archive.tar.gz of the 20,000-commit, 400-file repository, next to
// `git archive --format=tar.gz` run as a process on the same repository and read to the end (target ratio <= 1.2).
import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { housekeepingDone, timeMs } from './diff-pages.js'
import { generateRepo } from './gen-repo.js'
import { row, startCollab, tempDir, TOKEN } from './lib.js'

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

async function downloadBytes(url: string): Promise<number> {
  const res = await fetch(url, { headers: { 'private-token': TOKEN } })
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  let n = 0
  for await (const chunk of res.body) n += (chunk as Uint8Array).length
  return n
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
    const a = await timeMs(() => downloadBytes(url), RUNS)
    const b = await timeMs(() => processBytes('git', ['--git-dir', repo.dir, 'archive', '--format=tar.gz', '--prefix=bench/', 'master']), RUNS)
    console.log(row(['operation (median ms)', 'collab', 'git archive', 'ratio']))
    console.log(row(['GET repository/archive.tar.gz', a.toFixed(1), b.toFixed(1), (a / b).toFixed(2)]))
  } finally {
    await collab.stop()
  }
}
