// Commit list benchmark (issue 24): page 1 of GET /repository/commits on a generated 20,000-commit repository, with
// and without filters, against `git log -n 20` as a process (target: page 1 within 2x). The response cache is off, so
// every request is answered afresh.
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { housekeepingDone, timeMs } from './diff-pages.js'
import { generateRepo } from './gen-repo.js'
import { median, row, startSourceServer, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)

export async function commitsBench() {
  const root = tempDir('commits')
  // 20,000 commits over 400 files, by git fast-import in a few seconds.
  const repo = generateRepo(root, 20_000, 400)
  const dataDir = tempDir('data')
  const collab = await startSourceServer(dataDir)
  const api = `${collab.url}/api/v4`
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const get = async (path: string) => {
    const res = await fetch(api + path, { headers })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.text()
  }
  try {
    const created = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench-commits' }) })
    const project = (await created.json()) as { id: number; http_url_to_repo: string }
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`)
    await run('git', ['--git-dir', repo.dir, 'push', '-q', pushUrl, 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    await housekeepingDone(dataDir, project.id)
    const gitdir = join(dataDir, 'repositories', `${project.id}.git`)
    const git = (...args: string[]) => () => run('git', ['--git-dir', gitdir, ...args], { maxBuffer: 1 << 28 })
    const list = `/projects/${project.id}/repository/commits`
    // The first request of a history also counts it (X-Total); later pages of the same history reuse the count.
    const t = process.hrtime.bigint()
    await get(`${list}?per_page=20`)
    const first = Number(process.hrtime.bigint() - t) / 1e6
    const cases: [string, string, string[]][] = [
      ['GET commits?per_page=20 (page 1)', `${list}?per_page=20`, ['log', '-n', '20', 'master']],
      ['GET commits?per_page=20&page=500', `${list}?per_page=20&page=500`, ['log', '-n', '20', '--skip=9980', 'master']],
      ['GET commits?path=src/dir3 (page 1)', `${list}?per_page=20&path=src/dir3`, ['log', '-n', '20', 'master', '--', 'src/dir3']],
      ['GET commits?since=… (page 1)', `${list}?per_page=20&since=2023-11-15T00:00:00Z`, ['log', '-n', '20', '--since=2023-11-15T00:00:00Z', 'master']],
      ['GET commits?first_parent=true (page 1)', `${list}?per_page=20&first_parent=true`, ['log', '-n', '20', '--first-parent', 'master']],
    ]
    console.log(row(['operation (median ms)', 'collab', 'git log', 'ratio']))
    const base = await timeMs(git('log', '-n', '20', 'master'))
    console.log(row(['first request (counts the history too)', first.toFixed(1), base.toFixed(1), (first / base).toFixed(2)]))
    // Pages read once each, as a client walking the list does: git runs for every one (read again, a page is kept).
    const once: number[] = []
    const onceGit: number[] = []
    for (let n = 2; n <= 16; n++) {
      const t1 = process.hrtime.bigint()
      await get(`${list}?per_page=20&page=${n}`)
      once.push(Number(process.hrtime.bigint() - t1) / 1e6)
      const t2 = process.hrtime.bigint()
      await git('log', '-n', '20', `--skip=${(n - 1) * 20}`, 'master')()
      onceGit.push(Number(process.hrtime.bigint() - t2) / 1e6)
    }
    const [a1, b1] = [median(once), median(onceGit)]
    console.log(row(['GET commits pages 2-16, each read once', a1.toFixed(1), b1.toFixed(1), `${(a1 / b1).toFixed(2)} (<= 2)`]))
    for (const [label, path, args] of cases) {
      const a = await timeMs(() => get(path))
      const b = await timeMs(git(...args))
      console.log(row([`${label} again`, a.toFixed(1), b.toFixed(1), (a / b).toFixed(2)]))
    }
  } finally {
    await collab.stop()
    execFileSync('rm', ['-rf', root, dataDir])
  }
}
