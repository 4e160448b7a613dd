// Large-repository benchmark (issue 24 item 1): collab serve's resident set across issue 24's read sequence, five times
// over, on a repository with a 1 GB pack of random blobs (LARGE_REPO_MB sets its size), target <= 64 MB of growth; and a
// small file's raw read from that repository next to `git cat-file -p` as a process, target <= 2x.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { generateLargeRepo, readSteps, residentBytes, runReadSteps, type LargeRepo } from '../helpers/large-repo.js'
import { housekeepingDone, timeMs } from './diff-pages.js'
import { row, startCollab, tempDir, TOKEN, wallTimeMs } from './lib.js'

const run = promisify(execFile)
const MB = 1024 * 1024

export async function largeRepoBench() {
  const fillerMb = Number(process.env.LARGE_REPO_MB ?? 1024)
  const root = tempDir('large-repo')
  const t0 = Date.now()
  const small = await generateLargeRepo(join(root, 'small'), { fillerBytes: 0, bigBytes: 2 * MB })
  const large = await generateLargeRepo(join(root, 'large'), { fillerBytes: fillerMb * MB, bigBytes: 10 * MB })
  console.log(`generated a ${(large.packBytes / MB).toFixed(0)} MB pack in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  const dataDir = tempDir('large-repo-data')
  const collab = await startCollab(dataDir, tempDir('large-repo-config'), ['--no-runner'])
  const pid = collab.proc.pid!
  const push = async (name: string, repo: LargeRepo) => {
    const res = await fetch(`${collab.url}/api/v4/projects`, {
      method: 'POST', headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ name, visibility: 'public' }),
    })
    const project = (await res.json()) as { id: number; path_with_namespace: string; http_url_to_repo: string }
    await run('git', ['--git-dir', repo.dir, 'push', '-q', project.http_url_to_repo.replace('://', `://root:${TOKEN}@`), 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    await housekeepingDone(dataDir, project.id).catch(() => {})
    return project
  }
  try {
    // The same reads on a small repository first: code and caches are loaded before the large one is measured.
    const warm = await push('warm', small)
    await runReadSteps(collab.url, TOKEN, readSteps(warm.id, warm.path_with_namespace, small))
    const tp = Date.now()
    const project = await push('large', large)
    console.log(`pushed it over HTTP in ${((Date.now() - tp) / 1000).toFixed(1)} s`)
    const steps = readSteps(project.id, project.path_with_namespace, large)
    const before = residentBytes(pid)
    for (let i = 0; i < 5; i++) await runReadSteps(collab.url, TOKEN, steps)
    const after = residentBytes(pid)
    console.log(row(['collab serve RSS (MB)', 'before reads', 'after 5x reads', 'growth (target <= 64)']))
    console.log(row([`${steps.length} reads x5, ${(large.packBytes / MB).toFixed(0)} MB pack`, (before / MB).toFixed(1), (after / MB).toFixed(1), ((after - before) / MB).toFixed(1)]))

    const gitdir = join(dataDir, 'repositories', `${project.id}.git`)
    const ours = await timeMs(() => fetch(`${collab.url}/api/v4/projects/${project.id}/repository/files/README.md/raw?ref=master`, { headers: { 'private-token': TOKEN } }).then((r) => r.text()))
    const theirs = await wallTimeMs('git', ['--git-dir', gitdir, 'cat-file', '-p', 'master:README.md'], {})
    console.log(row(['small file read (median ms)', 'collab', 'git cat-file -p', 'ratio (target <= 2)']))
    console.log(row(['GET files/README.md/raw', ours.toFixed(2), theirs.toFixed(2), (ours / theirs).toFixed(2)]))
  } finally {
    await collab.stop()
  }
}
