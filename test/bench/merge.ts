// Merge benchmark (issue 24): merging a merge request whose source changes 400 files that the target changed too,
// through the whole server (PUT …/merge) and through the engine alone, against the fastest way the git command line
// makes the same merge in a bare repository: `git merge-tree --write-tree` + `git commit-tree` + `git update-ref`, as
// processes. Target: the merge request's merge within 2x of that.
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { setGitAvailable } from '../../src/server/git/exec.js'
import { checkMerge, mergeBranches } from '../../src/server/git/merge/merge.js'
import { cpuMs, median, row, startSourceServer, tempDir, TOKEN } from './lib.js'

const run = promisify(execFile)
const FILES = 1000
const CHANGED = 400
const LINES = 64
const HISTORY = 500
/** Merges timed of each kind: one feature branch each, all from the same base, merged one after another. */
const RUNS = 15
const USER = { name: 'Bench', email: 'bench@example.com', timestamp: 1_700_100_000, timezoneOffset: 0 }

const body = (f: number, edits: Record<number, string> = {}) => Array.from({ length: LINES }, (_, l) => edits[l] ?? `export const f${f}_${l} = ${l}`).join('\n') + '\n'
const path = (f: number) => `src/dir${f % 20}/file${f}.ts`
const feature = (i: number) => `feature-${i}`

/**
 * master: HISTORY commits over FILES files, then 40 files changed (20 of them the features' files too, on line 0).
 * feature-i, from master's base: line 4i+2 of files 0..399 changed, so every feature merges cleanly after the others,
 * each a three-way merge of 400 files changed on both sides.
 */
export function generateMergeRepository(root: string) {
  const dir = join(root, 'merge.git')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'master', dir])
  const out: string[] = []
  let mark = 0
  const emit = (ref: string, msg: string, files: [number, string][], from: number | null, when: number) => {
    mark++
    out.push(`commit ${ref}\nmark :${mark}\nauthor Bench <bench@example.com> ${when} +0000\ncommitter Bench <bench@example.com> ${when} +0000\ndata ${msg.length}\n${msg}\n`)
    if (from) out.push(`from :${from}\n`)
    for (const [f, data] of files) out.push(`M 100644 inline ${path(f)}\ndata ${Buffer.byteLength(data)}\n${data}\n`)
    out.push('\n')
    return mark
  }
  const t0 = 1_700_000_000
  let tip = emit('refs/heads/master', 'import', Array.from({ length: FILES }, (_, f) => [f, body(f)]), null, t0)
  for (let i = 1; i < HISTORY; i++) {
    const f = (i * 7) % FILES
    tip = emit('refs/heads/master', `change ${i}`, [[f, body(f, { [LINES - 1]: `export const touched${i} = ${i}` })]], tip, t0 + i * 60)
  }
  const base = tip
  for (let i = 0; i <= RUNS; i++) {
    const files: [number, string][] = Array.from({ length: CHANGED }, (_, f) => [f, body(f, { [4 * i + 2]: `export const feature${i}_${f} = 1` })])
    emit(`refs/heads/${feature(i)}`, `change ${CHANGED} files (${i})`, files, base, t0 + HISTORY * 60 + i)
  }
  const target: [number, string][] = Array.from({ length: 20 }, (_, f) => [f, body(f, { 0: `export const target${f} = 1` })])
  for (let f = 900; f < 920; f++) target.push([f, body(f, { 2: `export const target${f} = 1` })])
  emit('refs/heads/master', 'change 40 files', target, base, t0 + HISTORY * 60 + 60)
  execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: out.join(''), maxBuffer: 1 << 30 })
  execFileSync('git', ['--git-dir', dir, 'repack', '-adq'])
  return dir
}

const copy = (from: string, to: string) => {
  execFileSync('cp', ['-r', from, to])
  return to
}

async function timed(fn: () => Promise<unknown>) {
  const t = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - t) / 1e6
}

/**
 * The baseline: git's plumbing merging feature-i into master and moving master by compare-and-swap, three processes
 * (master's head is known from the previous merge, as the server knows it from its check). Returns the new head.
 */
async function gitPlumbingMerge(gitdir: string, master: string, i: number) {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x' }
  const git = async (...args: string[]) => (await run('git', ['--git-dir', gitdir, ...args], { env })).stdout.trim()
  const tree = await git('merge-tree', '--write-tree', master, `refs/heads/${feature(i)}`)
  const commit = await git('commit-tree', tree, '-p', master, '-p', `refs/heads/${feature(i)}`, '-m', `Merge ${feature(i)}`)
  await git('update-ref', 'refs/heads/master', commit, master)
  return commit
}

/** Each feature merged by the engine alone, in a copy of the repository; `available` false is the in-process engine. */
async function engineMerges(gitdir: string, available: boolean | null, runs: number) {
  setGitAvailable(available)
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    // Untimed, as the baseline's: the merge request's check, which writes the merge's objects first.
    await checkMerge(gitdir, { sourceBranch: feature(i), targetBranch: 'master' })
    times.push(await timed(() => mergeBranches(gitdir, { sourceBranch: feature(i), targetBranch: 'master', method: 'merge', message: 'Merge', user: USER })))
  }
  const dry = await Promise.all([0, 1, 2, 3, 4].map(() => timed(() => checkMerge(gitdir, { sourceBranch: feature(RUNS), targetBranch: 'master' }))))
  setGitAvailable(null)
  return { merge: median(times.slice(1)), dry: median(dry) }
}

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, { method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

/** Each feature opened as a merge request and merged with PUT …/merge; only the merge is timed, one merge request open at a time. */
async function serverMerges(bare: string) {
  const dataDir = tempDir('merge-data')
  const collab = await startSourceServer(dataDir)
  try {
    const api = `${collab.url}/api/v4`
    const project = await call(`${api}/projects`, 'POST', { name: 'bench-merge' })
    const pushUrl = project.http_url_to_repo.replace('://', `://root:${TOKEN}@`)
    await run('git', ['--git-dir', bare, 'push', '-q', pushUrl, 'refs/heads/*:refs/heads/*'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
    const times: number[] = []
    let cpu = 0
    for (let i = 0; i < RUNS; i++) {
      const mr = await call(`${api}/projects/${project.id}/merge_requests`, 'POST', { source_branch: feature(i), target_branch: 'master', title: feature(i) })
      // What the merge request's creation started in the background (its pipeline, events) is over before the merge.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const cpuBefore = cpuMs(collab.proc.pid!, true)
      const at = process.hrtime.bigint()
      const merged = await call(`${api}/projects/${project.id}/merge_requests/${mr.iid}/merge`, 'PUT', {})
      times.push(Number(process.hrtime.bigint() - at) / 1e6)
      if (merged.state !== 'merged') throw new Error(`${feature(i)} was not merged: ${merged.state}`)
      // The CPU a merge costs includes what it started in the background (events, hooks) and its git processes.
      await new Promise((resolve) => setTimeout(resolve, 200))
      if (i) cpu += cpuMs(collab.proc.pid!, true) - cpuBefore
    }
    return { ms: median(times.slice(1)), cpu: cpu / (RUNS - 1) }
  } finally {
    await collab.stop()
    execFileSync('rm', ['-rf', dataDir])
  }
}

export async function mergeBench() {
  const root = tempDir('merge')
  const generated = generateMergeRepository(root)
  try {
    const plumbing = copy(generated, join(root, 'plumbing.git'))
    const baseTimes: number[] = []
    let master = execFileSync('git', ['--git-dir', plumbing, 'rev-parse', 'refs/heads/master']).toString().trim()
    // The git processes are this process's only children meanwhile: their CPU is what the plumbing costs.
    const childCpu = () => cpuMs('self', true) - cpuMs('self')
    let baseCpu = 0
    for (let i = 0; i < RUNS; i++) {
      // Untimed, as a merge request's creation checks it on the server (and on GitLab): the merge's objects exist.
      await run('git', ['--git-dir', plumbing, 'merge-tree', '--write-tree', master, `refs/heads/${feature(i)}`])
      const before = childCpu()
      baseTimes.push(await timed(async () => (master = await gitPlumbingMerge(plumbing, master, i))))
      baseCpu += (childCpu() - before) / RUNS
    }
    const base = median(baseTimes.slice(1))
    const mr = await serverMerges(generated)
    const cli = await engineMerges(copy(generated, join(root, 'engine.git')), null, RUNS)
    const inProcess = await engineMerges(copy(generated, join(root, 'in-process.git')), false, 4)
    console.log(`${FILES} files, ${HISTORY} commits; each source changes ${CHANGED} files, which earlier merges changed too; the target 40 more`)
    console.log(row(['operation (median ms)', 'collab', 'git plumbing', 'ratio']))
    console.log(row(['PUT merge_requests/:iid/merge (whole server)', mr.ms.toFixed(1), base.toFixed(1), `${(mr.ms / base).toFixed(2)} (<= 2)`]))
    console.log(row(['  CPU per merge, server and its git (ms)', mr.cpu.toFixed(1), baseCpu.toFixed(1), (mr.cpu / baseCpu).toFixed(2)]))
    console.log(row(['merge, engine on git merge-tree', cli.merge.toFixed(1), base.toFixed(1), (cli.merge / base).toFixed(2)]))
    console.log(row(['merge, engine in-process (no git)', inProcess.merge.toFixed(1), base.toFixed(1), (inProcess.merge / base).toFixed(2)]))
    console.log(row(['dry run (can it be merged), git merge-tree', cli.dry.toFixed(1), base.toFixed(1), (cli.dry / base).toFixed(2)]))
    console.log(row(['dry run (can it be merged), in-process', inProcess.dry.toFixed(1), base.toFixed(1), (inProcess.dry / base).toFixed(2)]))
  } finally {
    execFileSync('rm', ['-rf', root])
  }
}
