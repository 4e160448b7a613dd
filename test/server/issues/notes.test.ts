// Notes on issues: list order, read, create (award emoji, created_at), modify, delete, locked discussions, user_notes_count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AwardEmoji, Note } from '../../../src/contract/entities/issues.js'
import { createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-02T03:04:05.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
let issue: any
const notes = (rest = '') => issuePath(project.id, issue.iid, `/notes${rest}`)

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  issue = await createIssue(alice.api, project.id, { title: 'Discuss' })
})
afterAll(() => server.close())

describe('creating and reading notes', () => {
  it('answers 201 with the note, its author with email and created_at, and counts it', async () => {
    clock.set('2024-01-03T00:00:00.000Z')
    const res = await bob.api.post(notes(), { body: 'First!' })
    expect(res.status).toBe(201)
    expect(Note.strict().parse(res.body)).toEqual({
      id: res.body.id, body: 'First!', attachment: null,
      author: { ...userBasic(server, bob), email: 'bob@example.com', created_at: '2024-01-02T03:04:05.000Z' },
      created_at: '2024-01-03T00:00:00.000Z', updated_at: '2024-01-03T00:00:00.000Z', system: false,
      noteable_id: issue.id, noteable_type: 'Issue', noteable_iid: issue.iid, resolvable: false, type: null,
    })
    expect((await alice.api.get(notes(`/${res.body.id}`))).body).toEqual(res.body)
    const after = (await alice.api.get(issuePath(project.id, issue.iid))).body
    expect([after.user_notes_count, after.updated_at]).toEqual([1, '2024-01-03T00:00:00.000Z'])
  })

  it('lists newest first by default, and in the asked order', async () => {
    clock.set('2024-01-04T00:00:00.000Z')
    expectStatus(await carol.api.post(notes(), { body: 'Second' }), 201)
    expect((await alice.api.get(notes())).body.map((n: any) => n.body)).toEqual(['Second', 'First!'])
    expect((await alice.api.get(notes(), { query: { sort: 'asc', order_by: 'updated_at' } })).body.map((n: any) => n.body)).toEqual(['First!', 'Second'])
    expect((await alice.api.get(notes(), { query: { per_page: 1 } })).headers.get('x-total')).toBe('2')
  })

  it('takes created_at from the owner only', async () => {
    expect((await alice.api.post(notes(), { body: 'Old', created_at: '2020-01-01T00:00:00Z' })).body.created_at).toBe('2020-01-01T00:00:00.000Z')
    expect((await bob.api.post(notes(), { body: 'Not old', created_at: '2020-01-01T00:00:00Z' })).body.created_at).toBe('2024-01-04T00:00:00.000Z')
  })

  it('answers 400 to a missing or blank body, and 404 to unknown notes and issues', async () => {
    expect((await bob.api.post(notes(), {})).body).toEqual({ message: '400 (Bad request) "body" not given' })
    expect((await bob.api.post(notes(), { body: '  ' })).body).toEqual({ message: 'Note {:note=>["can\'t be blank"]}' })
    expect((await bob.api.get(notes('/9999'))).body).toEqual({ message: '404 Note Not Found' })
    expect((await bob.api.get(issuePath(project.id, 99, '/notes'))).body).toEqual({ message: '404 Issue Not Found' })
  })
})

describe('award emoji', () => {
  it('awards an emoji instead of writing a note when the body is only :thumbsup:', async () => {
    const before = (await alice.api.get(issuePath(project.id, issue.iid))).body.user_notes_count
    const res = await carol.api.post(notes(), { body: ':thumbsup:' })
    expect(res.status).toBe(201)
    expect(AwardEmoji.strict().parse(res.body)).toEqual({
      id: res.body.id, name: 'thumbsup', user: userBasic(server, carol), created_at: clock.now().toISOString(), updated_at: clock.now().toISOString(),
      awardable_id: issue.id, awardable_type: 'Issue', url: null,
    })
    expectStatus(await bob.api.post(notes(), { body: ':-1:' }), 201)
    const after = (await alice.api.get(issuePath(project.id, issue.iid))).body
    expect([after.upvotes, after.downvotes, after.user_notes_count]).toEqual([1, 1, before])
  })

  it('takes the award back when the same emoji is sent again, and keeps unknown emoji as text', async () => {
    expect((await carol.api.post(notes(), { body: ':+1:' })).body.name).toBe('thumbsup')
    expect((await alice.api.get(issuePath(project.id, issue.iid))).body.upvotes).toBe(0)
    expect((await carol.api.post(notes(), { body: ':notanemoji:' })).body.body).toBe(':notanemoji:')
  })
})

describe('editing and deleting notes', () => {
  it('lets authors edit their own notes and maintainers anyone’s; others get 403', async () => {
    const note = expectStatus(await carol.api.post(notes(), { body: 'typo' }), 201).body
    clock.set('2024-01-05T00:00:00.000Z')
    const edited = await carol.api.put(notes(`/${note.id}`), { body: 'fixed' })
    expect([edited.status, edited.body.body, edited.body.updated_at, edited.body.created_at]).toEqual([200, 'fixed', '2024-01-05T00:00:00.000Z', note.created_at])
    expect((await bob.api.put(notes(`/${note.id}`), { body: 'hijack' })).status).toBe(403)
    expect((await alice.api.put(notes(`/${note.id}`), { body: 'moderated' })).body.body).toBe('moderated')
    expect((await alice.api.get(notes(`/${note.id}`))).body.body).toBe('moderated')
  })

  it('deletes with 204 and uncounts the note; system notes cannot be changed', async () => {
    const note = expectStatus(await bob.api.post(notes(), { body: 'bye' }), 201).body
    const count = (await alice.api.get(issuePath(project.id, issue.iid))).body.user_notes_count
    const res = await bob.api.del(notes(`/${note.id}`))
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await bob.api.get(notes(`/${note.id}`))).status).toBe(404)
    expect((await alice.api.get(issuePath(project.id, issue.iid))).body.user_notes_count).toBe(count - 1)
    expectStatus(await alice.api.put(issuePath(project.id, issue.iid), { state_event: 'close' }), 200)
    const system = (await alice.api.get(notes())).body.find((n: any) => n.system)
    expect(system.body).toBe('closed')
    expect((await alice.api.put(notes(`/${system.id}`), { body: 'x' })).status).toBe(403)
    expect((await alice.api.del(notes(`/${system.id}`))).status).toBe(403)
  })
})

describe('locked discussions', () => {
  it('lets only project members comment', async () => {
    const locked = await createIssue(alice.api, project.id, { title: 'Locked' })
    expectStatus(await alice.api.put(issuePath(project.id, locked.iid), { discussion_locked: true }), 200)
    const res = await carol.api.post(issuePath(project.id, locked.iid, '/notes'), { body: 'let me in' })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await bob.api.post(issuePath(project.id, locked.iid, '/notes'), { body: 'member' })).status).toBe(201)
    expect((await alice.api.get(issuePath(project.id, locked.iid, '/notes'))).body.filter((n: any) => !n.system).map((n: any) => n.body)).toEqual(['member'])
  })
})
