// Merging a merge request on real repositories: the three methods, squash, the sha check, compare-and-swap, default messages.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { setGitAvailable } from '../../../src/server/git/exec.js'
import { checkMerge, defaultMergeCommitMessage, defaultSquashCommitMessage, mergeBranches, MergeConflictError, mergeStatusOf, toSentence, type MergeRequestMerge } from '../../../src/server/git/merge/index.js'
import { GitError } from '../../../src/server/git/types.js'
import { ENGINES } from '../../helpers/repository.js'
import { lines, scratch, type Scratch } from './merge-fixture.js'

const made: Scratch[] = []
afterAll(() => made.forEach((s) => s.cli.cleanup()))

const T = 1704164645 // 2024-01-02T03:04:05Z, the fixture's commit date
const MIA = { name: 'Mia Merger', email: 'mia@example.com', timestamp: T + 60, timezoneOffset: 0 }
const ALICE = { name: 'Alice Author', email: 'alice@example.com', timestamp: T + 30, timezoneOffset: -60 }
const MESSAGE = "Merge branch 'feature' into 'master'\n\nAdd the feature\n\nSee merge request group/project!5"

/** feature is two commits ahead of master, which has not moved: base <- f1 (edits line 1) <- f2 (adds f.txt). */
async function ahead() {
  const s = await scratch()
  made.push(s)
  const base = await s.commit('master', 'base', { 'a.txt': lines(10) })
  const f1 = await s.commit('feature', 'f1', { 'a.txt': lines(10, { 1: 'ONE' }) })
  const f2 = await s.commit('feature', 'f2', { 'f.txt': 'feature\n' })
  return { s, base, f1, f2 }
}

/** As `ahead`, and master moved on: base <- m1 (edits line 10). */
async function diverged() {
  const a = await ahead()
  return { ...a, m1: await a.s.commit('master', 'm1', { 'a.txt': lines(10, { 10: 'TEN' }) }) }
}

const req = (extra: Partial<MergeRequestMerge> = {}): MergeRequestMerge => ({ sourceBranch: 'feature', targetBranch: 'master', method: 'merge', message: MESSAGE, user: MIA, ...extra })

async function failure(p: Promise<unknown>): Promise<GitError> {
  const err = await p.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(GitError)
  return err as GitError
}

describe('default messages', () => {
  it('builds GitLab\'s merge commit message, with the closed issues as a sentence', () => {
    const mr = { sourceBranch: 'feature', targetBranch: 'master', title: 'Add the feature', reference: 'group/project!5' }
    expect(defaultMergeCommitMessage(mr)).toBe(MESSAGE)
    expect(defaultMergeCommitMessage({ ...mr, closesIssues: ['#1', '#2'] })).toBe(
      "Merge branch 'feature' into 'master'\n\nAdd the feature\n\nCloses #1 and #2\n\nSee merge request group/project!5",
    )
    expect(toSentence(['#1', '#2', '#3'])).toBe('#1, #2, and #3')
    expect(toSentence(['#1'])).toBe('#1')
    expect(defaultSquashCommitMessage('Add the feature')).toBe('Add the feature')
  })
})

describe.each(ENGINES)('merging with $engine', ({ available }) => {
  afterEach(() => setGitAvailable(null))
  const engine = () => setGitAvailable(available)

  it('merge: a merge commit by the merger with both parents, the target moved, the source kept', async () => {
    const { s, f2, m1 } = await diverged()
    engine()
    expect(await checkMerge(s.bare, { sourceBranch: 'feature', targetBranch: 'master' })).toMatchObject({
      sourceHead: f2, targetHead: m1, commitsCount: 2, ffPossible: false, conflicts: [], unrelated: false, needRebase: false, canBeMerged: true,
    })
    const out = await mergeBranches(s.bare, req())
    const MERGE = 'b0112cacb47a874ea285a9f02c52d5b79cb19648'
    expect(out).toEqual({ sourceHead: f2, targetBefore: m1, targetAfter: out.mergeCommitSha, mergeCommitSha: out.mergeCommitSha, squashCommitSha: null, sourceBranchRemoved: false })
    const tree = (await s.git('merge-tree', '--write-tree', m1, f2)).trim()
    expect(await s.git('cat-file', '-p', out.mergeCommitSha!)).toBe(
      `tree ${tree}\nparent ${m1}\nparent ${f2}\nauthor Mia Merger <mia@example.com> ${T + 60} +0000\ncommitter Mia Merger <mia@example.com> ${T + 60} +0000\n\n${MESSAGE}`,
    )
    expect([await s.head('master'), await s.head('feature')]).toEqual([out.mergeCommitSha, f2])
    expect(out.mergeCommitSha).toBe(MERGE)
  })

  it('merge: conflicts are listed by the dry run, and the merge refuses them moving nothing', async () => {
    const { s, f2 } = await diverged()
    const clash = await s.commit('master', 'clash', { 'a.txt': lines(10, { 1: 'uno', 10: 'TEN' }) })
    engine()
    const refs = await s.git('for-each-ref')
    const seen = await checkMerge(s.bare, { sourceBranch: 'feature', targetBranch: 'master' })
    expect(seen).toMatchObject({ conflicts: ['a.txt'], canBeMerged: false })
    expect(await s.git('for-each-ref')).toBe(refs)
    expect(mergeStatusOf(seen)).toEqual({ mergeStatus: 'cannot_be_merged', hasConflicts: true, detailed: 'conflict' })
    const err = await failure(mergeBranches(s.bare, req()))
    expect(err).toBeInstanceOf(MergeConflictError)
    expect([err.kind, (err as MergeConflictError).paths]).toEqual(['conflict', ['a.txt']])
    expect([await s.head('master'), await s.head('feature')]).toEqual([clash, f2])
  })

  it('ff: refuses a source that is not rebased, and otherwise moves the target to the source head without a merge commit', async () => {
    const d = await diverged()
    engine()
    const seen = await checkMerge(d.s.bare, { sourceBranch: 'feature', targetBranch: 'master', method: 'ff' })
    expect(seen).toMatchObject({ needRebase: true, canBeMerged: false })
    expect(mergeStatusOf(seen)).toEqual({ mergeStatus: 'can_be_merged', hasConflicts: false, detailed: 'need_rebase' })
    expect(mergeStatusOf({ ...seen, needRebase: false })).toEqual({ mergeStatus: 'can_be_merged', hasConflicts: false, detailed: 'mergeable' })
    const err = await failure(mergeBranches(d.s.bare, req({ method: 'ff' })))
    expect(err.kind).toBe('need_rebase')
    expect(await d.s.head('master')).toBe(d.m1)
    const a = await ahead()
    const out = await mergeBranches(a.s.bare, req({ method: 'ff' }))
    expect(out).toEqual({ sourceHead: a.f2, targetBefore: a.base, targetAfter: a.f2, mergeCommitSha: null, squashCommitSha: null, sourceBranchRemoved: false })
    expect(await a.s.head('master')).toBe(a.f2)
  })

  it('rebase_merge: refuses a source that is not rebased, and otherwise makes a merge commit on top', async () => {
    const d = await diverged()
    engine()
    expect((await failure(mergeBranches(d.s.bare, req({ method: 'rebase_merge' })))).kind).toBe('need_rebase')
    const a = await ahead()
    const out = await mergeBranches(a.s.bare, req({ method: 'rebase_merge' }))
    expect(await a.s.git('rev-list', '--parents', '-n1', out.mergeCommitSha!)).toBe(`${out.mergeCommitSha} ${a.base} ${a.f2}`)
    expect(await a.s.git('rev-parse', `${out.mergeCommitSha}^{tree}`)).toBe(await a.s.git('rev-parse', `${a.f2}^{tree}`))
    expect(await a.s.head('master')).toBe(out.mergeCommitSha)
  })

  it('squash with merge: one commit (title, MR author) on the merge base, merged by a merge commit', async () => {
    const { s, base, f2, m1 } = await diverged()
    engine()
    const out = await mergeBranches(s.bare, req({ squash: { title: 'Add the feature', author: ALICE } }))
    const squash = out.squashCommitSha!
    expect(await s.git('cat-file', '-p', squash)).toBe(
      `tree ${await s.git('rev-parse', `${f2}^{tree}`)}\nparent ${base}\nauthor Alice Author <alice@example.com> ${T + 30} +0100\ncommitter Mia Merger <mia@example.com> ${T + 60} +0000\n\nAdd the feature`,
    )
    expect(await s.git('rev-list', '--parents', '-n1', out.mergeCommitSha!)).toBe(`${out.mergeCommitSha} ${m1} ${squash}`)
    expect(await s.head('feature')).toBe(f2)
  })

  it('squash with ff and rebase_merge: the squash commit sits on the target head', async () => {
    const a = await ahead()
    engine()
    const ff = await mergeBranches(a.s.bare, req({ method: 'ff', squash: { title: 'Add the feature', message: 'Squashed\n\nbody', author: ALICE } }))
    expect(ff.mergeCommitSha).toBeNull()
    expect(ff.targetAfter).toBe(ff.squashCommitSha)
    expect(await a.s.git('log', '--format=%P|%B', '-n1', ff.targetAfter)).toBe(`${a.base}|Squashed\n\nbody\n`)
    const b = await ahead()
    const rm = await mergeBranches(b.s.bare, req({ method: 'rebase_merge', squash: { title: 'Add the feature', author: ALICE } }))
    expect(await b.s.git('rev-list', '--parents', '-n1', rm.mergeCommitSha!)).toBe(`${rm.mergeCommitSha} ${b.base} ${rm.squashCommitSha}`)
    expect(await b.s.git('log', '--format=%P', '-n1', rm.squashCommitSha!)).toBe(b.base)
  })

  it('squash of a single commit is skipped unless a squash message is given', async () => {
    const s = await scratch()
    made.push(s)
    await s.commit('master', 'base', { 'a.txt': 'a\n' })
    const only = await s.commit('feature', 'only', { 'b.txt': 'b\n' })
    await s.commit('second', 'second', { 'c.txt': 'c\n' })
    engine()
    const skipped = await mergeBranches(s.bare, req({ method: 'ff', squash: { title: 'Title', author: ALICE } }))
    expect([skipped.squashCommitSha, skipped.targetAfter]).toEqual([null, only])
    const forced = await mergeBranches(s.bare, req({ sourceBranch: 'second', method: 'merge', squash: { title: 'Title', message: 'Custom', author: ALICE } }))
    expect(await s.git('log', '--format=%s', '-n1', forced.squashCommitSha!)).toBe('Custom')
  })

  it('refuses a sha that is not the source head, naming the head, and moves nothing', async () => {
    const { s, f1, f2, m1 } = await diverged()
    engine()
    const err = await failure(mergeBranches(s.bare, req({ sha: f1 })))
    expect([err.kind, err.message]).toEqual(['sha_mismatch', `SHA does not match HEAD of source branch: ${f2}`])
    expect(await s.head('master')).toBe(m1)
    expect((await mergeBranches(s.bare, req({ sha: f2 }))).sourceHead).toBe(f2)
  })

  it('a target moved after the dry run fails the merge as stale; the new target commit is kept', async () => {
    const { s, m1 } = await diverged()
    engine()
    const seen = await checkMerge(s.bare, { sourceBranch: 'feature', targetBranch: 'master' })
    expect(seen.targetHead).toBe(m1)
    // A writer outside the engine (another process) moves the target between the check and the merge.
    const pushed = await s.commit('master', 'pushed meanwhile', { 'other.txt': 'other\n' })
    const err = await failure(mergeBranches(s.bare, req({ expectedTargetHead: seen.targetHead })))
    expect(err.kind).toBe('stale')
    expect(await s.head('master')).toBe(pushed)
  })

  it('two merges into one target at once both land: the second merges on top of the first', async () => {
    const { s } = await diverged()
    const other = await s.commit('other', 'other work', { 'o.txt': 'o\n' })
    engine()
    const [one, two] = await Promise.all([mergeBranches(s.bare, req()), mergeBranches(s.bare, req({ sourceBranch: 'other', message: 'second' }))])
    expect(two.targetBefore).toBe(one.targetAfter)
    expect(await s.head('master')).toBe(two.targetAfter)
    expect(await s.git('merge-base', '--is-ancestor', other, 'master').then(() => true)).toBe(true)
    expect(await s.git('merge-base', '--is-ancestor', one.sourceHead, 'master').then(() => true)).toBe(true)
  })

  it('removes the source branch when asked, unless it moved; nothing to merge and missing branches are distinct errors', async () => {
    const { s } = await diverged()
    engine()
    const out = await mergeBranches(s.bare, req({ removeSourceBranch: true }))
    expect(out.sourceBranchRemoved).toBe(true)
    expect(await s.head('feature')).toBeNull()
    expect(await failure(mergeBranches(s.bare, req()))).toMatchObject({ kind: 'not_found', message: 'Source branch does not exist' })
    expect(await failure(mergeBranches(s.bare, req({ targetBranch: 'nope' })))).toMatchObject({ kind: 'not_found', message: 'Target branch does not exist' })
    await s.git('update-ref', 'refs/heads/old', out.sourceHead)
    expect((await failure(mergeBranches(s.bare, req({ sourceBranch: 'old' })))).kind).toBe('empty')
    const none = await checkMerge(s.bare, { sourceBranch: 'old', targetBranch: 'master' })
    expect(none).toMatchObject({ commitsCount: 0, canBeMerged: false })
    expect(mergeStatusOf(none)).toEqual({ mergeStatus: 'cannot_be_merged', hasConflicts: true, detailed: 'commits_status' })
  })
})
