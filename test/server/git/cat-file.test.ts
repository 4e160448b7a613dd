// The pool of `git cat-file --batch-command` processes on a real repository: what it answers, what it never writes to
// git, and that its processes restart after a crash and end when closed.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { blobStream, catFile, catFileProcesses, closeCatFiles, forgetObjects, GitBusy } from '../../../src/server/git/cat-file.js'
import { GitOutputTooLarge } from '../../../src/server/git/exec.js'
import { processTable } from '../../helpers/processes.js'

let root: string
let gitdir: string
let blob: string
let commit: string
const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', gitdir, ...args], { input, encoding: 'utf8' }).trim()

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'collab-cat-file-'))
  gitdir = join(root, 'repo.git')
  execFileSync('git', ['init', '-q', '--bare', gitdir])
  blob = git(['hash-object', '-w', '--stdin'], 'hello\n')
  const tree = git(['mktree'], `100644 blob ${blob}\thello.txt\n`)
  commit = git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit-tree', tree, '-m', 'one'])
  git(['update-ref', 'refs/heads/master', commit])
})

afterAll(async () => {
  await closeCatFiles(root)
  rmSync(root, { recursive: true, force: true })
})

/** Live `git cat-file` processes reading this test's repository. */
const live = () => [...processTable().values()].filter(([, argv]) => argv.includes('cat-file') && argv.includes(gitdir)).length

it('answers info and contents by full or short id, null for a missing one, and never passes a revision expression to git', async () => {
  const objects = catFile(gitdir)
  expect(await objects.info(blob)).toEqual({ oid: blob, type: 'blob', size: 6 })
  expect(await objects.info(blob.slice(0, 7))).toEqual({ oid: blob, type: 'blob', size: 6 })
  expect((await objects.read(blob))?.content.toString()).toBe('hello\n')
  expect((await objects.read(commit))?.type).toBe('commit')
  expect(await objects.read('0'.repeat(40))).toBeNull()
  // Each would name an object to git (a path in a commit, a message search, a second command): none reaches it.
  for (const name of [`${commit}:hello.txt`, 'master', ':/one', `${blob}\ncontents ${commit}`, 'HEAD', '']) {
    expect(await objects.info(name)).toBeNull()
    expect(await objects.read(name)).toBeNull()
  }
  expect(catFileProcesses(gitdir)).toBeGreaterThanOrEqual(1)
  expect(catFileProcesses(gitdir)).toBeLessThanOrEqual(2)
})

it('refuses an object past the caller\'s limit without holding it, and keeps answering after it', async () => {
  const big = git(['hash-object', '-w', '--stdin'], 'x'.repeat(100_000))
  await expect(catFile(gitdir).read(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(GitOutputTooLarge)
  expect((await catFile(gitdir).read(blob))?.size).toBe(6)
})

it('answers many reads at once through at most two processes', async () => {
  forgetObjects(gitdir)
  const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => catFile(gitdir).info(i % 2 ? blob : commit)))
  expect(answers.filter((a) => a?.type === 'blob')).toHaveLength(150)
  expect(catFileProcesses(gitdir)).toBeLessThanOrEqual(2)
})

it('answers 503 past its queue (two processes, 64 reads written ahead to each, 1,024 waiting), never holding more', async () => {
  forgetObjects(gitdir)
  const settled = await Promise.allSettled(Array.from({ length: 1300 }, () => catFile(gitdir).info(blob)))
  const refused = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason)
  expect(refused).toHaveLength(1300 - 2 * 64 - 1024)
  expect(refused[0]).toBeInstanceOf(GitBusy)
  expect([refused[0].status, refused[0].body, refused[0].headers]).toEqual([503, { message: 'Upstream Gitaly has been exhausted. Try again later' }, { 'Retry-After': '50' }])
  expect(settled.filter((s) => s.status === 'fulfilled' && s.value?.oid === blob)).toHaveLength(2 * 64 + 1024)
})

it('starts a new process when one dies, and ends them all when closed', async () => {
  await catFile(gitdir).info(commit)
  const fresh = git(['hash-object', '-w', '--stdin'], 'fresh\n')
  for (const [pid, [, argv]] of processTable()) if (argv.includes('cat-file') && argv.includes(gitdir)) process.kill(pid, 'SIGKILL')
  // A read sent to a process that dies under it is asked again of a new one.
  expect((await catFile(gitdir).read(fresh))?.content.toString()).toBe('fresh\n')
  await closeCatFiles(root)
  expect(catFileProcesses(gitdir)).toBe(0)
  expect(live()).toBe(0)
})

it('streams a blob by full id and refuses anything else', async () => {
  const chunks: Buffer[] = []
  for await (const c of blobStream(gitdir, blob)) chunks.push(c as Buffer)
  expect(Buffer.concat(chunks).toString()).toBe('hello\n')
  expect(() => blobStream(gitdir, 'master')).toThrow()
})
