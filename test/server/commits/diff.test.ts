// GET /projects/:id/repository/commits/:sha/diff: unified text, modes, new/renamed/deleted flags, renames, binaries, on both diff engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DiffEntry } from '../../../src/contract/entities/repository.js'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { commit, create, ENGINES, gitIn, remove, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const APP = 'function one() {\n  return 1\n}\n\nfunction two() {\n  return 2\n}\n\nfunction three() {\n  return 3\n}\n'
const NOTES = 'alpha\nbravo\ncharlie\ndelta\necho\nfoxtrot\ngolf\nhotel\n'
/** Old Mac line ends and a Unicode line separator, each followed by text that starts git's next-file line. */
const CR = 'one\rdiff --git a/x b/x\rtwo\n'
const LS = 'three\u2028diff --git a/y b/y\n'

let server: TestServer
let alice: TestUser
let id: number
/** A project of its own (the commits above have fixed ids) with one commit of files holding CR and U+2028. */
let breaks: { id: number; sha: string }
/** The root commit: five files. */
const ROOT = '507cd63992736d59f39541e8e2e93901dd58f365'
/** Edits, a deletion, a chmod, two renames (one with an edit), a binary and a file without a final newline. */
const CHANGES = 'b9dfa33c7f0d8a967d8848c34d6be2159fbcecff'
/** Two separate hunks in one file. */
const HUNKS = '4cf63e0ba95eea157d142d5172143edad22f7abd'
/** `link` turns from a file into a symlink, and z.txt changes after it. */
const TYPECHANGE = '15604ce20e6b4cf79537a0de82b5339a1c9749b2'
/** Two moves with edits: one similar enough to be a rename (60%), one not (40%). */
const MOVES = '26c97dc5a1bbca61c0fe36b249becb5b66459485'

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'diffs', visibility: 'public' })).id
  const root = await commit(alice.api, id, {
    commit_message: 'Initial commit',
    actions: [create('README.md', 'hello\n'), create('src/app.txt', APP), create('run.sh', '#!/bin/sh\necho hi\n'), create('notes/old.txt', NOTES), create('keep.txt', 'kept as is\n')],
  })
  expect(root.id).toBe(ROOT)
  const changes = await commit(alice.api, id, {
    commit_message: 'Many kinds of change',
    actions: [
      update('src/app.txt', APP.replace('return 3', 'return 33')),
      remove('README.md'),
      { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
      { action: 'move', previous_path: 'notes/old.txt', file_path: 'notes/new.txt', content: NOTES.replace('echo', 'ECHO') },
      { action: 'move', previous_path: 'keep.txt', file_path: 'moved/keep.txt' },
      { action: 'create', file_path: 'image.bin', content: Buffer.from([137, 80, 78, 71, 0, 0, 1, 2]).toString('base64'), encoding: 'base64' },
      create('nonl.txt', 'no newline'),
    ],
  })
  expect(changes.id).toBe(CHANGES)
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
  await commit(alice.api, id, { commit_message: 'Long file', actions: [create('long.txt', lines.join('\n') + '\n')] })
  const edited = lines.map((l, i) => (i === 1 ? 'LINE 2' : i === 24 ? 'LINE 25' : l))
  const hunks = await commit(alice.api, id, { commit_message: 'Two hunks', actions: [update('long.txt', edited.join('\n') + '\n')] })
  expect(hunks.id).toBe(HUNKS)
  const ten = (tag: string) => Array.from({ length: 10 }, (_, i) => `${tag} ${String(i).padStart(2, '0')}`)
  const edit = (from: string[], n: number) => from.map((l, i) => (i < n ? l.toUpperCase() : l)).join('\n') + '\n'
  await commit(alice.api, id, { commit_message: 'Two lists', actions: [create('lists/a.txt', ten('apple').join('\n') + '\n'), create('lists/b.txt', ten('berry').join('\n') + '\n')] })
  const moves = await commit(alice.api, id, {
    commit_message: 'Move and rewrite',
    actions: [
      { action: 'move', previous_path: 'lists/a.txt', file_path: 'lists/a2.txt', content: edit(ten('apple'), 4) },
      { action: 'move', previous_path: 'lists/b.txt', file_path: 'lists/b2.txt', content: edit(ten('berry'), 6) },
    ],
  })
  expect(moves.id).toBe(MOVES)

  // The API cannot write a symlink: this commit is made with git's plumbing, as a push would bring it.
  await commit(alice.api, id, { commit_message: 'A file to become a link', actions: [create('link', 'target\n'), create('z.txt', 'z\n')] })
  const blob = (content: string) => gitIn(server, id, ['hash-object', '-w', '--stdin'], { input: content }).trim()
  const base = gitIn(server, id, ['ls-tree', 'master']).split('\n').filter((l) => l && !/\t(link|z\.txt)$/.test(l))
  const tree = gitIn(server, id, ['mktree'], { input: [...base, `120000 blob ${blob('a.txt')}\tlink`, `100644 blob ${blob('zz\n')}\tz.txt`].join('\n') + '\n' }).trim()
  const env = { GIT_AUTHOR_NAME: 'Alice Liddell', GIT_AUTHOR_EMAIL: 'alice@example.com', GIT_AUTHOR_DATE: '1704164645 +0000', GIT_COMMITTER_NAME: 'Alice Liddell', GIT_COMMITTER_EMAIL: 'alice@example.com', GIT_COMMITTER_DATE: '1704164645 +0000' }
  const typechange = gitIn(server, id, ['commit-tree', tree, '-p', 'master', '-m', 'Make it a link'], { env }).trim()
  gitIn(server, id, ['update-ref', 'refs/heads/master', typechange])
  expect(typechange).toBe(TYPECHANGE)

  const other = (await createProject(alice.api, { name: 'line-breaks', visibility: 'public' })).id
  const actions = [create('a.txt', CR), create('b.txt', 'b\n'), create('c.txt', LS), create('d.txt', 'd\n')]
  breaks = { id: other, sha: (await commit(alice.api, other, { commit_message: 'Odd line breaks', actions })).id }
})
afterAll(() => server.close())

describe.each(ENGINES)('GET /projects/:id/repository/commits/:sha/diff with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  const diff = (sha: string, query: Record<string, string | number> = {}) => api(server).get(`${repo(id)}/commits/${sha}/diff`, { query })

  it('shows every file of a root commit as new', async () => {
    const res = await diff(ROOT)
    expect(res.status).toBe(200)
    for (const d of res.body) DiffEntry.strict().parse(d)
    const entry = (path: string, text: string) => ({
      diff: text, new_path: path, old_path: path, a_mode: '0', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false, generated_file: false,
    })
    expect(res.body).toEqual([
      entry('README.md', '@@ -0,0 +1 @@\n+hello\n'),
      entry('keep.txt', '@@ -0,0 +1 @@\n+kept as is\n'),
      entry('notes/old.txt', '@@ -0,0 +1,8 @@\n' + NOTES.replace(/^/gm, '+').replace(/\+$/, '')),
      entry('run.sh', '@@ -0,0 +1,2 @@\n+#!/bin/sh\n+echo hi\n'),
      entry('src/app.txt', '@@ -0,0 +1,11 @@\n' + APP.replace(/^/gm, '+').replace(/\+$/, '')),
    ])
  })

  it('shows edits, deletions, mode changes, renames, binaries and missing final newlines', async () => {
    const res = await diff(CHANGES)
    for (const d of res.body) DiffEntry.strict().parse(d)
    const flags = { new_file: false, renamed_file: false, deleted_file: false, generated_file: false }
    expect(res.body).toEqual([
      { ...flags, old_path: 'README.md', new_path: 'README.md', a_mode: '100644', b_mode: '0', deleted_file: true, diff: '@@ -1 +0,0 @@\n-hello\n' },
      { ...flags, old_path: 'image.bin', new_path: 'image.bin', a_mode: '0', b_mode: '100644', new_file: true, diff: 'Binary files /dev/null and b/image.bin differ\n' },
      { ...flags, old_path: 'keep.txt', new_path: 'moved/keep.txt', a_mode: '100644', b_mode: '100644', renamed_file: true, diff: '' },
      { ...flags, old_path: 'nonl.txt', new_path: 'nonl.txt', a_mode: '0', b_mode: '100644', new_file: true, diff: '@@ -0,0 +1 @@\n+no newline\n\\ No newline at end of file\n' },
      {
        ...flags, old_path: 'notes/old.txt', new_path: 'notes/new.txt', a_mode: '100644', b_mode: '100644', renamed_file: true,
        diff: '@@ -2,7 +2,7 @@ alpha\n bravo\n charlie\n delta\n-echo\n+ECHO\n foxtrot\n golf\n hotel\n',
      },
      { ...flags, old_path: 'run.sh', new_path: 'run.sh', a_mode: '100644', b_mode: '100755', diff: '' },
      {
        ...flags, old_path: 'src/app.txt', new_path: 'src/app.txt', a_mode: '100644', b_mode: '100644',
        diff: '@@ -7,5 +7,5 @@ function two() {\n }\n \n function three() {\n-  return 3\n+  return 33\n }\n',
      },
    ])
  })

  it('writes one hunk per distant change, each headed by the nearest line above it that starts a definition', async () => {
    const res = await diff(HUNKS)
    expect(res.body.map((d: { diff: string }) => d.diff)).toEqual([
      '@@ -1,5 +1,5 @@\n line 1\n-line 2\n+LINE 2\n line 3\n line 4\n line 5\n' +
      '@@ -22,7 +22,7 @@ line 21\n line 22\n line 23\n line 24\n-line 25\n+LINE 25\n line 26\n line 27\n line 28\n',
    ])
  })

  it('pairs a rename by the similarity score of git: 60% alike is a rename, 40% is a deletion and a new file', async () => {
    const res = await diff(MOVES)
    expect(res.body.map((d: Record<string, unknown>) => [d.old_path, d.new_path, d.renamed_file, d.new_file, d.deleted_file])).toEqual([
      ['lists/a.txt', 'lists/a2.txt', true, false, false],
      ['lists/b.txt', 'lists/b.txt', false, false, true],
      ['lists/b2.txt', 'lists/b2.txt', false, true, false],
    ])
    expect(res.body[0].diff).toBe('@@ -1,7 +1,7 @@\n-apple 00\n-apple 01\n-apple 02\n-apple 03\n+APPLE 00\n+APPLE 01\n+APPLE 02\n+APPLE 03\n apple 04\n apple 05\n apple 06\n')
  })

  it('reads the commit by branch name and by short id, and paginates', async () => {
    const byBranch = await diff('master')
    const byShort = await diff(TYPECHANGE.slice(0, 8))
    expect(byBranch.body).toEqual(byShort.body)
    expect(byBranch.body.map((d: { new_path: string }) => d.new_path)).toEqual(['link', 'link', 'z.txt'])
    const page = await diff(CHANGES, { per_page: 2, page: 2 })
    expect(page.body.map((d: { new_path: string }) => d.new_path)).toEqual(['moved/keep.txt', 'nonl.txt'])
    expect([page.headers.get('x-total'), page.headers.get('x-total-pages'), page.headers.get('x-next-page')]).toEqual(['7', '4', '3'])
  })

  it('answers 404 for an unknown commit', async () => {
    for (const sha of ['0123456789abcdef0123456789abcdef01234567', 'no-such-ref']) {
      const res = await diff(sha)
      expect([res.status, res.body]).toEqual([404, { message: '404 Commit Not Found' }])
    }
  })

  it('shows a file turned into a symlink as a deletion and an addition, keeping later files in step', async () => {
    const res = await diff(TYPECHANGE)
    const flags = { new_file: false, renamed_file: false, deleted_file: false, generated_file: false }
    expect(res.body).toEqual([
      { ...flags, old_path: 'link', new_path: 'link', a_mode: '100644', b_mode: '0', deleted_file: true, diff: '@@ -1 +0,0 @@\n-target\n' },
      { ...flags, old_path: 'link', new_path: 'link', a_mode: '0', b_mode: '120000', new_file: true, diff: '@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n' },
      { ...flags, old_path: 'z.txt', new_path: 'z.txt', a_mode: '100644', b_mode: '100644', diff: '@@ -1 +1 @@\n-z\n+zz\n' },
    ])
    expect((await api(server).get(`${repo(id)}/commits/${TYPECHANGE}`)).body.stats).toEqual({ additions: 2, deletions: 2, total: 4 })
  })

  it('splits files only at real line starts, whatever other line breaks their lines hold', async () => {
    const res = await api(server).get(`${repo(breaks.id)}/commits/${breaks.sha}/diff`)
    expect(res.body.map((d: { new_path: string; diff: string }) => [d.new_path, d.diff])).toEqual([
      ['a.txt', `@@ -0,0 +1 @@\n+${CR}`],
      ['b.txt', '@@ -0,0 +1 @@\n+b\n'],
      ['c.txt', `@@ -0,0 +1 @@\n+${LS}`],
      ['d.txt', '@@ -0,0 +1 @@\n+d\n'],
    ])
    expect((await api(server).get(`${repo(breaks.id)}/commits/${breaks.sha}`)).body.stats).toEqual({ additions: 4, deletions: 0, total: 4 })
  })
})
