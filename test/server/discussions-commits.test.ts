// Discussions on commits (one layer with commit comments) and on project snippets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CommitDiscussion, SnippetDiscussion } from '../../src/contract/endpoints/discussions.js'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { userBasic } from '../helpers/issues.js'
import { commit, create, update } from '../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any
let first: any
let second: any
let third: any

const noteAuthor = (u: TestUser) => ({ ...userBasic(server, u), email: `${u.username}@example.com`, created_at: NOW })
const commitThreads = (sha: string, rest = '') => `/projects/${project.id}/repository/commits/${sha}/discussions${rest}`
const lineCode = { message: 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' }

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  first = await commit(alice.api, project.id, { branch: 'master', commit_message: 'Initial commit', actions: [create('README.md', '# demo\n')] })
  second = await commit(alice.api, project.id, { branch: 'master', commit_message: 'More', actions: [update('README.md', '# demo!\nmore\n')] })
  third = await commit(alice.api, project.id, { branch: 'master', commit_message: 'Louder', actions: [update('README.md', '# demo!\nMORE\n')] })
})
afterAll(() => server.close())

describe('commit discussions', () => {
  let thread: any

  it('has none before the first comment, and 404 for an unknown commit', async () => {
    const res = expectStatus(await alice.api.get(commitThreads(second.id)), 200)
    expect([res.body, res.headers.get('x-total')]).toEqual([[], '0'])
    const missing = await alice.api.get(commitThreads('0'.repeat(40)))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }])
    expect((await alice.api.get(commitThreads(second.id, `/${'a'.repeat(40)}`))).status).toBe(404)
  })

  it('starts a thread on a commit: noteable_type Commit, no noteable id or iid', async () => {
    const res = expectStatus(await bob.api.post(commitThreads(second.id), { body: 'Nice commit' }), 201)
    thread = CommitDiscussion.strict().parse(res.body)
    expect(thread).toEqual({
      id: thread.id, individual_note: false,
      notes: [{
        id: thread.notes[0].id, type: 'DiscussionNote', body: 'Nice commit', attachment: null, author: noteAuthor(bob), created_at: NOW, updated_at: NOW,
        system: false, noteable_id: null, noteable_type: 'Commit', noteable_iid: null, resolvable: false,
      }],
    })
    const reply = expectStatus(await alice.api.post(commitThreads(second.id, `/${thread.id}/notes`), { body: 'Thanks' }), 201).body
    expect([reply.type, reply.noteable_type, reply.author.username]).toEqual(['DiscussionNote', 'Commit', 'alice'])
  })

  it('places DiffNotes on added, removed and unchanged lines of the diff, and refuses lines not on it', async () => {
    const position = (over: Record<string, unknown>) => ({ base_sha: first.id, start_sha: first.id, head_sha: second.id, position_type: 'text', new_path: 'README.md', ...over })
    const added = expectStatus(await bob.api.post(commitThreads(second.id), { body: 'Added', position: position({ new_line: 2 }) }), 201).body
    expect(added.notes[0]).toMatchObject({ type: 'DiffNote', position: { ...position({}), old_path: 'README.md', old_line: null, new_line: 2 } })
    expect('commit_id' in added.notes[0]).toBe(false)
    expectStatus(await bob.api.post(commitThreads(second.id), { body: 'Removed', position: position({ old_line: 1 }) }), 201)
    const bad = await bob.api.post(commitThreads(second.id), { body: 'Nowhere', position: position({ new_line: 7 }) })
    expect([bad.status, bad.body]).toEqual([400, lineCode])
    const context = await bob.api.post(commitThreads(second.id), { body: 'Both', position: position({ old_line: 1, new_line: 1 }) })
    expect([context.status, context.body]).toEqual([400, lineCode])
    const unchanged = { base_sha: second.id, start_sha: second.id, head_sha: third.id, position_type: 'text', new_path: 'README.md', old_line: 1, new_line: 1 }
    const kept = expectStatus(await bob.api.post(commitThreads(third.id), { body: 'Unchanged', position: unchanged }), 201).body
    expect(kept.notes[0].position).toEqual({ ...unchanged, old_path: 'README.md', line_range: null })
  })

  it('is one layer with commit comments: each shows in the other', async () => {
    const placed = expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits/${second.id}/comments`, { note: 'On a line', path: 'README.md', line: 2, line_type: 'new' }), 201).body
    expect([placed.path, placed.line, placed.line_type]).toEqual(['README.md', 2, 'new'])
    const comments = expectStatus(await alice.api.get(`/projects/${project.id}/repository/commits/${second.id}/comments`), 200).body
    expect(comments.map((c: any) => [c.note, c.path, c.line, c.line_type])).toEqual([
      ['Nice commit', null, null, null], ['Thanks', null, null, null], ['Added', 'README.md', 2, 'new'], ['Removed', 'README.md', 1, 'old'],
      ['On a line', 'README.md', 2, 'new'],
    ])
    const threads = expectStatus(await alice.api.get(commitThreads(second.id)), 200).body
    expect(threads.map((d: any) => [d.individual_note, d.notes.map((n: any) => [n.type, n.body])])).toEqual([
      [false, [['DiscussionNote', 'Nice commit'], ['DiscussionNote', 'Thanks']]], [false, [['DiffNote', 'Added']]], [false, [['DiffNote', 'Removed']]],
      [false, [['LegacyDiffNote', 'On a line']]],
    ])
    const plain = expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits/${first.id}/comments`, { note: 'Plain' }), 201).body
    expect(plain.path).toBe(null)
    const [single] = expectStatus(await alice.api.get(commitThreads(first.id)), 200).body
    expect([single.individual_note, single.notes[0].type, single.notes[0].body]).toEqual([true, null, 'Plain'])
    const reply = await alice.api.post(commitThreads(first.id, `/${single.id}/notes`), { body: 'Re' })
    expect([reply.status, reply.body]).toEqual([400, { message: '400 Bad request - Discussion can not be replied to.' }])
    const legacy = threads[3]
    const onLine = expectStatus(await bob.api.post(commitThreads(second.id, `/${legacy.id}/notes`), { body: 'Same line' }), 201).body
    expect(onLine.type).toBe('LegacyDiffNote')
  })

  it('edits and deletes commit notes through their discussion; they do not resolve (400)', async () => {
    const noteId = thread.notes[0].id
    expect(expectStatus(await bob.api.put(commitThreads(second.id, `/${thread.id}/notes/${noteId}`), { body: 'Very nice' }), 200).body.body).toBe('Very nice')
    const resolve = await bob.api.put(commitThreads(second.id, `/${thread.id}/notes/${noteId}`), { resolved: true })
    expect([resolve.status, resolve.body]).toEqual([400, { message: '400 Bad request - Note is not resolvable' }])
    expect((await bob.api.del(commitThreads(second.id, `/${thread.id}/notes/${noteId}`))).status).toBe(204)
    expect((await alice.api.get(commitThreads(second.id, `/${thread.id}`))).body.notes.map((n: any) => n.body)).toEqual(['Thanks'])
  })
})

describe('snippet discussions', () => {
  it('starts, lists and replies to threads on a project snippet with the snippet note shape', async () => {
    const snippet = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'S', file_name: 'a.txt', content: 'x', visibility: 'public' }), 201).body
    const path = `/projects/${project.id}/snippets/${snippet.id}/discussions`
    const d = SnippetDiscussion.strict().parse(expectStatus(await bob.api.post(path, { body: 'Hmm' }), 201).body)
    expect(d.notes[0]).toEqual({
      id: d.notes[0].id, type: 'DiscussionNote', body: 'Hmm', attachment: null, author: noteAuthor(bob), created_at: NOW, updated_at: NOW,
      system: false, noteable_id: snippet.id, noteable_type: 'Snippet', noteable_iid: null, resolvable: false,
    })
    expectStatus(await alice.api.post(`${path}/${d.id}/notes`, { body: 'Ok' }), 201)
    const listed = expectStatus(await alice.api.get(path), 200).body
    expect(listed.map((t: any) => t.notes.map((n: any) => n.body))).toEqual([['Hmm', 'Ok']])
    expect((await alice.api.get(`/projects/${project.id}/snippets/999/discussions`)).status).toBe(404)
  })
})
