// The Discussions API on issues and merge requests: threads, replies, individual notes, edits, and the resolution of
// merge request threads with its effect on merging when the project requires resolved threads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Discussion } from '../../src/contract/endpoints/discussions.js'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../helpers/issues.js'
import { commit, create } from '../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './merge-requests/fixtures.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
let issue: any
let mr: any
let master: any
let feature: any

const HEX40 = /^[0-9a-f]{40}$/
const noteAuthor = (u: TestUser) => ({ ...userBasic(server, u), email: `${u.username}@example.com`, created_at: NOW })
const issueThreads = (rest = '') => issuePath(project.id, issue.iid, `/discussions${rest}`)
const mrThreads = (rest = '') => mrPath(project.id, mr.iid, `/discussions${rest}`)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  issue = await createIssue(alice.api, project.id, { title: 'Discuss' })
  master = await seedMaster(alice.api, project.id)
  feature = await branchWith(alice.api, project.id, 'feature', 'a.txt', 'one\ntwo\n')
  mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
})
afterAll(() => server.close())

describe('issue discussions', () => {
  let thread: any

  it('starts a thread (201): a DiscussionNote in a discussion with a 40-hex id', async () => {
    const res = expectStatus(await bob.api.post(issueThreads(), { body: 'Shall we?' }), 201)
    thread = Discussion.strict().parse(res.body)
    expect(thread.id).toMatch(HEX40)
    expect(thread).toEqual({
      id: thread.id, individual_note: false,
      notes: [{
        id: thread.notes[0].id, type: 'DiscussionNote', body: 'Shall we?', attachment: null, author: noteAuthor(bob), created_at: NOW, updated_at: NOW,
        system: false, noteable_id: issue.id, noteable_type: 'Issue', noteable_iid: issue.iid, resolvable: false,
      }],
    })
    expect((await alice.api.get(issuePath(project.id, issue.iid))).body.user_notes_count).toBe(1)
  })

  it('lists threads and individual notes (Notes API) by their first note, paginated', async () => {
    const single = expectStatus(await alice.api.post(issuePath(project.id, issue.iid, '/notes'), { body: 'Aside' }), 201).body
    const res = expectStatus(await alice.api.get(issueThreads(), { query: { per_page: 1, page: 2 } }), 200)
    expect(res.headers.get('x-total')).toBe('2')
    expect(res.body).toHaveLength(1)
    expect(res.body[0].id).toMatch(HEX40)
    expect(res.body[0]).toEqual({ id: res.body[0].id, individual_note: true, notes: [{ ...single, type: null }] })
    const all = expectStatus(await alice.api.get(issueThreads()), 200).body
    expect(all.map((d: any) => [d.individual_note, d.notes.map((n: any) => n.body)])).toEqual([[false, ['Shall we?']], [true, ['Aside']]])
  })

  it('replies (201 with the note); a reply to an individual note makes it a thread', async () => {
    const reply = expectStatus(await alice.api.post(issueThreads(`/${thread.id}/notes`), { body: 'Yes' }), 201).body
    expect(reply).toEqual({ ...thread.notes[0], id: reply.id, body: 'Yes', author: noteAuthor(alice) })
    const single = (await alice.api.get(issueThreads())).body[1]
    expectStatus(await bob.api.post(issueThreads(`/${single.id}/notes`), { body: 'Indeed' }), 201)
    const converted = expectStatus(await alice.api.get(issueThreads(`/${single.id}`)), 200).body
    expect([converted.individual_note, converted.notes.map((n: any) => [n.type, n.body])]).toEqual([false, [['DiscussionNote', 'Aside'], ['DiscussionNote', 'Indeed']]])
    const listed = expectStatus(await alice.api.get(issueThreads(`/${thread.id}/notes`)), 200).body
    expect(listed.map((n: any) => n.body)).toEqual(['Shall we?', 'Yes'])
    expect((await alice.api.get(issueThreads(`/${thread.id}/notes/${reply.id}`))).body).toEqual(reply)
  })

  it('answers 404 for unknown discussions and notes, 400 for a missing or blank body', async () => {
    const unknown = 'f'.repeat(40)
    expect(await statusAndBody(alice.api.get(issueThreads(`/${unknown}`)))).toEqual([404, { message: '404 Discussion Not Found' }])
    expect(await statusAndBody(alice.api.get(issueThreads(`/${unknown}/notes`)))).toEqual([404, { message: '404 Notes Not Found' }])
    expect(await statusAndBody(alice.api.post(issueThreads(`/${unknown}/notes`), { body: 'x' }))).toEqual([404, { message: '404 Discussion Not Found' }])
    expect(await statusAndBody(alice.api.get(issueThreads(`/${thread.id}/notes/999999`)))).toEqual([404, { message: '404 Note Not Found' }])
    expect(await statusAndBody(alice.api.post(issueThreads(), {}))).toEqual([400, { message: '400 (Bad request) "body" not given' }])
    expect(await statusAndBody(alice.api.post(issueThreads(), { body: ' ' }))).toEqual([400, { message: 'Note {:note=>["can\'t be blank"]}' }])
    expect(await statusAndBody(alice.api.get(issuePath(project.id, 999, '/discussions')))).toEqual([404, { message: '404 Issue Not Found' }])
  })

  it('edits a note (body) and refuses both or neither of body and resolved, and resolving an issue note', async () => {
    const noteId = thread.notes[0].id
    const edited = expectStatus(await bob.api.put(issueThreads(`/${thread.id}/notes/${noteId}`), { body: 'Shall we, then?' }), 200).body
    expect([edited.body, edited.type]).toEqual(['Shall we, then?', 'DiscussionNote'])
    expect(await statusAndBody(bob.api.put(issueThreads(`/${thread.id}/notes/${noteId}`), { body: 'x', resolved: true })))
      .toEqual([400, { error: 'body, resolved are mutually exclusive' }])
    expect(await statusAndBody(bob.api.put(issueThreads(`/${thread.id}/notes/${noteId}`), {})))
      .toEqual([400, { error: 'body, resolved are missing, exactly one parameter must be provided' }])
    expect(await statusAndBody(bob.api.put(issueThreads(`/${thread.id}/notes/${noteId}`), { resolved: true })))
      .toEqual([400, { message: '400 Bad request - Note is not resolvable' }])
    expect((await carol.api.put(issueThreads(`/${thread.id}/notes/${noteId}`), { body: 'mine now' })).status).toBe(403)
  })

  it('deletes notes (204); the last note takes its discussion with it', async () => {
    const fresh = expectStatus(await carol.api.post(issueThreads(), { body: 'Short-lived' }), 201).body
    expect((await carol.api.del(issueThreads(`/${fresh.id}/notes/${fresh.notes[0].id}`))).status).toBe(204)
    expect((await alice.api.get(issueThreads(`/${fresh.id}`))).status).toBe(404)
  })

  it('lets only members start threads on a locked issue', async () => {
    const locked = await createIssue(alice.api, project.id, { title: 'Locked' })
    expectStatus(await alice.api.put(issuePath(project.id, locked.iid), { discussion_locked: true }), 200)
    expect(await statusAndBody(carol.api.post(issuePath(project.id, locked.iid, '/discussions'), { body: 'Hi' }))).toEqual([403, { message: '403 Forbidden' }])
    expectStatus(await bob.api.post(issuePath(project.id, locked.iid, '/discussions'), { body: 'Hi' }), 201)
  })
})

describe('merge request threads', () => {
  let thread: any

  it('starts resolvable threads: resolved false, resolved_by and resolved_at null', async () => {
    thread = expectStatus(await bob.api.post(mrThreads(), { body: 'Rename this?' }), 201).body
    expect(thread.notes).toEqual([{
      id: thread.notes[0].id, type: 'DiscussionNote', body: 'Rename this?', attachment: null, author: noteAuthor(bob), created_at: NOW, updated_at: NOW,
      system: false, noteable_id: mr.id, noteable_type: 'MergeRequest', noteable_iid: mr.iid, resolvable: true, resolved: false, resolved_by: null, resolved_at: null,
    }])
    const plain = expectStatus(await bob.api.post(mrPath(project.id, mr.iid, '/notes'), { body: 'Plain' }), 201).body
    expect([plain.type, plain.resolvable, 'resolved' in plain]).toEqual([null, false, false])
  })

  it('resolves and unresolves a whole thread (developers, the MR author); others and individual notes get 403', async () => {
    expectStatus(await alice.api.post(mrThreads(`/${thread.id}/notes`), { body: 'Sure' }), 201)
    expect(await statusAndBody(carol.api.put(mrThreads(`/${thread.id}`), { resolved: true }))).toEqual([403, { message: '403 Forbidden' }])
    const resolved = expectStatus(await bob.api.put(mrThreads(`/${thread.id}`), { resolved: true }), 200).body
    expect(resolved.notes.map((n: any) => [n.body, n.resolved, n.resolved_by, n.resolved_at]))
      .toEqual([['Rename this?', true, userBasic(server, bob), NOW], ['Sure', true, userBasic(server, bob), NOW]])
    const listed = (await alice.api.get(mrPath(project.id, mr.iid, '/notes'))).body.find((n: any) => n.body === 'Sure')
    expect([listed.resolved, listed.resolved_by]).toEqual([true, userBasic(server, bob)])
    const back = expectStatus(await alice.api.put(mrThreads(`/${thread.id}`), { resolved: false }), 200).body
    expect(back.notes.map((n: any) => [n.resolved, n.resolved_by, n.resolved_at])).toEqual([[false, null, null], [false, null, null]])
    const individual = (await alice.api.get(mrThreads())).body.find((d: any) => d.individual_note && !d.notes[0].system)
    expect((await alice.api.put(mrThreads(`/${individual.id}`), { resolved: true })).status).toBe(403)
    expect(await statusAndBody(alice.api.put(mrThreads(`/${'0'.repeat(40)}`), { resolved: true }))).toEqual([404, { message: '404 Discussion Not Found' }])
    expect(await statusAndBody(alice.api.put(mrThreads(`/${thread.id}`), {}))).toEqual([400, { message: '400 (Bad request) "resolved" not given' }])
  })

  it('resolves one note through PUT …/notes/:note_id, its own author included', async () => {
    const noteId = thread.notes[0].id
    const one = expectStatus(await bob.api.put(mrThreads(`/${thread.id}/notes/${noteId}`), { resolved: true }), 200).body
    expect([one.resolved, one.resolved_by, one.resolved_at]).toEqual([true, userBasic(server, bob), NOW])
    const d = (await alice.api.get(mrThreads(`/${thread.id}`))).body
    expect(d.notes.map((n: any) => n.resolved)).toEqual([true, false])
    expectStatus(await bob.api.put(mrThreads(`/${thread.id}/notes/${noteId}`), { resolved: false }), 200)
  })

  it('blocks the merge while a thread is unresolved when the project requires it: 405, discussions_not_resolved', async () => {
    const single = async () => (await alice.api.get(mrPath(project.id, mr.iid))).body
    expect([(await single()).blocking_discussions_resolved, (await single()).detailed_merge_status]).toEqual([true, 'mergeable'])
    expectStatus(await alice.api.put(`/projects/${project.id}`, { only_allow_merge_if_all_discussions_are_resolved: true }), 200)
    expect([(await single()).blocking_discussions_resolved, (await single()).detailed_merge_status]).toEqual([false, 'discussions_not_resolved'])
    const listed = (await alice.api.get(`/projects/${project.id}/merge_requests`)).body[0]
    expect([listed.blocking_discussions_resolved, listed.detailed_merge_status]).toEqual([false, 'discussions_not_resolved'])
    expect(await statusAndBody(alice.api.put(mrPath(project.id, mr.iid, '/merge'), {}))).toEqual([405, { message: '405 Method Not Allowed' }])
    expectStatus(await alice.api.put(mrThreads(`/${thread.id}`), { resolved: true }), 200)
    expect([(await single()).blocking_discussions_resolved, (await single()).detailed_merge_status]).toEqual([true, 'mergeable'])
    expect(expectStatus(await alice.api.put(mrPath(project.id, mr.iid, '/merge'), {}), 200).body.state).toBe('merged')
  })
})

describe('diff threads on a merge request', () => {
  let other: any
  beforeAll(async () => {
    await branchWith(alice.api, project.id, 'second', 'b.txt', 'alpha\nbeta\n')
    other = await openMergeRequest(alice.api, project.id, { source_branch: 'second', title: 'Second' })
  })
  const position = (over: Record<string, unknown> = {}) => ({
    base_sha: master.id, start_sha: master.id, head_sha: other.sha, position_type: 'text', new_path: 'b.txt', new_line: 2, ...over,
  })

  it('starts a DiffNote thread on an added line and answers its position', async () => {
    const head = (await alice.api.get(mrPath(project.id, other.iid))).body.sha
    other.sha = head
    const d = expectStatus(await bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'Why beta?', position: position() }), 201).body
    expect(d.individual_note).toBe(false)
    expect(d.notes[0]).toMatchObject({ type: 'DiffNote', commit_id: null, resolvable: true, resolved: false })
    expect(d.notes[0].position).toEqual({
      base_sha: master.id, start_sha: master.id, head_sha: head, old_path: 'b.txt', new_path: 'b.txt', position_type: 'text', old_line: null, new_line: 2,
      line_range: null,
    })
  })

  it('replies in a diff thread with its position; a system note takes no replies (400)', async () => {
    const [d] = (await alice.api.get(mrPath(project.id, other.iid, '/discussions'))).body.filter((t: any) => t.notes[0].type === 'DiffNote')
    const reply = expectStatus(await alice.api.post(mrPath(project.id, other.iid, `/discussions/${d.id}/notes`), { body: 'Because' }), 201).body
    expect([reply.type, reply.position, reply.resolvable]).toEqual(['DiffNote', d.notes[0].position, true])
    await commit(alice.api, project.id, { branch: 'second', commit_message: 'More', actions: [create('c.txt', 'c\n')] })
    await server.app.tasks.idle()
    const system = (await alice.api.get(mrPath(project.id, other.iid, '/discussions'))).body.find((t: any) => t.notes[0].system)
    expect(system.notes[0].body).toBe('added 1 commit')
    const res = await alice.api.post(mrPath(project.id, other.iid, `/discussions/${system.id}/notes`), { body: 'Hm' })
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - Discussion can not be replied to.' }])
  })

  it('takes an image position (a spot, not a line) unchecked', async () => {
    const image = { base_sha: master.id, start_sha: master.id, head_sha: other.sha, position_type: 'image', new_path: 'b.txt', width: 10, height: 20, x: 1, y: 2 }
    const d = expectStatus(await bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'Here', position: image }), 201).body
    expect(d.notes[0].position).toEqual({ ...image, old_path: 'b.txt' })
  })

  it('keeps the line_range of a multi-line note as given', async () => {
    const range = { start: { line_code: 'abc_0_1', type: 'new', new_line: 1 }, end: { line_code: 'abc_0_2', type: 'new', new_line: 2 } }
    const d = expectStatus(await bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'Both lines', position: { ...position(), line_range: range } }), 201).body
    expect(d.notes[0].position.line_range).toEqual(range)
  })

  it('refuses a line that is not on the diff, and a position without its shas', async () => {
    expect(await statusAndBody(bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'x', position: position({ new_line: 9 }) })))
      .toEqual([400, { message: 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' }])
    expect(await statusAndBody(bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'x', position: position({ new_path: 'nope.txt' }) })))
      .toEqual([400, { message: 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' }])
    expect(await statusAndBody(bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'x', position: { position_type: 'text', new_line: 1 } })))
      .toEqual([400, { error: 'position[base_sha] is missing, position[start_sha] is missing, position[head_sha] is missing' }])
    expect(await statusAndBody(bob.api.post(mrPath(project.id, other.iid, '/discussions'), { body: 'x', position: position({ base_sha: 'f'.repeat(40) }) })))
      .toEqual([400, { message: 'Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' }])
  })
})

async function statusAndBody(reply: Promise<{ status: number; body: unknown }>) {
  const r = await reply
  return [r.status, r.body]
}
