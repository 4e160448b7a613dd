// looseCommitParents against objects the real git CLI wrote: loose commits answer their parents, anything else null.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { looseCommitParents } from '../../../src/server/git/loose-commit.js'

const root = mkdtempSync(join(tmpdir(), 'collab-loose-'))
const gitdir = join(root, 'r.git')
const env = { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' }
const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitdir, ...args], { env, encoding: 'utf8' }).trim()
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('looseCommitParents', () => {
  execFileSync('git', ['init', '-q', '--bare', gitdir])
  const tree = git('hash-object', '-t', 'tree', '-w', '--stdin')
  const first = git('commit-tree', '-m', 'first', tree)
  const second = git('commit-tree', '-p', first, '-m', 'second', tree)
  // A message that compresses to more than the bytes read (random hex): the header before it is still read whole.
  const long = execFileSync('git', ['--git-dir', gitdir, 'commit-tree', '-p', first, '-p', second, '-F', '-', tree], { env, input: randomBytes(20_000).toString('hex') + '\n', encoding: 'utf8' }).trim()
  const tag = execFileSync('git', ['--git-dir', gitdir, 'mktag'], { env, input: `object ${second}\ntype commit\ntag t\ntagger A <a@example.com> 0 +0000\n\nmessage\n`, encoding: 'utf8' }).trim()

  it('reads the parents of loose commits, none for a root', async () => {
    expect(await looseCommitParents(gitdir, first)).toEqual([])
    expect(await looseCommitParents(gitdir, second)).toEqual([first])
    expect(statSync(join(gitdir, 'objects', long.slice(0, 2), long.slice(2))).size).toBeGreaterThan(8192)
    expect(await looseCommitParents(gitdir, long)).toEqual([first, second])
  })

  it('answers null for a tree, a tag, a missing id, a short id and a packed commit', async () => {
    expect(await looseCommitParents(gitdir, tree)).toBeNull()
    expect(await looseCommitParents(gitdir, tag)).toBeNull()
    expect(await looseCommitParents(gitdir, '0123456789abcdef0123456789abcdef01234567')).toBeNull()
    expect(await looseCommitParents(gitdir, second.slice(0, 12))).toBeNull()
    git('update-ref', 'refs/heads/main', second)
    git('repack', '-adq')
    git('prune-packed')
    expect(await looseCommitParents(gitdir, second)).toBeNull()
  })
})
