// The git merge engine obeys the git output cap: past it, a merge is refused as too large (a 4xx), never a 500.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { GitOutputTooLarge, setGitAvailable, setGitOutputLimit } from '../../../src/server/git/exec.js'
import { checkMerge } from '../../../src/server/git/merge/index.js'
import { lines, scratch, type Scratch } from './merge-fixture.js'

const made: Scratch[] = []
afterAll(() => made.forEach((s) => s.cli.cleanup()))
afterEach(() => { setGitOutputLimit(null); setGitAvailable(null) })

describe('merge output cap', () => {
  it('answers 422 when git merge-tree writes more than the cap', async () => {
    const s = await scratch()
    made.push(s)
    await s.commit('master', 'base', { 'a.txt': lines(10) })
    await s.commit('feature', 'f1', { 'a.txt': lines(10, { 1: 'ONE' }) })
    await s.commit('master', 'm1', { 'a.txt': lines(10, { 10: 'TEN' }) })
    setGitAvailable(true)
    setGitOutputLimit(8)
    const err = await checkMerge(s.bare, { sourceBranch: 'feature', targetBranch: 'master' }).then(() => null, (e: unknown) => e)
    expect(err).toBeInstanceOf(GitOutputTooLarge)
    expect((err as GitOutputTooLarge).status).toBe(422)
  })
})
