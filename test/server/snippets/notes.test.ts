// Notes and award emoji on project snippets through the shared discussion layer, with api-v4.md's single-read shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SnippetNote } from '../../../src/contract/entities/snippets.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let stranger: TestUser
let project: any
let snippet: any
let hidden: any

const notes = (rest = '', s = snippet) => `/projects/${project.id}/snippets/${s.id}/notes${rest}`
const awards = (rest = '') => `/projects/${project.id}/snippets/${snippet.id}/award_emoji${rest}`

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  stranger = await createUser(server, 'stranger')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  snippet = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'Snip', file_name: 's.rb', content: 'x', visibility: 'public' }), 201).body
  hidden = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'Hidden', file_name: 'h', content: 'h', visibility: 'private' }), 201).body
})
afterAll(() => server.close())

describe('notes', () => {
  it('comments with the Note entity (noteable_type Snippet, no iid), edits and deletes', async () => {
    const note = expectStatus(await bob.api.post(notes(), { body: 'Nice' }), 201).body
    const author = { ...userBasic(server, bob), email: 'bob@example.com', created_at: NOW }
    expect(note).toEqual({
      id: note.id, body: 'Nice', attachment: null, author, created_at: NOW, updated_at: NOW, system: false,
      noteable_id: snippet.id, noteable_type: 'Snippet', noteable_iid: null, resolvable: false, type: null,
    })
    expect(SnippetNote.parse(note)).toEqual(note)
    expect((await alice.api.get(notes())).body).toEqual([note])
    expect((await alice.api.get(notes(`/${note.id}`))).body).toEqual({
      id: note.id, title: 'Snip', file_name: 's.rb', author, expires_at: null, updated_at: NOW, created_at: NOW,
    })
    expect(expectStatus(await bob.api.put(notes(`/${note.id}`), { body: 'Nicer' }), 200).body.body).toBe('Nicer')
    expect((await stranger.api.put(notes(`/${note.id}`), { body: 'mine now' })).status).toBe(403)
    expect((await bob.api.del(notes(`/${note.id}`))).status).toBe(204)
    expect((await alice.api.get(notes())).body).toEqual([])
    expect((await alice.api.get(notes(`/${note.id}`))).body).toEqual({ message: '404 Note Not Found' })
  })

  it('keeps a private snippet\'s notes from non-members (404) and refuses blank bodies', async () => {
    expect((await stranger.api.get(notes('', hidden))).body).toEqual({ message: '404 Snippet Not Found' })
    expect((await stranger.api.post(notes('', hidden), { body: 'hi' })).status).toBe(404)
    const blank = await bob.api.post(notes(), { body: '  ' })
    expect([blank.status, blank.body]).toEqual([400, { message: 'Note {:note=>["can\'t be blank"]}' }])
    expect((await bob.api.post(notes(), {})).body).toEqual({ message: '400 (Bad request) "body" not given' })
  })

  it('deletes its notes and awards with the snippet', async () => {
    const s = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'Gone', file_name: 'g', content: 'g', visibility: 'public' }), 201).body
    expectStatus(await bob.api.post(notes('', s), { body: 'bye' }), 201)
    expectStatus(await bob.api.post(`/projects/${project.id}/snippets/${s.id}/award_emoji`, { name: 'wave' }), 201)
    expect((await alice.api.del(`/projects/${project.id}/snippets/${s.id}`)).status).toBe(204)
    const db = server.app.db
    expect(db.prepare('SELECT COUNT(*) AS n FROM notes WHERE noteable_id = ?').get(s.id)).toEqual({ n: 0 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM award_emoji WHERE noteable_id = ?').get(s.id)).toEqual({ n: 0 })
    expect(db.prepare('SELECT COUNT(*) AS n FROM noteables WHERE id = ?').get(s.id)).toEqual({ n: 0 })
  })
})

describe('award emoji', () => {
  it('awards, lists, reads, refuses a second of the same, and takes back only one\'s own', async () => {
    const award = expectStatus(await bob.api.post(awards(), { name: 'thumbsup' }), 201).body
    expect(award).toEqual({ id: award.id, name: 'thumbsup', user: userBasic(server, bob), created_at: NOW, updated_at: NOW, awardable_id: snippet.id, awardable_type: 'Snippet', url: null })
    const twice = await bob.api.post(awards(), { name: 'thumbsup' })
    expect([twice.status, twice.body]).toEqual([404, { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' }])
    const viaNote = expectStatus(await alice.api.post(notes(), { body: ':tada:' }), 201).body
    expect([viaNote.name, viaNote.awardable_type, viaNote.awardable_id]).toEqual(['tada', 'Snippet', snippet.id])
    expect((await alice.api.get(awards())).body.map((a: any) => [a.name, a.user.username])).toEqual([['thumbsup', 'bob'], ['tada', 'alice']])
    expect((await alice.api.get(awards(`/${award.id}`))).body).toEqual(award)
    expect((await alice.api.del(awards(`/${award.id}`))).status).toBe(401)
    expect((await bob.api.del(awards(`/${award.id}`))).status).toBe(204)
    expect((await api(server).get(awards())).status).toBe(401)
  })
})

describe('award emoji on notes', () => {
  it('awards a note (awardable_type Note), refuses a second, lets only the awarder take it back, and goes with the note', async () => {
    const note = expectStatus(await alice.api.post(notes(), { body: 'Award me' }), 201).body
    const on = (rest = '') => notes(`/${note.id}/award_emoji${rest}`)
    const award = expectStatus(await bob.api.post(on(), { name: '+1' }), 201).body
    expect(award).toEqual({ id: award.id, name: 'thumbsup', user: userBasic(server, bob), created_at: NOW, updated_at: NOW, awardable_id: note.id, awardable_type: 'Note', url: null })
    const twice = await bob.api.post(on(), { name: 'thumbsup' })
    expect([twice.status, twice.body]).toEqual([404, { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' }])
    const unknown = await bob.api.post(on(), { name: 'not_an_emoji' })
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Award Emoji {:name=>["is not a valid emoji name"]} Not Found' }])
    expect((await alice.api.get(on())).body).toEqual([award])
    expect((await alice.api.get(on(`/${award.id}`))).body).toEqual(award)
    // The snippet's own awards do not include the note's.
    expect((await alice.api.get(awards())).body.map((a: any) => a.awardable_type)).not.toContain('Note')
    expect((await alice.api.del(on(`/${award.id}`))).status).toBe(401)
    expect((await stranger.api.get(notes(`/${note.id}/award_emoji`, hidden))).body).toEqual({ message: '404 Snippet Not Found' })
    expect((await alice.api.get(notes('/999999/award_emoji'))).body).toEqual({ message: '404 Note Not Found' })
    expect((await bob.api.del(on(`/${award.id}`))).status).toBe(204)
    expect((await alice.api.get(on(`/${award.id}`))).body).toEqual({ message: '404 Award Emoji Not Found' })
    expectStatus(await bob.api.post(on(), { name: 'heart' }), 201)
    expect((await alice.api.del(notes(`/${note.id}`))).status).toBe(204)
    expect(server.app.db.prepare('SELECT COUNT(*) AS n FROM note_award_emoji WHERE note_id = ?').get(note.id)).toEqual({ n: 0 })
  })
})
