// The merge engine against `git merge --no-ff` in a scratch clone: a source branch changing 400 files, 20 of them also changed on the target.
import { execFile, execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { setGitAvailable } from '../../src/server/git/exec.js'
import { checkMerge, mergeBranches } from '../../src/server/git/merge/merge.js'
import { median, row, tempDir } from './lib.js'

const run = promisify(execFile)
const FILES = 1000
const CHANGED = 400
const HISTORY = 500
const RUNS = 15
const USER = { name: 'Bench', email: 'bench@example.com', timestamp: 1_700_100_000, timezoneOffset: 0 }

const body = (f: number, edits: Record<number, string> = {}) => Array.from({ length: 30 }, (_, l) => edits[l] ?? `export const f${f}_${l} = ${l}`).join('\n') + '\n'
const path = (f: number) => `src/dir${f % 20}/file${f}.ts`

/** master: HISTORY commits over FILES files, then 40 files changed (20 of them the source's too, on another line); feature: CHANGED files changed. */
function generate(root: string) {
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
    tip = emit('refs/heads/master', `change ${i}`, [[f, body(f, { 29: `export const touched${i} = ${i}` })]], tip, t0 + i * 60)
  }
  const base = tip
  // The source edits line 5 of files 0..399; the target edits line 25 of files 0..19 and line 5 of files 900..919.
  emit('refs/heads/feature', 'change 400 files', Array.from({ length: CHANGED }, (_, f) => [f, body(f, { 5: `export const feature${f} = 1` })]), base, t0 + HISTORY * 60)
  const target: [number, string][] = Array.from({ length: 20 }, (_, f) => [f, body(f, { 25: `export const target${f} = 1` })])
  for (let f = 900; f < 920; f++) target.push([f, body(f, { 5: `export const target${f} = 1` })])
  emit('refs/heads/master', 'change 40 files', target, base, t0 + HISTORY * 60 + 60)
  execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: out.join(''), maxBuffer: 1 << 30 })
  execFileSync('git', ['--git-dir', dir, 'repack', '-adq'])
  return dir
}

async function timeMs(fn: () => Promise<unknown>, reset: () => Promise<unknown>) {
  const times: number[] = []
  for (let i = 0; i <= RUNS; i++) {
    await reset()
    const t = process.hrtime.bigint()
    await fn()
    if (i) times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  return median(times)
}

export async function mergeBench() {
  const root = tempDir('merge')
  const bare = generate(root)
  const master = execFileSync('git', ['--git-dir', bare, 'rev-parse', 'master']).toString().trim()
  const work = join(root, 'work')
  execFileSync('git', ['clone', '-q', bare, work])
  const git = (...args: string[]) => run('git', ['-C', work, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x' } })
  const sides = { sourceBranch: 'feature', targetBranch: 'master' }
  const resetTarget = () => run('git', ['--git-dir', bare, 'update-ref', 'refs/heads/master', master])
  const engine = async (available: boolean | null) => {
    setGitAvailable(available)
    const merge = await timeMs(() => mergeBranches(bare, { ...sides, method: 'merge', message: 'Merge', user: USER }), resetTarget)
    const dry = await timeMs(() => checkMerge(bare, sides), resetTarget)
    setGitAvailable(null)
    return { merge, dry }
  }
  const cli = await engine(null)
  const inProcess = await engine(false)
  const gitMerge = await timeMs(() => git('merge', '--no-ff', '-q', '-m', 'Merge', 'origin/feature'), () => git('reset', '-q', '--hard', master))
  console.log(`${FILES} files, ${HISTORY} commits; the source changes ${CHANGED} files, the target 40 (20 of them the same files)`)
  console.log(row(['operation (median ms)', 'collab', 'git merge', 'ratio']))
  console.log(row(['merge, engine on git merge-tree', cli.merge.toFixed(1), gitMerge.toFixed(1), `${(cli.merge / gitMerge).toFixed(2)} (<= 2)`]))
  console.log(row(['merge, engine in-process (no git)', inProcess.merge.toFixed(1), gitMerge.toFixed(1), (inProcess.merge / gitMerge).toFixed(2)]))
  console.log(row(['dry run (can it be merged), git merge-tree', cli.dry.toFixed(1), gitMerge.toFixed(1), (cli.dry / gitMerge).toFixed(2)]))
  console.log(row(['dry run (can it be merged), in-process', inProcess.dry.toFixed(1), gitMerge.toFixed(1), (inProcess.dry / gitMerge).toFixed(2)]))
  execFileSync('rm', ['-rf', root])
}
