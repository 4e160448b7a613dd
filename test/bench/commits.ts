// Commit list benchmark (issue 24): page 1 of GET /repository/commits on a generated 20,000-commit repository, with
// and without filters, against `git log -n 20` as a process (target: page 1 within 2x). The response cache is off, so
// every request is answered afresh. Uncached first pages are timed as they happen in use: right after a push (a new
// head, so no page of it is known yet) and as the first request of a server just started. A page also counts its
// history up to 10,001 commits for X-Total (a second git beside its git log): the whole history passes that cap, a
// directory's 1,000 commits do not, so that first page is timed too, beside git log and git rev-list --count run
// the same way (side by side): for src/dir3, listed at the head before each push (its count is derived from that
// one and the new page), and for a directory never listed before (counted by rev-list).
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { housekeepingDone, timeMs } from './diff-pages.js'
import { generateRepo } from './gen-repo.js'
import { median, row, startSourceServer, tempDir, TOKEN, type Child } from './lib.js'

const run = promisify(execFile)
const FIRSTS = 7

export async function commitsBench() {
  const root = tempDir('commits')
  // 20,000 commits over 400 files, by git fast-import in a few seconds.
  const repo = generateRepo(root, 20_000, 400)
  const dataDir = tempDir('data')
  let collab: Child = await startSourceServer(dataDir)
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const get = async (path: string) => {
    const res = await fetch(`${collab.url}/api/v4${path}`, { headers })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.text()
  }
  // What the bench's rows count: X-Total, or that the count passed 10,000 and it was left out.
  const totalOf = async (path: string) => {
    const res = await fetch(`${collab.url}/api/v4${path}`, { headers })
    await res.text()
    const total = res.headers.get('x-total')
    return total === null ? 'no X-Total' : `X-Total ${total}`
  }
  const timed = async (fn: () => Promise<unknown>) => {
    const t = process.hrtime.bigint()
    await fn()
    return Number(process.hrtime.bigint() - t) / 1e6
  }
  try {
    const created = await fetch(`${collab.url}/api/v4/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench-commits' }) })
    const project = (await created.json()) as { id: number; http_url_to_repo: string }
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`)
    const push = () => run('git', ['--git-dir', repo.dir, 'push', '-q', pushUrl, 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    await push()
    await housekeepingDone(dataDir, project.id)
    await settled(collab)
    const gitdir = join(dataDir, 'repositories', `${project.id}.git`)
    const git = (...args: string[]) => () => run('git', ['--git-dir', gitdir, ...args], { maxBuffer: 1 << 28 })
    const list = `/projects/${project.id}/repository/commits`
    const t = process.hrtime.bigint()
    await get(`${list}?per_page=20`)
    const first = Number(process.hrtime.bigint() - t) / 1e6
    const cases: [string, string, string[]][] = [
      ['GET commits?per_page=20 (page 1)', `${list}?per_page=20`, ['log', '-n', '20', 'master']],
      ['GET commits?per_page=20&page=500', `${list}?per_page=20&page=500`, ['log', '-n', '20', '--skip=9980', 'master']],
      ['GET commits?path=src/dir3 (page 1)', `${list}?per_page=20&path=src/dir3`, ['log', '-n', '20', 'master', '--', 'src/dir3']],
      ['GET commits?since=… (page 1)', `${list}?per_page=20&since=2023-11-15T00:00:00Z`, ['log', '-n', '20', '--since=2023-11-15T00:00:00Z', 'master']],
      ['GET commits?first_parent=true (page 1)', `${list}?per_page=20&first_parent=true`, ['log', '-n', '20', '--first-parent', 'master']],
      ['GET commits?order=topo (page 1)', `${list}?per_page=20&order=topo`, ['log', '-n', '20', '--topo-order', 'master']],
    ]
    console.log(row(['operation (median ms)', 'collab', 'git log', 'ratio']))
    const base = await timeMs(git('log', '-n', '20', 'master'))
    console.log(row(['first request after the first push', first.toFixed(1), base.toFixed(1), (first / base).toFixed(2)]))

    // A new head after each push: its first page is read from git, as the first reader after a push sees it. The
    // server's housekeeping of the push (commit-graph, gc --auto) is let finish first, as between pushes in use.
    const afterPush: number[] = []
    const afterPushGit: number[] = []
    const afterPushBoth: number[] = []
    const dir = `${list}?per_page=20&path=src/dir3`
    const afterPushDir: number[] = []
    const afterPushDirLog: number[] = []
    const afterPushDirBoth: number[] = []
    const afterPushNew: number[] = []
    const afterPushNewLog: number[] = []
    const afterPushNewBoth: number[] = []
    const unlisted = (i: number) => `src/dir${4 + i}`
    const both = (...commands: string[][]) => () => Promise.all(commands.map((args) => git(...args)()))
    const chain = join(gitdir, 'objects', 'info', 'commit-graphs', 'commit-graph-chain')
    const readChain = () => { try { return readFileSync(chain, 'utf8') } catch { return '' } }
    for (let i = 0; i < FIRSTS; i++) {
      const env = { ...process.env, GIT_AUTHOR_DATE: `@${1_800_000_000 + i} +0000`, GIT_COMMITTER_DATE: `@${1_800_000_000 + i} +0000`, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' }
      const head = execFileSync('git', ['--git-dir', repo.dir, 'commit-tree', '-p', 'master', '-m', `pushed ${i}`, 'master^{tree}'], { env }).toString().trim()
      execFileSync('git', ['--git-dir', repo.dir, 'update-ref', 'refs/heads/master', head])
      const before = readChain()
      await push()
      for (let polls = 0; readChain() === before && polls < 400; polls++) await new Promise((resolve) => setTimeout(resolve, 25))
      await settled(collab)
      afterPush.push(await timed(() => get(`${list}?per_page=20`)))
      afterPushGit.push(await timed(git('log', '-n', '20', 'master')))
      afterPushBoth.push(await timed(both(['log', '-n', '20', 'master'], ['rev-list', '--count', '--max-count=10001', 'master'])))
      afterPushDir.push(await timed(() => get(dir)))
      afterPushDirLog.push(await timed(git('log', '-n', '20', 'master', '--', 'src/dir3')))
      afterPushDirBoth.push(await timed(both(['log', '-n', '20', 'master', '--', 'src/dir3'], ['rev-list', '--count', 'master', '--', 'src/dir3'])))
      afterPushNew.push(await timed(() => get(`${list}?per_page=20&path=${unlisted(i)}`)))
      afterPushNewLog.push(await timed(git('log', '-n', '20', 'master', '--', unlisted(i))))
      afterPushNewBoth.push(await timed(both(['log', '-n', '20', 'master', '--', unlisted(i)], ['rev-list', '--count', 'master', '--', unlisted(i)])))
    }
    const [a0, b0, c0] = [median(afterPush), median(afterPushGit), median(afterPushBoth)]
    console.log(row([`page 1 after a push (x${FIRSTS}, ${await totalOf(`${list}?per_page=20`)})`, a0.toFixed(1), b0.toFixed(1), `${(a0 / b0).toFixed(2)} (<= 2)`]))
    console.log(row(['  vs git log ∥ rev-list --count (cap 10001)', '', c0.toFixed(1), (a0 / c0).toFixed(2)]))
    const [d0, e0, f0] = [median(afterPushDir), median(afterPushDirLog), median(afterPushDirBoth)]
    console.log(row([`path=src/dir3 p.1 after a push (${await totalOf(dir)})`, d0.toFixed(1), e0.toFixed(1), (d0 / e0).toFixed(2)]))
    console.log(row(['  vs git log ∥ rev-list --count -- src/dir3', '', f0.toFixed(1), (d0 / f0).toFixed(2)]))
    const [g0, h0, i0] = [median(afterPushNew), median(afterPushNewLog), median(afterPushNewBoth)]
    console.log(row([`path=src/dir4…10, never listed (${await totalOf(`${list}?per_page=20&path=${unlisted(0)}`)})`, g0.toFixed(1), h0.toFixed(1), (g0 / h0).toFixed(2)]))
    console.log(row(['  vs git log ∥ rev-list --count -- the path', '', i0.toFixed(1), (g0 / i0).toFixed(2)]))

    // Pages read once each, as a client walking the list does: git runs for every one (read again, a page is kept).
    const once: number[] = []
    const onceGit: number[] = []
    for (let n = 2; n <= 16; n++) {
      once.push(await timed(() => get(`${list}?per_page=20&page=${n}`)))
      onceGit.push(await timed(git('log', '-n', '20', `--skip=${(n - 1) * 20}`, 'master')))
    }
    const [a1, b1] = [median(once), median(onceGit)]
    console.log(row(['GET commits pages 2-16, each read once', a1.toFixed(1), b1.toFixed(1), `${(a1 / b1).toFixed(2)} (<= 2)`]))
    for (const [label, path, args] of cases) {
      const a = await timeMs(() => get(path))
      const b = await timeMs(git(...args))
      console.log(row([`${label} again`, a.toFixed(1), b.toFixed(1), (a / b).toFixed(2)]))
    }

    // The first request a server answers at all: its code and the repository's files are read for the first time.
    // Beside it, the same for GET /projects/:id, which runs no git: what any first request costs.
    const fresh: number[] = []
    const freshGit: number[] = []
    const freshProject: number[] = []
    for (let i = 0; i < FIRSTS; i++) {
      for (const path of [`${list}?per_page=20`, `/projects/${project.id}`]) {
        await collab.stop()
        collab = await startSourceServer(dataDir)
        const ms = await timed(() => get(path))
        if (path === `/projects/${project.id}`) freshProject.push(ms)
        else {
          fresh.push(ms)
          freshGit.push(await timed(git('log', '-n', '20', 'master')))
        }
      }
    }
    const [a2, b2] = [median(fresh), median(freshGit)]
    console.log(row([`page 1, first request of a fresh server (x${FIRSTS})`, a2.toFixed(1), b2.toFixed(1), (a2 / b2).toFixed(2)]))
    console.log(row(['  the same for GET /projects/:id (no git)', median(freshProject).toFixed(1), '', '']))
  } finally {
    await collab.stop()
    execFileSync('rm', ['-rf', root, dataDir])
  }
}

/** Git commands the server runs, but for its long-lived cat-file readers. */
function gitChildren(server: Child): string[] {
  try {
    return execFileSync('ps', ['--ppid', String(server.proc.pid), '-o', 'args=']).toString().split('\n').filter((a) => a.includes('git') && !a.includes('cat-file'))
  } catch {
    return [] // ps exits 1 when the process has no children
  }
}

/** Waits (bounded) until what a push set off in the server (housekeeping, push events) has run its git commands. */
async function settled(server: Child) {
  for (let quiet = 0, polls = 0; quiet < 4 && polls < 500; polls++) {
    quiet = gitChildren(server).length ? 0 : quiet + 1
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
