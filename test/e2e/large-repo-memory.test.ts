// Memory of `collab serve` does not grow with a repository (issue 24): the built server, as a process of its own, reads a
// repository whose pack is larger than the bound (a README, a tree, the commit list, a blame, a large blob raw, as JSON
// and as a page, a zip archive, the languages) several times, and its resident set grows by less than the bound. Its
// `git cat-file` processes stay few and go with it.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { generateLargeRepo, readSteps, residentBytes, runReadSteps, type LargeRepo } from '../helpers/large-repo.js'
import { processTable } from '../helpers/processes.js'

const run = promisify(execFile)
const BIN = new URL('../../bin/collab.js', import.meta.url).pathname
const TOKEN = 'glpat-large-repo-memory-00000000'
const MB = 1024 * 1024
const BOUND = 64 * MB

let root: string
let server: ChildProcess
let url: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'collab-large-repo-'))
  server = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', join(root, 'data'), '--root-token', TOKEN, '--no-runner'], {
    env: { ...process.env, COLLAB_CONFIG_DIR: join(root, 'config'), NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  })
  url = await new Promise<string>((resolve, reject) => {
    let seen = ''
    server.stderr!.on('data', (b: Buffer) => {
      seen += b.toString()
      const m = /serving (http:\/\/\S+)/.exec(seen)
      if (m) resolve(m[1])
    })
    server.once('exit', (code) => reject(new Error(`collab serve exited (${code}):\n${seen}`)))
  })
}, 60_000)

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL')
  rmSync(root, { recursive: true, force: true })
})

async function pushedProject(name: string, repo: LargeRepo) {
  const res = await fetch(`${url}/api/v4/projects`, {
    method: 'POST', headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ name, visibility: 'public' }),
  })
  const project = (await res.json()) as { id: number; path_with_namespace: string; http_url_to_repo: string }
  await run('git', ['--git-dir', repo.dir, 'push', '-q', project.http_url_to_repo.replace('://', `://root:${TOKEN}@`), 'master'], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } })
  return project
}

/** The server's `git cat-file` children, by the repository they read. */
function catFiles(): string[] {
  return [...processTable().entries()].filter(([, [ppid, argv]]) => ppid === server.pid && argv.includes('cat-file')).map(([, [, argv]]) => argv[2])
}

it('reads a repository whose pack is larger than the bound with its resident set growing less than the bound', async () => {
  // A small repository first, read the same way, so the code and caches every read needs are loaded before measuring.
  const small = await generateLargeRepo(join(root, 'small'), { fillerBytes: 0, bigBytes: 2 * MB })
  const warm = await pushedProject('warm', small)
  await runReadSteps(url, TOKEN, readSteps(warm.id, warm.path_with_namespace, small))

  const large = await generateLargeRepo(join(root, 'large'), { fillerBytes: 72 * MB, bigBytes: 6 * MB })
  expect(large.packBytes).toBeGreaterThan(BOUND + 8 * MB)
  const project = await pushedProject('large', large)
  const steps = readSteps(project.id, project.path_with_namespace, large)
  const before = residentBytes(server.pid!)
  for (let i = 0; i < 3; i++) {
    const bytes = await runReadSteps(url, TOKEN, steps)
    expect([bytes['README raw'], bytes['large blob raw']]).toEqual([large.readme.length, large.bigBytes])
    // At most two processes per repository read, however many reads there were.
    expect(catFiles().filter((dir) => dir.endsWith(`${project.id}.git`)).length).toBeLessThanOrEqual(2)
  }
  const growth = residentBytes(server.pid!) - before
  expect(growth, `grew by ${(growth / MB).toFixed(1)} MB with a ${(large.packBytes / MB).toFixed(0)} MB pack`).toBeLessThan(BOUND)

  // Writes read the trees and commits they change through git too: commits through the API, a revert and a cherry-pick.
  const api = (path: string, body: object) => fetch(`${url}/api/v4/projects/${project.id}${path}`, {
    method: 'POST', headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(body),
  })
  const start = (await (await fetch(`${url}/api/v4/projects/${project.id}/repository/branches/master`, { headers: { 'private-token': TOKEN } })).json()) as { commit: { id: string } }
  expect((await api('/repository/branches', { branch: 'pick', ref: start.commit.id })).status).toBe(201)
  const beforeWrites = residentBytes(server.pid!)
  const written: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await api('/repository/commits', { branch: 'master', commit_message: `edit ${i}`, actions: [{ action: 'update', file_path: 'README.md', content: `# large ${i}\n` }] })
    expect(res.status).toBe(201)
    written.push(((await res.json()) as { id: string }).id)
  }
  expect((await api(`/repository/commits/${written[2]}/revert`, { branch: 'master' })).status).toBe(201)
  expect((await api(`/repository/commits/${written[0]}/cherry_pick`, { branch: 'pick' })).status).toBe(201)
  const writeGrowth = residentBytes(server.pid!) - beforeWrites
  expect(writeGrowth, `writes grew it by ${(writeGrowth / MB).toFixed(1)} MB with a ${(large.packBytes / MB).toFixed(0)} MB pack`).toBeLessThan(BOUND)

  // Stopped, the server takes its git processes with it.
  const exited = new Promise((resolve) => server.once('exit', resolve))
  server.kill('SIGTERM')
  await exited
  const left = [...processTable().values()].filter(([, argv]) => argv.includes('cat-file') && argv.some((a) => a.startsWith(root)))
  expect(left).toEqual([])
}, 240_000)
