// The three-way merge of trees and the history questions behind merge_status, on both engines (git merge-tree and in-process).
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { setGitAvailable } from '../../../src/server/git/exec.js'
import { treeOf } from '../../../src/server/git/commit-read.js'
import { mergeCommits, mergeTrees } from '../../../src/server/git/merge/engine.js'
import { commitsBetween, countBetween, divergedCommitsCount, mergeBase, replayOrder } from '../../../src/server/git/merge/history.js'
import { ENGINES } from '../../helpers/repository.js'
import { lines, scratch, type Scratch } from './merge-fixture.js'

const made: Scratch[] = []
async function repo() {
  const s = await scratch()
  made.push(s)
  return s
}
afterAll(() => made.forEach((s) => s.cli.cleanup()))

/** What git itself makes of the same merge: the tree id, or the conflicted paths. */
async function gitsOwn(s: Scratch, ours: string, theirs: string) {
  const r = await s.cli.attempt(s.cli.root, '--git-dir', s.bare, 'merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs)
  const [tree, ...paths] = r.stdout.split('\n')
  return r.exitCode === 0 ? { tree, conflicts: [] } : { tree: null, conflicts: [...new Set(paths)].sort() }
}

describe.each(ENGINES)('merging trees with $engine', ({ available }) => {
  afterEach(() => setGitAvailable(null))
  const engine = () => setGitAvailable(available)

  it('merges changes to different lines, files and modes into the same tree git makes', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': lines(10), 'run.sh': 'echo hi\n', 'dir/keep.txt': 'keep\n', 'moved.txt': lines(6) })
    const src = await s.commit('feature', 'feature', { 'a.txt': lines(10, { 2: 'two' }), 'run.sh': { exec: true, content: 'echo hi\n' }, 'dir/new.txt': 'new\n', 'renamed.txt': lines(6), 'moved.txt': null })
    const tgt = await s.commit('master', 'target', { 'a.txt': lines(10, { 9: 'nine' }), 'run.sh': 'echo hello\n', 'moved.txt': lines(6, { 1: 'one' }) })
    engine()
    const result = await mergeCommits(s.bare, tgt, src)
    expect(result).toEqual(await gitsOwn(s, tgt, src))
    expect(result!.tree).not.toBeNull()
    expect(await s.git('ls-tree', '-r', result!.tree!)).toContain('100755 blob')
    expect(await s.git('show', `${result!.tree}:a.txt`)).toBe(lines(10, { 2: 'two', 9: 'nine' }).trimEnd())
    // The target's edit followed the file the source renamed.
    expect(await s.git('show', `${result!.tree}:renamed.txt`)).toBe(lines(6, { 1: 'one' }).trimEnd())
  })

  it('lists text, add/add, binary, modify/delete and rename/delete conflicts', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': '1\n2\n3\n', 'del.txt': 'x\n', 'ren.txt': 'r\nr\nr\nr\nr\n', 'b.bin': Buffer.from('\0bin'), 'ok.txt': 'ok\n' })
    const src = await s.commit('feature', 'feature', { 'a.txt': '1\nS\n3\n', 'del.txt': 'x\ny\n', 'ren.txt': null, 'ren2.txt': 'r\nr\nr\nr\nr\n', 'b.bin': Buffer.from('\0src'), 'addadd.txt': 'new\n' })
    const tgt = await s.commit('master', 'target', { 'a.txt': '1\nT\n3\n', 'del.txt': null, 'ren.txt': null, 'b.bin': Buffer.from('\0tgt'), 'addadd.txt': 'other\n', 'ok.txt': 'fine\n' })
    engine()
    const expected = { tree: null, conflicts: ['a.txt', 'addadd.txt', 'b.bin', 'del.txt', 'ren2.txt'] }
    expect(await gitsOwn(s, tgt, src)).toEqual(expected)
    expect(await mergeCommits(s.bare, tgt, src)).toEqual(expected)
  })

  it('treats edits of adjacent lines as a conflict and of lines two apart as clean, as git does', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': lines(10) })
    const next = await s.commit('next', 'next', { 'a.txt': lines(10, { 3: 'three' }) })
    await s.cli.run(s.work, 'checkout', '-q', 'master')
    const apart = await s.commit('apart', 'apart', { 'a.txt': lines(10, { 4: 'four' }) })
    const tgt = await s.commit('master', 'target', { 'a.txt': lines(10, { 2: 'two' }) })
    engine()
    expect(await mergeCommits(s.bare, tgt, next)).toEqual({ tree: null, conflicts: ['a.txt'] })
    const clean = await mergeCommits(s.bare, tgt, apart)
    expect(clean).toEqual(await gitsOwn(s, tgt, apart))
    expect(await s.git('show', `${clean!.tree}:a.txt`)).toBe(lines(10, { 2: 'two', 4: 'four' }).trimEnd())
  })

  it('lists add/add with different modes, a mode change against a deletion, and a file against a directory as conflicts', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': 'a\n', 'gone.sh': 'g\n' })
    const src = await s.commit('feature', 'feature', { 'new.sh': { exec: true, content: 'same\n' }, 'gone.sh': { exec: true, content: 'g\n' }, dir: 'a file\n' })
    const tgt = await s.commit('master', 'target', { 'new.sh': 'same\n', 'gone.sh': null, 'dir/x.txt': 'x\n' })
    engine()
    // git puts the source's file aside as `dir~<commit>`; the conflict is reported at `dir`.
    expect(await gitsOwn(s, tgt, src)).toEqual({ tree: null, conflicts: [`dir~${src}`, 'gone.sh', 'new.sh'] })
    expect(await mergeCommits(s.bare, tgt, src)).toEqual({ tree: null, conflicts: ['dir', 'gone.sh', 'new.sh'] })
  })

  it('sees a file turned into a symlink on one side and edited on the other as a conflict', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'f.txt': 'plain\n' })
    const src = await s.commit('feature', 'feature', { 'f.txt': { link: 'elsewhere' } })
    const tgt = await s.commit('master', 'target', { 'f.txt': 'edited\n' })
    engine()
    expect(await mergeCommits(s.bare, tgt, src)).toEqual({ tree: null, conflicts: ['f.txt'] })
  })

  it('merges trees against an explicit base, as a cherry-pick or rebase step does', async () => {
    const s = await repo()
    const base = await s.commit('master', 'base', { 'a.txt': lines(10) })
    const pick = await s.commit('master', 'pick', { 'a.txt': lines(10, { 1: 'ONE' }) })
    const other = await s.commit('stable', 'other', { 'a.txt': lines(10, { 1: 'ONE', 10: 'TEN' }) })
    await s.git('update-ref', 'refs/heads/stable', other)
    engine()
    const [b, p, o] = await Promise.all([treeOf(s.bare, base), treeOf(s.bare, pick), treeOf(s.bare, other)])
    expect(await mergeTrees(s.bare, b, o, p)).toEqual({ tree: o, conflicts: [] })
    const clash = await treeOf(s.bare, await s.commit('clash', 'clash', { 'a.txt': lines(10, { 1: 'uno' }) }))
    expect(await mergeTrees(s.bare, b, clash, p)).toEqual({ tree: null, conflicts: ['a.txt'] })
  })

  it('merges a criss-cross history (two merge bases) as git does', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': lines(10), 'b.txt': lines(10) })
    await s.commit('side', 's1', { 'a.txt': lines(10, { 1: 'side' }) })
    await s.commit('master', 'm1', { 'b.txt': lines(10, { 1: 'master' }) })
    const run = (...args: string[]) => s.cli.run(s.work, ...args)
    // Each branch merges the other's first commit: both merges are merge bases of the two heads.
    await run('merge', '-q', '--no-ff', '-m', 'side into master', 'side~0')
    await run('checkout', '-q', 'side')
    await run('merge', '-q', '--no-ff', '-m', 'master^ into side', 'master^2')
    await run('merge', '-q', '--no-ff', '-m', 'master^1 into side', 'master^1')
    const src = await s.commit('side', 's2', { 'a.txt': lines(10, { 1: 'side', 10: 'side' }) })
    const tgt = await s.commit('master', 'm2', { 'b.txt': lines(10, { 1: 'master', 10: 'master' }) })
    await run('push', '-q', s.bare, 'side', 'master')
    expect((await s.git('merge-base', '--all', tgt, src)).split('\n').length).toBeGreaterThan(1)
    engine()
    const result = await mergeCommits(s.bare, tgt, src)
    expect(result).toEqual(await gitsOwn(s, tgt, src))
    expect(result!.tree).not.toBeNull()
  })

  it('answers null for unrelated histories', async () => {
    const s = await repo()
    const a = await s.commit('master', 'a', { 'a.txt': 'a\n' })
    await s.cli.run(s.work, 'checkout', '-q', '--orphan', 'lonely')
    const b = await s.commit('lonely', 'b', { 'b.txt': 'b\n' })
    engine()
    expect(await mergeCommits(s.bare, a, b)).toBeNull()
    expect(await mergeBase(s.bare, a, b)).toBeNull()
  })

  it('counts a range whose newer side merged an old branch from below the merge base, as git does', async () => {
    const s = await repo()
    await s.commit('master', 'c0', { 'a.txt': '0\n' })
    await s.commit('old', 'o1', { 'o.txt': 'o\n' })
    await s.commit('master', 'c1', { 'a.txt': '1\n' })
    const base = await s.commit('master', 'c2', { 'a.txt': '2\n' })
    const feature = await s.commit('feature', 'f1', { 'f.txt': 'f\n' })
    await s.commit('master', 'm1', { 'm.txt': 'm\n' })
    await s.cli.run(s.work, 'merge', '-q', '--no-ff', '-m', 'merge old', 'old')
    await s.cli.run(s.work, 'push', '-q', s.bare, 'master')
    const master = (await s.head('master'))!
    engine()
    expect(await mergeBase(s.bare, master, feature)).toBe(base)
    expect(await divergedCommitsCount(s.bare, feature, master)).toBe(Number(await s.git('rev-list', '--count', master, `^${feature}`)))
    expect(await divergedCommitsCount(s.bare, feature, master)).toBe(3)
    expect((await commitsBetween(s.bare, feature, master)).map((c) => c.message.trim()).sort()).toEqual(['m1', 'merge old', 'o1'])
    expect(await countBetween(s.bare, master, feature)).toBe(1)
  })

  it('finds the merge base, the diverged count and the commits between two branches', async () => {
    const s = await repo()
    const root = await s.commit('master', 'root', { 'a.txt': 'a\n' })
    const f1 = await s.commit('feature', 'f1', { 'f.txt': '1\n' })
    const f2 = await s.commit('feature', 'f2', { 'f.txt': '2\n' })
    await s.commit('master', 'm1', { 'm.txt': '1\n' })
    await s.commit('master', 'm2', { 'm.txt': '2\n' })
    const m3 = await s.commit('master', 'm3', { 'm.txt': '3\n' })
    engine()
    expect(await mergeBase(s.bare, m3, f2)).toBe(root)
    expect(await divergedCommitsCount(s.bare, f2, m3)).toBe(3)
    expect(await countBetween(s.bare, m3, f2)).toBe(2)
    expect((await commitsBetween(s.bare, m3, f2)).map((c) => c.message)).toEqual(['f2\n', 'f1\n'])
    expect((await commitsBetween(s.bare, m3, f2, 1)).map((c) => c.id)).toEqual([f2])
    expect(await replayOrder(s.bare, m3, f2)).toEqual([f1, f2])
    expect(await countBetween(s.bare, m3, m3)).toBe(0)
  })
})
