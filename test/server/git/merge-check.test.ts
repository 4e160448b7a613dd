// The merge request check's shortcuts on real repositories: the merge base and count read off the commit list's walk
// agree with git's own answers, and a rebase keeps each replayed message byte for byte.
import { afterAll, describe, expect, it } from 'vitest'
import { checkMergeWithCommits, rebaseBranch } from '../../../src/server/git/merge/index.js'
import { lines, scratch, type Scratch } from './merge-fixture.js'

const made: Scratch[] = []
afterAll(() => made.forEach((s) => s.cli.cleanup()))

const MIA = { name: 'Mia Merger', email: 'mia@example.com', timestamp: 1704164705, timezoneOffset: 0 }

/** What git says of master..feature: the merge base, the count and the commits, newest first. */
async function gitSays(s: Scratch) {
  const ids = await s.git('rev-list', 'feature', '^master', '--')
  return { base: await s.git('merge-base', 'master', 'feature'), count: Number(await s.git('rev-list', '--count', 'feature', '^master', '--')), ids: ids.split('\n').filter(Boolean) }
}

async function checked(s: Scratch) {
  const { check, commits } = await checkMergeWithCommits(s.bare, { sourceBranch: 'feature', targetBranch: 'master' })
  return { base: check.mergeBase, count: check.commitsCount, ids: commits.map((c) => c.id) }
}

describe('merge request check', () => {
  it('finds the merge base, count and commits git finds: a straight branch, one that merged the target in, a criss-cross', async () => {
    const s = await scratch()
    made.push(s)
    await s.commit('master', 'base', { 'a.txt': lines(20) })
    await s.commit('feature', 'f1', { 'a.txt': lines(20, { 1: 'ONE' }) })
    await s.commit('feature', 'f2', { 'f.txt': 'f\n' })
    await s.commit('master', 'm1', { 'a.txt': lines(20, { 20: 'TWENTY' }) })
    const straight = await gitSays(s)
    expect(straight.count).toBe(2)
    expect(await checked(s)).toEqual(straight)

    // feature merges master in, then goes on: two commits leave the list, so the base is git's merge-base.
    await s.cli.run(s.work, 'checkout', '-q', 'feature')
    await s.cli.run(s.work, 'merge', '-q', '--no-edit', 'master')
    await s.commit('feature', 'f3', { 'g.txt': 'g\n' })
    await s.cli.run(s.work, 'push', '-q', '-f', s.bare, 'feature:feature')
    const merged = await gitSays(s)
    expect(merged.count).toBe(4)
    expect(await checked(s)).toEqual(merged)

    // Criss-cross: master merges feature's f3 while feature merges master's m2; two merge bases.
    await s.commit('master', 'm2', { 'a.txt': lines(20, { 10: 'TEN' }) })
    await s.cli.run(s.work, 'checkout', '-q', 'feature')
    await s.cli.run(s.work, 'merge', '-q', '--no-edit', 'master')
    const fHead = await s.cli.run(s.work, 'rev-parse', 'HEAD~1')
    await s.cli.run(s.work, 'checkout', '-q', 'master')
    await s.cli.run(s.work, 'merge', '-q', '--no-edit', fHead)
    await s.cli.run(s.work, 'push', '-q', '-f', s.bare, 'master:master', 'feature:feature')
    expect((await s.git('merge-base', '--all', 'master', 'feature')).split('\n')).toHaveLength(2)
    expect(await checked(s)).toEqual(await gitSays(s))
  })

  it('rebases keeping each replayed message byte for byte, carriage returns and all', async () => {
    const s = await scratch()
    made.push(s)
    await s.commit('master', 'base', { 'a.txt': lines(20) })
    await s.commit('feature', 'placeholder', { 'f.txt': 'f\n' })
    const message = 'Subject line\r\n\r\n  indented body\r\n'
    await s.cli.run(s.work, 'commit', '-q', '--amend', '--cleanup=verbatim', '-m', message)
    await s.cli.run(s.work, 'push', '-q', '-f', s.bare, 'feature:feature')
    await s.commit('master', 'm1', { 'a.txt': lines(20, { 20: 'TWENTY' }) })
    const stored = async (rev: string) => {
      const raw = await s.cli.run(s.cli.root, '--git-dir', s.bare, 'cat-file', 'commit', rev)
      return raw.slice(raw.indexOf('\n\n') + 2)
    }
    const before = await stored('feature')
    const o = await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: MIA })
    expect(o.replayed).toBe(1)
    expect(await s.git('rev-parse', 'feature~1')).toBe(await s.git('rev-parse', 'master'))
    expect(await stored('feature')).toBe(before)
  })
})
