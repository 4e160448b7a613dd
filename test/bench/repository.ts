// Repository benchmark on a generated repository of 20,000 commits and 400 files: collab's API next to the git
// command line doing the same work, median of repeated runs, and the ratio (target: within 3x; clone within 1.3x).
import { execFile, execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { addWideCommits, diffPagesBench, housekeepingDone, timeMs, type Get } from './diff-pages.js'
import { generateRepo } from './gen-repo.js'
import { row, startCollab, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)
const COMMITS = 20_000
const FILES = 400

export async function repositoryBench() {
  const root = tempDir('repo')
  const t0 = Date.now()
  const repo = generateRepo(root, COMMITS, FILES)
  console.log(`generated ${COMMITS} commits over ${FILES} files in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const wide = addWideCommits(repo.dir, join(root, 'wide'), 4)
  const dataDir = tempDir('data')
  const collab = await startCollab(dataDir, tempDir('config'))
  const api = `${collab.url}/api/v4`
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const get: Get = async (path, onHeaders) => {
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
    await run('git', ['--git-dir', repo.dir, 'push', '-q', pushUrl, 'master', 'wide'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    console.log(`pushed it over HTTP in ${((Date.now() - tp) / 1000).toFixed(1)} s`)

    const git = (...args: string[]) => () => run('git', ['--git-dir', repo.dir, ...args], { maxBuffer: 1 << 28 })
    const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      ['GET commits?per_page=20 (page 1)', () => get(`/projects/${project.id}/repository/commits?per_page=20`), git('log', '-n', '20', 'master')],
      ['GET commits?per_page=20&page=500', () => get(`/projects/${project.id}/repository/commits?per_page=20&page=500`), git('log', '-n', '20', '--skip=9980', 'master')],
      ['GET commits/:sha/diff (1 file)', () => get(`/projects/${project.id}/repository/commits/${repo.narrowCommit}/diff`), git('diff', '-M', `${repo.narrowCommit}~1`, repo.narrowCommit)],
      ['GET commits/:sha/diff (400 files)', () => get(`/projects/${project.id}/repository/commits/${repo.wideCommit}/diff?per_page=100`), git('diff', '-M', `${repo.wideCommit}~1`, repo.wideCommit)],
    ]
    console.log(row(['operation (median ms)', 'collab', 'git CLI', 'ratio']))
    // First, once the push's repack is over: the pages must meet the wide commits' diffs uncached. The root commit's
    // diff (400 new files) warms the server up.
    await housekeepingDone(dataDir, project.id)
    const rootCommit = execFileSync('git', ['--git-dir', repo.dir, 'rev-list', '--max-parents=0', 'master']).toString().trim()
    let edits = 0
    const write = () => fetch(`${api}/projects/${project.id}`, { method: 'PUT', headers, body: JSON.stringify({ description: `edit ${++edits}` }) }).then((r) => r.text())
    await diffPagesBench(get, write, `/projects/${project.id}`, repo.dir, [repo.wideCommit, ...wide], rootCommit)
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
