// Project snippets: CRUD with exact bodies, raw content, user agent details, who reads and who writes, bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Snippet } from '../../../src/contract/entities/snippets.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let guest: TestUser
let stranger: TestUser
let project: any
let secret: any

const path = (id: number, rest = '') => `/projects/${project.id}/snippets${id ? `/${id}` : ''}${rest}`

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  guest = await createUser(server, 'guest')
  stranger = await createUser(server, 'stranger')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  secret = await createProject(alice.api, { name: 'secret', visibility: 'private' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
})
afterAll(() => server.close())

const expected = (id: number, over: Record<string, unknown> = {}) => {
  const web = `${server.url}/alice/demo/-/snippets/${id}`
  return {
    id, title: 'Hello', description: null, visibility: 'public', author: userBasic(server, alice), created_at: NOW, updated_at: NOW,
    project_id: project.id, web_url: web, raw_url: `${web}/raw`, file_name: 'hello.rb',
    files: [{ path: 'hello.rb', raw_url: `${web}/raw/main/hello.rb` }], ...over,
  }
}

describe('create, read, update, delete', () => {
  it('creates from file_name and content, answers the exact entity and reads it back', async () => {
    const created = expectStatus(await alice.api.post(path(0), { title: 'Hello', file_name: 'hello.rb', content: 'puts 1\n', visibility: 'public' }), 201).body
    expect(created).toEqual(expected(created.id))
    expect(Snippet.parse(created)).toEqual(created)
    expect((await api(server).get(path(created.id))).body).toEqual(created)
    const raw = await api(server).get(path(created.id, '/raw'))
    expect([raw.status, raw.text, raw.headers.get('content-type'), raw.headers.get('content-disposition')])
      .toEqual([200, 'puts 1\n', 'text/plain; charset=utf-8', 'inline; filename="hello.rb"; filename*=UTF-8\'\'hello.rb'])
    expect((await alice.api.get(path(0))).body).toEqual([created])
  })

  it('takes the older `code` and `files[]`, and serves each file raw', async () => {
    const old = expectStatus(await alice.api.post(path(0), { title: 'Old', file_name: 'a.txt', code: 'old style', visibility: 'internal' }), 201).body
    expect((await alice.api.get(path(old.id, '/raw'))).text).toBe('old style')
    const multi = expectStatus(await alice.api.post(path(0), {
      title: 'Two', visibility: 'private', files: [{ file_path: 'a.md', content: '# a' }, { file_path: 'dir/b.txt', content: 'b' }],
    }), 201).body
    expect([multi.file_name, multi.files.map((f: any) => f.path)]).toEqual(['a.md', ['a.md', 'dir/b.txt']])
    expect((await alice.api.get(path(multi.id, '/files/main/dir%2Fb.txt/raw'))).text).toBe('b')
    expect((await alice.api.get(path(multi.id, '/files/main/nope/raw'))).body).toEqual({ message: '404 File Not Found' })
  })

  it('updates title, content and visibility; a Developer may not edit what Alice wrote, a Maintainer may', async () => {
    const s = expectStatus(await alice.api.post(path(0), { title: 'Edit me', file_name: 'e.txt', content: 'one', visibility: 'public' }), 201).body
    const up = expectStatus(await alice.api.put(path(s.id), { title: 'Edited', content: 'two', file_name: 'f.txt', visibility: 'internal' }), 200).body
    expect([up.title, up.file_name, up.visibility]).toEqual(['Edited', 'f.txt', 'internal'])
    expect((await alice.api.get(path(s.id, '/raw'))).text).toBe('two')
    expect((await bob.api.put(path(s.id), { title: 'Bob was here' })).status).toBe(403)
    expect((await bob.api.del(path(s.id))).status).toBe(403)
    expect((await alice.api.get(path(s.id))).body.title).toBe('Edited')
    const root = api(server, server.rootToken)
    expect((await root.put(path(s.id), { description: 'by root' })).body.description).toBe('by root')
    expect((await alice.api.del(path(s.id))).status).toBe(204)
    expect((await alice.api.get(path(s.id))).body).toEqual({ message: '404 Snippet Not Found' })
  })

  it('updates multi-file snippets only through files[] actions', async () => {
    const s = expectStatus(await alice.api.post(path(0), {
      title: 'Files', visibility: 'public', files: [{ file_path: 'a', content: 'A' }, { file_path: 'b', content: 'B' }],
    }), 201).body
    const refused = await alice.api.put(path(s.id), { content: 'x' })
    expect([refused.status, refused.body]).toEqual([400, { error: 'To update Snippets with multiple files, you must use the `files` parameter' }])
    const up = expectStatus(await alice.api.put(path(s.id), { files: [
      { action: 'update', file_path: 'a', content: 'A2' }, { action: 'delete', file_path: 'b' },
      { action: 'create', file_path: 'c', content: 'C' }, { action: 'move', previous_path: 'c', file_path: 'd' },
    ] }), 200).body
    expect(up.files.map((f: any) => f.path)).toEqual(['a', 'd'])
    expect((await alice.api.get(path(s.id, '/raw'))).text).toBe('A2')
    const gone = await alice.api.put(path(s.id), { files: [{ action: 'delete', file_path: 'zzz' }] })
    expect([gone.status, gone.body]).toEqual([400, { message: { error: "Error updating the snippet - A file with this name doesn't exist" } }])
  })

  it('goes, with its files, notes and awards, when its project is deleted', async () => {
    const p = await createProject(alice.api, { name: 'doomed', visibility: 'public' })
    const s = expectStatus(await alice.api.post(`/projects/${p.id}/snippets`, { title: 'D', file_name: 'd', content: 'd', visibility: 'public' }), 201).body
    const note = expectStatus(await bob.api.post(`/projects/${p.id}/snippets/${s.id}/notes`, { body: 'hi' }), 201).body
    expectStatus(await bob.api.post(`/projects/${p.id}/snippets/${s.id}/notes/${note.id}/award_emoji`, { name: 'wave' }), 201)
    expect((await alice.api.del(`/projects/${p.id}`)).status).toBe(202)
    const db = server.app.db
    const count = (sql: string) => (db.prepare(sql).get(s.id) as { n: number }).n
    expect([
      count('SELECT COUNT(*) AS n FROM snippets WHERE id = ?'), count('SELECT COUNT(*) AS n FROM snippet_files WHERE snippet_id = ?'),
      count('SELECT COUNT(*) AS n FROM noteables WHERE id = ?'), count('SELECT COUNT(*) AS n FROM notes WHERE noteable_id = ?'),
    ]).toEqual([0, 0, 0, 0])
    expect((db.prepare('SELECT COUNT(*) AS n FROM note_award_emoji WHERE note_id = ?').get(note.id) as { n: number }).n).toBe(0)
  })

  it('records the user agent for administrators', async () => {
    const s = expectStatus(await alice.api.post(path(0), { title: 'UA', file_name: 'u', content: 'u', visibility: 'public' }, { headers: { 'User-Agent': 'snippet-test/1' } }), 201).body
    const root = api(server, server.rootToken)
    expect((await root.get(path(s.id, '/user_agent_detail'))).body).toEqual({ user_agent: 'snippet-test/1', ip_address: '127.0.0.1', spamfilter_submitted: false })
    expect((await alice.api.get(path(s.id, '/user_agent_detail'))).status).toBe(403)
  })
})

describe('who reads and who writes', () => {
  it('lists by visibility: members all, signed-in users public and internal, anonymous callers public only', async () => {
    const priv = expectStatus(await alice.api.post(path(0), { title: 'Members', file_name: 'm', content: 'm', visibility: 'private' }), 201).body
    const titles = async (as: ReturnType<typeof api>) => (await as.get(path(0), { query: { per_page: 100 } })).body.map((s: any) => s.visibility)
    expect(await titles(guest.api)).toContain('private')
    expect(await titles(stranger.api)).not.toContain('private')
    expect(await titles(stranger.api)).toContain('internal')
    expect((await api(server).get(path(0))).status).toBe(401)
    expect((await stranger.api.get(path(priv.id))).body).toEqual({ message: '404 Snippet Not Found' })
    expect((await stranger.api.get(path(priv.id, '/raw'))).status).toBe(404)
    expect((await api(server).get(path(priv.id))).status).toBe(404)
    expect((await guest.api.get(path(priv.id))).status).toBe(200)
  })

  it('refuses guests writing (403) and anyone on a project they cannot see (404)', async () => {
    const refused = await guest.api.post(path(0), { title: 'x', file_name: 'x', content: 'x', visibility: 'public' })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    const hidden = await stranger.api.post(`/projects/${secret.id}/snippets`, { title: 'x', file_name: 'x', content: 'x', visibility: 'public' })
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect((await stranger.api.get(`/projects/${secret.id}/snippets`)).status).toBe(404)
  })

  it("lets a Maintainer change another's snippet, and nobody write in an archived project", async () => {
    const p = await createProject(alice.api, { name: 'kept', visibility: 'public' })
    expectStatus(await alice.api.post(`/projects/${p.id}/members`, { user_id: bob.id, access_level: 40 }), 201)
    const s = expectStatus(await alice.api.post(`/projects/${p.id}/snippets`, { title: 'A', file_name: 'a', content: 'a', visibility: 'public' }), 201).body
    expect(expectStatus(await bob.api.put(`/projects/${p.id}/snippets/${s.id}`, { title: 'By Bob' }), 200).body.title).toBe('By Bob')
    expectStatus(await alice.api.post(`/projects/${p.id}/archive`), 201)
    const writes = [
      await alice.api.post(`/projects/${p.id}/snippets`, { title: 'x', file_name: 'x', content: 'x', visibility: 'public' }),
      await alice.api.put(`/projects/${p.id}/snippets/${s.id}`, { title: 'x' }),
      await alice.api.del(`/projects/${p.id}/snippets/${s.id}`),
      await alice.api.post(`/projects/${p.id}/snippets/${s.id}/notes`, { body: 'x' }),
    ]
    expect(writes.map((r) => r.status)).toEqual([403, 403, 403, 403])
    expect((await alice.api.get(`/projects/${p.id}/snippets/${s.id}`)).body.title).toBe('By Bob')
  })

  it('answers 403 to every route while the project has snippets turned off', async () => {
    const p = await createProject(alice.api, { name: 'nosnip', visibility: 'public' })
    const s = expectStatus(await alice.api.post(`/projects/${p.id}/snippets`, { title: 'S', file_name: 's', content: 's', visibility: 'public' }), 201).body
    expectStatus(await alice.api.put(`/projects/${p.id}`, { snippets_enabled: false }), 200)
    for (const reply of [await alice.api.get(`/projects/${p.id}/snippets`), await alice.api.get(`/projects/${p.id}/snippets/${s.id}`),
      await api(server).get(`/projects/${p.id}/snippets/${s.id}/raw`), await alice.api.post(`/projects/${p.id}/snippets`, { title: 'S', file_name: 's', content: 's', visibility: 'public' })]) {
      expect([reply.status, reply.body]).toEqual([403, { message: '403 Forbidden' }])
    }
  })
})

describe('bad input', () => {
  const post = (body: Record<string, unknown>) => alice.api.post(path(0), body)
  const count = async () => Number((await alice.api.get(path(0))).headers.get('x-total'))

  it("answers GitLab's messages and writes nothing", async () => {
    const before = await count()
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{ file_name: 'a', content: 'a', visibility: 'public' }, 400, { message: '400 (Bad request) "title" not given' }],
      [{ title: 'a', file_name: 'a', content: 'a' }, 400, { message: '400 (Bad request) "visibility" not given' }],
      [{ title: ' ', file_name: 'a', content: 'a', visibility: 'public' }, 400, { error: 'title is empty' }],
      [{ title: 'a', file_name: 'a', visibility: 'public' }, 400, { error: 'files, content are missing, exactly one parameter must be provided' }],
      [{ title: 'a', file_name: 'a', content: '', visibility: 'public' }, 400, { error: 'content is empty' }],
      [{ title: 'a', content: 'a', files: [{ file_path: 'b', content: 'b' }], visibility: 'public' }, 400, { error: 'files, content are mutually exclusive' }],
      [{ title: 'a', file_name: '../etc/passwd', content: 'a', visibility: 'public' }, 400, { error: 'file_name should be a valid file path' }],
      [{ title: 'a', files: [{ file_path: 'a\u0000b', content: 'b' }], visibility: 'public' }, 400, { error: 'files[0][file_path] should be a valid file path' }],
      [{ title: 'a', files: [{ file_path: 'x', content: 'b' }, { file_path: 'x', content: 'c' }], visibility: 'public' }, 400,
        { message: { error: 'Error creating the snippet - A file with this name already exists' } }],
      [{ title: 'a', file_name: 'a', content: 'a', visibility: 'secret' }, 400, { message: { visibility: ['does not have a valid value'] } }],
    ]
    for (const [body, status, answer] of cases) {
      const reply = await post(body)
      expect([reply.status, reply.body], JSON.stringify(body)).toEqual([status, answer])
    }
    const none = await alice.api.put(path(999999), { title: 'x' })
    expect([none.status, none.body]).toEqual([404, { message: '404 Snippet Not Found' }])
    const s = expectStatus(await post({ title: 'Kept', file_name: 'k', content: 'k', visibility: 'public' }), 201).body
    const empty = await alice.api.put(path(s.id), {})
    expect([empty.status, empty.body]).toEqual([400, { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' }])
    expect(await count()).toBe(before + 1)
  })

  it('keeps a restricted visibility level from non-administrators', async () => {
    const root = api(server, server.rootToken)
    expectStatus(await root.put('/application/settings', { restricted_visibility_levels: ['public'] }), 200)
    try {
      const reply = await post({ title: 'a', file_name: 'a', content: 'a', visibility: 'public' })
      expect([reply.status, reply.body]).toEqual([400, { message: { visibility_level: ['Public visibility has been restricted by your GitLab administrator'] } }])
      expect((await root.post(path(0), { title: 'a', file_name: 'a', content: 'a', visibility: 'public' })).status).toBe(201)
    } finally {
      expectStatus(await root.put('/application/settings', { restricted_visibility_levels: [] }), 200)
    }
  })
})
