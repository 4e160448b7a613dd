// The git layer of search: grep chunks stop at the bound asked for, commit ids by message, in a real bare repository.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { grepBlobs, grepCommitIds } from '../../src/server/git/search.js'

let dir: string
let gitdir: string
let head: string
const git = (args: string[], input?: string) => execFileSync('git', ['--git-dir', gitdir, ...args], { input, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' } }).trim()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-search-git-'))
  gitdir = join(dir, 'r.git')
  execFileSync('git', ['init', '-q', '--bare', gitdir])
  // 50 files, each with a match on every tenth line of 100: 500 chunks in all.
  const entries = Array.from({ length: 50 }, (_, i) => {
    const text = Array.from({ length: 100 }, (_, l) => (l % 10 === 0 ? `needle ${l}` : `hay ${l}`)).join('\n') + '\n'
    return `100644 blob ${git(['hash-object', '-w', '--stdin'], text)}\tf${String(i).padStart(2, '0')}.txt`
  })
  const tree = git(['mktree'], entries.join('\n') + '\n')
  const first = git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit-tree', tree, '-m', 'first NEEDLE'])
  head = git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit-tree', tree, '-p', first, '-m', 'second'])
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('grepBlobs', () => {
  it('answers chunks of a match with two lines of context, in path order', async () => {
    const chunks = await grepBlobs(gitdir, head, 'NEEDLE 10', 5)
    expect(chunks[0]).toEqual({ path: 'f00.txt', startline: 9, data: 'hay 8\nhay 9\nneedle 10\nhay 11\nhay 12\n' })
    expect(chunks.map((c) => c.path)).toEqual(['f00.txt', 'f01.txt', 'f02.txt', 'f03.txt', 'f04.txt'])
  })

  it('stops at the bound', async () => {
    expect(await grepBlobs(gitdir, head, 'needle', 1000)).toHaveLength(500)
    expect(await grepBlobs(gitdir, head, 'needle', 7)).toHaveLength(7)
  })

  it('answers every one of a burst of searches, two running at a time', async () => {
    const counts = await Promise.all(Array.from({ length: 6 }, (_, i) => grepBlobs(gitdir, head, `needle ${i * 10}`, 1000).then((c) => c.length)))
    expect(counts).toEqual([50, 50, 50, 50, 50, 50])
  })

  it('finds nothing for text that is not there', async () => {
    expect(await grepBlobs(gitdir, head, 'nowhere', 10)).toEqual([])
  })
})

describe('grepCommitIds', () => {
  it('finds commits by message, case-insensitively and literally', async () => {
    const first = git(['rev-parse', `${head}^`])
    expect(await grepCommitIds(gitdir, head, 'needle', 10)).toEqual([first])
    expect(await grepCommitIds(gitdir, head, '.*', 10)).toEqual([])
  })
})
