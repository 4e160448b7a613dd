// Rebasing a source branch onto its target, and merging a branch of a fork into the upstream repository, on both engines.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { setGitAvailable } from '../../../src/server/git/exec.js'
import { checkMerge, fetchRef, mergeBranches, MergeConflictError, mergeRequestHeadRef, rebaseBranch } from '../../../src/server/git/merge/index.js'
import { ENGINES } from '../../helpers/repository.js'
import { lines, scratch, type Scratch } from './merge-fixture.js'

const made: Scratch[] = []
async function repo(name?: string, forkOf?: string) {
  const s = await scratch(name, forkOf)
  made.push(s)
  return s
}
afterAll(() => made.forEach((s) => s.cli.cleanup()))

const T = 1704164645
const ROB = { name: 'Rob Rebaser', email: 'rob@example.com', timestamp: T + 120, timezoneOffset: 0 }

describe.each(ENGINES)('rebase and forks with $engine', ({ available }) => {
  afterEach(() => setGitAvailable(null))
  const engine = () => setGitAvailable(available)

  it('replays the source commits onto the target head, keeping authors and messages, and moves the source by compare-and-swap', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': lines(10) })
    const f1 = await s.commit('feature', 'f1', { 'a.txt': lines(10, { 1: 'ONE' }) })
    const f2 = await s.commit('feature', 'f2', { 'f.txt': 'feature\n' })
    const m1 = await s.commit('master', 'm1', { 'a.txt': lines(10, { 10: 'TEN' }) })
    engine()
    const out = await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: ROB })
    expect(out).toMatchObject({ before: f2, replayed: 2, upToDate: false })
    expect(await s.head('feature')).toBe(out.after)
    expect(await s.git('log', '--format=%s|%an|%cn|%ct', `${m1}..feature`)).toBe(`f2|Tess Tester|Rob Rebaser|${T + 120}\nf1|Tess Tester|Rob Rebaser|${T + 120}`)
    expect(await s.git('rev-parse', 'feature~2')).toBe(m1)
    expect(await s.git('show', 'feature:a.txt')).toBe(lines(10, { 1: 'ONE', 10: 'TEN' }).trimEnd())
    // Both engines replay to the same commits.
    expect(out.after).toBe('d92b882ad4073507114f398417009db35fd89c7b')
    expect(await checkMerge(s.bare, { sourceBranch: 'feature', targetBranch: 'master', method: 'ff' })).toMatchObject({ ffPossible: true, canBeMerged: true })
    expect(await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: ROB })).toEqual({ before: out.after, after: out.after, replayed: 0, upToDate: true })
    expect(f1).not.toBe(out.after)
  })

  it('drops a commit whose change the target already has', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': 'a\n' })
    await s.commit('feature', 'same change', { 'b.txt': 'b\n' })
    await s.commit('feature', 'own change', { 'c.txt': 'c\n' })
    await s.commit('master', 'same change upstream', { 'b.txt': 'b\n' })
    engine()
    const out = await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: ROB })
    expect(out.replayed).toBe(1)
    expect(await s.git('log', '--format=%s', 'feature')).toBe('own change\nsame change upstream\nbase')
  })

  it('stops on a conflict, naming the paths, and leaves the source where it was', async () => {
    const s = await repo()
    await s.commit('master', 'base', { 'a.txt': lines(10) })
    const f1 = await s.commit('feature', 'f1', { 'a.txt': lines(10, { 1: 'ONE' }) })
    await s.commit('master', 'm1', { 'a.txt': lines(10, { 1: 'uno' }) })
    engine()
    const err = await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: ROB }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MergeConflictError)
    expect((err as MergeConflictError).paths).toEqual(['a.txt'])
    expect(await s.head('feature')).toBe(f1)
    const stale = await rebaseBranch(s.bare, { branch: 'feature', onto: 'master', committer: ROB, expectedHead: 'f'.repeat(40) }).catch((e: unknown) => e)
    expect(stale).toMatchObject({ kind: 'stale' })
  })

  it('merges a fork\'s branch: its objects are fetched under a hidden ref, then merged into the upstream target', async () => {
    const up = await repo('upstream')
    await up.commit('master', 'base', { 'a.txt': lines(10) })
    const fork = await repo('fork', up.bare)
    const f1 = await fork.commit('feature', 'fork work', { 'a.txt': lines(10, { 1: 'ONE' }), 'bin.dat': Buffer.from('\0fork') })
    const m1 = await up.commit('master', 'upstream work', { 'a.txt': lines(10, { 10: 'TEN' }) })
    engine()
    expect((await up.cli.attempt(up.cli.root, '--git-dir', up.bare, 'cat-file', '-e', f1)).exitCode).not.toBe(0)
    const ref = mergeRequestHeadRef(3)
    expect(await fetchRef(up.bare, fork.bare, 'refs/heads/feature', ref)).toBe(f1)
    expect(await up.git('rev-parse', ref)).toBe(f1)
    const sides = { sourceBranch: 'feature', sourceRef: ref, targetBranch: 'master' }
    expect(await checkMerge(up.bare, sides)).toMatchObject({ sourceHead: f1, targetHead: m1, canBeMerged: true })
    const out = await mergeBranches(up.bare, { ...sides, method: 'merge', message: 'Merge from the fork', user: ROB, sha: f1, removeSourceBranch: true })
    expect(await up.git('rev-list', '--parents', '-n1', 'master')).toBe(`${out.mergeCommitSha} ${m1} ${f1}`)
    expect(await up.git('show', 'master:a.txt')).toBe(lines(10, { 1: 'ONE', 10: 'TEN' }).trimEnd())
    // The fork's branch is not ours to remove.
    expect(out.sourceBranchRemoved).toBe(false)
    expect(await fork.head('feature')).toBe(f1)
    expect(await fetchRef(up.bare, fork.bare, 'refs/heads/nope', ref).catch((e: unknown) => e)).toMatchObject({ kind: 'not_found' })
  })

  it('rebases a fork\'s branch onto the upstream target fetched into the fork', async () => {
    const up = await repo('upstream')
    await up.commit('master', 'base', { 'a.txt': 'a\n' })
    const fork = await repo('fork', up.bare)
    await fork.commit('feature', 'fork work', { 'f.txt': 'f\n' })
    const m1 = await up.commit('master', 'upstream work', { 'm.txt': 'm\n' })
    engine()
    await fetchRef(fork.bare, up.bare, 'refs/heads/master', 'refs/merge-requests/3/target')
    const out = await rebaseBranch(fork.bare, { branch: 'feature', onto: 'master', ontoRef: 'refs/merge-requests/3/target', committer: ROB })
    expect(out.replayed).toBe(1)
    expect(await fork.git('rev-parse', 'feature~1')).toBe(m1)
  })
})
