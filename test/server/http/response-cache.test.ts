// Cached GET answers: repeated reads are answered from memory, and nothing a write, a viewer, a Host or midnight
// changes is ever served stale.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, rawRequest, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { repositoryDir } from '../../../src/server/git/repository.js'

const clock = movableClock('2024-05-01T23:59:00.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'cached', visibility: 'private' })
})
afterAll(() => server.close())

describe('the response cache', () => {
  it('answers a repeated GET from memory until a write', async () => {
    const issue = await createIssue(alice.api, project.id, { title: 'original' })
    const path = `/projects/${project.id}/issues/${issue.iid}`
    const first = expectStatus(await alice.api.get(path), 200)
    // A change made behind the store's back (the issue row itself is never remembered) shows whether the answer is.
    server.app.db.prepare("UPDATE issues SET title = 'behind' WHERE id = ?").run(issue.id)
    const second = expectStatus(await alice.api.get(path), 200)
    expect(second.text).toBe(first.text)
    expect(second.headers.get('content-type')).toBe('application/json')
    expect(second.headers.get('content-length')).toBe(String(Buffer.byteLength(first.text)))
    // Any write through the store ends it.
    expectStatus(await alice.api.put(path, { description: 'edited' }), 200)
    expect((await alice.api.get(path)).body).toMatchObject({ title: 'behind', description: 'edited' })
  })

  it('keeps each viewer to their own answer', async () => {
    expectStatus(await bob.api.get(`/projects/${project.id}`), 404)
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 20 }), 201)
    const asBob = expectStatus(await bob.api.get(`/projects/${project.id}`), 200).body
    const asAlice = expectStatus(await alice.api.get(`/projects/${project.id}`), 200).body
    expect(asBob.permissions.project_access.access_level).toBe(20)
    expect(asAlice.permissions.project_access.access_level).toBe(50)
    expectStatus(await alice.api.del(`/projects/${project.id}/members/${bob.id}`), 204)
    expectStatus(await bob.api.get(`/projects/${project.id}`), 404)
  })

  it('keys on the Host the client used, since every URL in the body is built on it', async () => {
    const path = `/api/v4/projects/${project.id}`
    const headers = { 'PRIVATE-TOKEN': alice.token }
    const a = await rawRequest(server, { path, headers: { ...headers, Host: 'one.example:80' } })
    const b = await rawRequest(server, { path, headers: { ...headers, Host: 'two.example:80' } })
    expect(a.body.web_url).toMatch(/^http:\/\/one\.example:80\//)
    expect(b.body.web_url).toMatch(/^http:\/\/two\.example:80\//)
  })

  it('keeps pagination headers and a list in step with writes', async () => {
    await createIssue(alice.api, project.id, { title: 'one' })
    const before = await alice.api.get(`/projects/${project.id}/issues`, { query: { per_page: 1 } })
    const total = Number(before.headers.get('x-total'))
    await createIssue(alice.api, project.id, { title: 'two' })
    const after = await alice.api.get(`/projects/${project.id}/issues`, { query: { per_page: 1 } })
    expect(after.headers.get('x-total')).toBe(String(total + 1))
    expect(after.headers.get('link')).toContain('rel="next"')
    expect(after.body[0].title).toBe('two')
  })

  it('does not carry a milestone past midnight, when `expired` turns without any write', async () => {
    const milestone = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'due', due_date: '2024-05-01' }), 201).body
    const issue = await createIssue(alice.api, project.id, { title: 'dated', milestone_id: milestone.id })
    expect((await alice.api.get(`/projects/${project.id}/issues/${issue.iid}`)).body.milestone.expired).toBe(false)
    clock.advance(2 * 60 * 1000)
    expect((await alice.api.get(`/projects/${project.id}/issues/${issue.iid}`)).body.milestone.expired).toBe(true)
  })

  it('never answers statistics from memory: they are read from the repository on disk', async () => {
    const first = (await alice.api.get(`/projects/${project.id}`, { query: { statistics: true } })).body.statistics
    // The repository grows with no write to the database (as `git gc` or a pack would make it).
    writeFileSync(join(repositoryDir(server.app.layout.repositories, project.id), 'grown'), Buffer.alloc(4096))
    const second = (await alice.api.get(`/projects/${project.id}`, { query: { statistics: true } })).body.statistics
    expect(second.repository_size).toBe(first.repository_size + 4096)
  })

  it('is not used when the server runs with --no-response-cache', async () => {
    const plain = await startTestServer({ responseCache: false })
    try {
      const root = api(plain, plain.rootToken)
      const p = await createProject(root, { name: 'uncached' })
      const issue = await createIssue(root, p.id, { title: 'original' })
      expect((await root.get(`/projects/${p.id}/issues/${issue.iid}`)).body.title).toBe('original')
      plain.app.db.prepare("UPDATE issues SET title = 'behind' WHERE id = ?").run(issue.id)
      expect((await root.get(`/projects/${p.id}/issues/${issue.iid}`)).body.title).toBe('behind')
    } finally {
      await plain.close()
    }
  })
})
