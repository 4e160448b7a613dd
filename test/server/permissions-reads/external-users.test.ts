// External users see only public things and what they are members of: internal projects, groups and snippets are as
// private to them as private ones are. Nor do they create personal projects or groups (GitLab's projects_limit 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let external: TestUser
let regular: TestUser
let internal: any
let member: any
let group: any
let snippet: any

const names = (body: any[]) => body.map((x) => x.name ?? x.title).sort()

beforeAll(async () => {
  server = await startTestServer()
  const root = api(server, server.rootToken)
  external = await createUser(server, 'ext')
  expectStatus(await root.put(`/users/${external.id}`, { external: true }), 200)
  regular = await createUser(server, 'reggie')
  group = await createGroup(root, { name: 'Inner Circle', path: 'inner', visibility: 'internal' })
  internal = await createProject(root, { name: 'Inside Job', path: 'inside', namespace_id: group.id, visibility: 'internal' })
  await createProject(root, { name: 'Open Book', path: 'open', visibility: 'public' })
  member = await createProject(root, { name: 'Inside Member', path: 'inside-member', visibility: 'internal' })
  expectStatus(await root.post(`/projects/${member.id}/members`, { user_id: external.id, access_level: 20 }), 201)
  await createIssue(root, internal.id, { title: 'Inside issue' })
  expectStatus(await root.post(`/projects/${internal.id}/milestones`, { title: 'Inside milestone' }), 201)
  snippet = expectStatus(await root.post('/snippets', { title: 'Inside snippet', file_name: 'a.txt', content: 'x', visibility: 'internal' }), 201).body
})

afterAll(async () => {
  await server?.close()
})

describe('an external user', () => {
  it('does not see internal projects, except those they are a member of', async () => {
    expect(names(expectStatus(await external.api.get('/projects'), 200).body)).toEqual(['Inside Member', 'Open Book'])
    expect((await external.api.get(`/projects/${internal.id}`)).status).toBe(404)
    expect((await external.api.get(`/projects/${internal.id}/issues`)).status).toBe(404)
    expectStatus(await external.api.get(`/projects/${member.id}`), 200)
  })

  it('does not see internal groups', async () => {
    expect(names(expectStatus(await external.api.get('/groups'), 200).body)).toEqual([])
    expect((await external.api.get(`/groups/${group.id}`)).status).toBe(404)
  })

  it('does not read internal snippets', async () => {
    expect((await external.api.get(`/snippets/${snippet.id}`)).status).toBe(404)
    expect(names(expectStatus(await external.api.get('/snippets/all'), 200).body)).toEqual([])
  })

  it('finds nothing of internal projects in lists and search', async () => {
    expect(names(expectStatus(await external.api.get('/issues', { query: { scope: 'all' } }), 200).body)).toEqual([])
    for (const [scope, search] of [['projects', 'Inside'], ['issues', 'Inside'], ['milestones', 'Inside'], ['snippet_titles', 'Inside']]) {
      const hits = names(expectStatus(await external.api.get('/search', { query: { scope, search } }), 200).body)
      expect({ scope, hits }).toEqual({ scope, hits: scope === 'projects' ? ['Inside Member'] : [] })
    }
  })

  it('creates no personal project, group or personal snippet, and is told so by GET /user', async () => {
    const project = await external.api.post('/projects', { name: 'Mine' })
    expect([project.status, project.body]).toEqual([403, { message: ['Personal project creation is not allowed. Please contact your administrator with questions'] }])
    expect((await external.api.post('/groups', { name: 'Mine', path: 'mine' })).status).toBe(403)
    const personal = await external.api.post('/snippets', { title: 'Mine', file_name: 'a.txt', content: 'x', visibility: 'private' })
    expect([personal.status, personal.body]).toEqual([403, { message: '403 Forbidden' }])
    const me = expectStatus(await external.api.get('/user'), 200).body
    expect([me.external, me.can_create_project, me.can_create_group]).toEqual([true, false, false])
  })
})

describe('a regular user', () => {
  it('sees the same internal projects, groups and snippets', async () => {
    expect(names(expectStatus(await regular.api.get('/projects'), 200).body)).toEqual(['Inside Job', 'Inside Member', 'Open Book'])
    expect(names(expectStatus(await regular.api.get('/groups'), 200).body)).toEqual(['Inner Circle'])
    expectStatus(await regular.api.get(`/snippets/${snippet.id}`), 200)
    expect(names(expectStatus(await regular.api.get('/search', { query: { scope: 'issues', search: 'Inside' } }), 200).body)).toEqual(['Inside issue'])
  })
})
