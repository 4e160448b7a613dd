// CI benchmarks, through `collab serve`'s runner, a separate process running jobs in bubblewrap: a push with a
// one-job `echo` pipeline until the API shows the pipeline `success`, next to gitlab-ci-local running the same file
// on a checkout; how soon a runner picks a new job up; and 50 pipelines pushed at once with a second runner attached
// (all finish, none lost, API reads answered meanwhile, p99 printed).
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { BIN, median, row, ROOT, startCollab, stopper, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)
const GCL_VERSION = '4.73.0'
const RUNS = 5
const CONFIG = 'hello:\n  script:\n    - echo hello\n'

function gitEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return {
    ...env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com',
  }
}

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v4${path}`, {
    method, headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return res.json() as Promise<any>
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped'])

/** Polls the pipeline list of `ref` until a pipeline for `sha` has finished; answers its status. */
async function waitForPipeline(url: string, projectId: number, sha: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const list = await api(url, 'GET', `/projects/${projectId}/pipelines?sha=${sha}`)
    if (list.length && FINISHED.has(list[0].status)) return list[0].status
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error(`pipeline for ${sha} did not finish`)
}

async function commitAndPush(dir: string, env: NodeJS.ProcessEnv, n: number, branch: string): Promise<{ sha: string; ms: number }> {
  writeFileSync(join(dir, 'file.txt'), `change ${n}\n`)
  await run('git', ['-C', dir, 'commit', '-qam', `change ${n}`], { env })
  const { stdout } = await run('git', ['-C', dir, 'rev-parse', 'HEAD'], { env })
  const start = performance.now()
  await run('git', ['-C', dir, 'push', '-q', 'origin', `HEAD:${branch}`], { env })
  return { sha: stdout.trim(), ms: start }
}

/** gitlab-ci-local, installed once into a cache directory beside the benchmarks (it is not a dependency of collab). */
async function gitlabCiLocal(): Promise<string | null> {
  const prefix = join(ROOT, 'test/bench/.tools')
  const bin = join(prefix, 'node_modules/.bin/gitlab-ci-local')
  if (existsSync(bin)) return bin
  mkdirSync(prefix, { recursive: true })
  try {
    await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `gitlab-ci-local@${GCL_VERSION}`], { timeout: 300_000 })
    return existsSync(bin) ? bin : null
  } catch (err) {
    console.log(`  (gitlab-ci-local ${GCL_VERSION} could not be installed: ${(err as Error).message.split('\n')[0]})`)
    return null
  }
}

function timeProcess(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    p.stderr.on('data', (b) => (err += b))
    p.once('error', reject)
    p.once('exit', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`))))
  })
}

async function pushToSuccess(url: string, projectId: number, dir: string, env: NodeJS.ProcessEnv, branch: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i <= RUNS; i++) {
    const { sha, ms } = await commitAndPush(dir, env, i, branch)
    const status = await waitForPipeline(url, projectId, sha)
    if (status !== 'success') throw new Error(`pipeline ended ${status}`)
    if (i > 0) times.push(performance.now() - ms)
  }
  return median(times)
}

async function fiftyAtOnce(url: string, projectId: number, dir: string, env: NodeJS.ProcessEnv, branch: string) {
  // 50 branches, each with its own commit, pushed by 50 concurrent git processes.
  const shas: string[] = []
  for (let i = 0; i < 50; i++) {
    await run('git', ['-C', dir, 'checkout', '-q', '-B', `b${i}`, branch], { env })
    writeFileSync(join(dir, 'file.txt'), `branch ${i}\n`)
    await run('git', ['-C', dir, 'commit', '-qam', `branch ${i}`], { env })
    shas.push((await run('git', ['-C', dir, 'rev-parse', 'HEAD'], { env })).stdout.trim())
  }
  const reads: number[] = []
  let pushing = true
  const reader = (async () => {
    while (pushing) {
      const t = performance.now()
      await api(url, 'GET', `/projects/${projectId}/pipelines?per_page=20`)
      reads.push(performance.now() - t)
    }
  })()
  const start = performance.now()
  await Promise.all(shas.map((_, i) => run('git', ['-C', dir, 'push', '-q', 'origin', `b${i}:b${i}`], { env })))
  const statuses = await Promise.all(shas.map((sha) => waitForPipeline(url, projectId, sha, 300_000)))
  const wall = performance.now() - start
  pushing = false
  await reader
  reads.sort((a, b) => a - b)
  const p = (q: number) => reads[Math.min(reads.length - 1, Math.floor(q * reads.length))]
  const ok = statuses.filter((s) => s === 'success').length
  const all = await api(url, 'GET', `/projects/${projectId}/pipelines?per_page=100&scope=finished`)
  const ours = all.filter((pl: { sha: string }) => shas.includes(pl.sha)).length
  console.log(row(['50 pipelines at once: succeeded, recorded, wall', `${ok}/50`, `${ours}/50`, `${(wall / 1000).toFixed(1)} s`]))
  console.log(row(['  GET pipelines meanwhile: n, p50 ms, p99 ms', reads.length, p(0.5).toFixed(1), p(0.99).toFixed(1)]))
}

/** From POST /pipeline to its job running, as the API shows it: a runner's pickup, median of RUNS. */
async function pickup(url: string, projectId: number, ref: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now()
    const pipeline = await api(url, 'POST', `/projects/${projectId}/pipeline`, { ref })
    for (;;) {
      const [job] = await api(url, 'GET', `/projects/${projectId}/pipelines/${pipeline.id}/jobs`)
      if (job && job.status !== 'pending' && job.status !== 'created') break
      await new Promise((r) => setTimeout(r, 2))
    }
    if (i > 0) times.push(performance.now() - start)
    await waitForPipeline(url, projectId, pipeline.sha)
  }
  return median(times)
}

/** A second `collab runner` process beside the server's own, registered with a token of its own. */
async function secondRunner(url: string, root: string) {
  const { token } = await api(url, 'POST', '/user/runners', { runner_type: 'instance_type', description: 'bench second runner' })
  const config = join(root, 'runner2.json')
  await run(process.execPath, [BIN, 'runner', 'register', '--url', url, '--token', token, '--name', 'second', '--config', config])
  const proc = spawn(process.execPath, [BIN, 'runner', 'run', '--config', config, '--concurrency', '2'], { stdio: 'ignore' })
  return { stop: stopper(proc) }
}

export async function ciBench() {
  const root = tempDir('ci')
  const env = gitEnv(root)
  const server = await startCollab(join(root, 'data'), join(root, 'config'), ['--quiet'])
  try {
    const project = await api(server.url, 'POST', '/projects', { name: 'ci-bench', initialize_with_readme: true })
    const dir = join(root, 'work')
    const remote = server.url.replace('//', `//root:${TOKEN}@`) + `/root/ci-bench.git`
    await run('git', ['clone', '-q', remote, dir], { env })
    writeFileSync(join(dir, '.gitlab-ci.yml'), CONFIG)
    writeFileSync(join(dir, 'file.txt'), 'start\n')
    await run('git', ['-C', dir, 'add', '.'], { env })
    const collabMs = await pushToSuccess(server.url, project.id, dir, env, project.default_branch)

    const gcl = await gitlabCiLocal()
    let line = ['push to pipeline success, ms (vs gitlab-ci-local)', collabMs.toFixed(0)]
    if (gcl) {
      const times: number[] = []
      for (let i = 0; i <= RUNS; i++) {
        const ms = await timeProcess(gcl, ['--no-color', 'hello'], dir, { ...env, CI: '' })
        if (i > 0) times.push(ms)
      }
      const gclMs = median(times)
      line = [...line, gclMs.toFixed(0), (collabMs / gclMs).toFixed(2)]
    } else line = [...line, 'n/a', 'n/a']
    console.log(row(line))
    console.log(row(['  target: faster than gitlab-ci-local, < 1500 ms', collabMs < 1500 ? 'met' : 'NOT met']))
    const pickupMs = await pickup(server.url, project.id, project.default_branch)
    console.log(row(['a job picked up after its creation, ms', pickupMs.toFixed(1), pickupMs <= 50 ? 'met (<= 50)' : 'NOT met (<= 50)']))
    const second = await secondRunner(server.url, root)
    try {
      await fiftyAtOnce(server.url, project.id, dir, env, project.default_branch)
    } finally {
      await second.stop()
    }
  } finally {
    await server.stop()
  }
}
