// POST /projects, POST /projects/user/:user_id, GET/PUT/DELETE /projects/:id.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project, ProjectSimple } from '../../../src/contract/entities/projects.js'
import { api, createGroup, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

const repoDir = (id: number) => join(server.dataDir, 'repositories', `${id}.git`)

describe('POST /projects', () => {
  it('creates a private project in the caller namespace, owned by the caller, with a bare repository', async () => {
    const res = await alice.api.post('/projects', { name: 'My Demo' })
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toBe('application/json')
    const p = Project.strict().parse(res.body)
    const base = server.url
    const self = `${server.api}/projects/${p.id}`
    expect(p).toEqual({
      id: p.id,
      description: '',
      name: 'My Demo',
      name_with_namespace: 'Alice Liddell / My Demo',
      path: 'my-demo',
      path_with_namespace: 'alice/my-demo',
      created_at: NOW,
      default_branch: 'main',
      tag_list: [],
      topics: [],
      ssh_url_to_repo: 'git@127.0.0.1:alice/my-demo.git',
      http_url_to_repo: `${base}/alice/my-demo.git`,
      web_url: `${base}/alice/my-demo`,
      readme_url: null,
      avatar_url: null,
      forks_count: 0,
      star_count: 0,
      last_activity_at: NOW,
      namespace: {
        id: p.namespace.id, name: 'Alice Liddell', path: 'alice', kind: 'user', full_path: 'alice', parent_id: null,
        avatar_url: `${base}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${base}/alice`,
      },
      visibility: 'private',
      owner: { id: alice.id, username: 'alice', name: 'Alice Liddell', state: 'active', avatar_url: `${base}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${base}/alice`, created_at: NOW },
      container_registry_enabled: true,
      issues_enabled: true,
      merge_requests_enabled: true,
      wiki_enabled: true,
      jobs_enabled: true,
      snippets_enabled: true,
      resolve_outdated_diff_discussions: false,
      shared_runners_enabled: true,
      lfs_enabled: true,
      public_jobs: true,
      archived: false,
      empty_repo: true,
      creator_id: alice.id,
      open_issues_count: 0,
      import_url: null,
      import_status: 'none',
      import_error: null,
      only_allow_merge_if_pipeline_succeeds: false,
      only_allow_merge_if_all_discussions_are_resolved: false,
      request_access_enabled: true,
      printing_merge_request_link_enabled: true,
      printing_merge_requests_link_enabled: true,
      merge_method: 'merge',
      ci_config_path: null,
      shared_with_groups: [],
      permissions: { project_access: { access_level: 50, notification_level: 3 }, group_access: null },
      _links: {
        self, issues: `${self}/issues`, merge_requests: `${self}/merge_requests`, repo_branches: `${self}/repository/branches`,
        labels: `${self}/labels`, events: `${self}/events`, members: `${self}/members`, cluster_agents: `${self}/cluster_agents`,
      },
    })
    expect(existsSync(join(repoDir(p.id), 'HEAD'))).toBe(true)
    const back = await alice.api.get(`/projects/${p.id}`)
    expect(back.status).toBe(200)
    expect(back.body).toEqual(p)
  })

  it.each([
    ['Hello   World', 'hello-world'],
    ['Café Crème', 'cafe-creme'],
    ['Release v2..3 -- final -', 'release-v2.3-final'],
    ['Under_score 2.0', 'under_score-2.0'],
  ])('generates the path of %j as %j', async (name, path) => {
    const res = await alice.api.post('/projects', { name })
    expect(res.status).toBe(201)
    expect([res.body.name, res.body.path]).toEqual([name, path])
  })

  it('takes the name from the path when only a path is given', async () => {
    const p = await createProject(alice.api, { path: 'only-path' })
    expect([p.name, p.path]).toEqual(['only-path', 'only-path'])
  })

  it('stores every optional setting it is given', async () => {
    const p = await createProject(alice.api, {
      name: 'Configured', path: 'configured-x', description: 'desc', visibility: 'internal', issues_enabled: false,
      merge_requests_enabled: false, wiki_enabled: false, merge_method: 'ff', tag_list: ['b', 'a'], ci_config_path: 'ci/.gitlab-ci.yml',
      only_allow_merge_if_pipeline_succeeds: true, request_access_enabled: false,
    })
    const back = Project.strict().parse((await alice.api.get(`/projects/${p.id}`)).body)
    expect(back).toMatchObject({
      name: 'Configured', path: 'configured-x', description: 'desc', visibility: 'internal', issues_enabled: false,
      merge_requests_enabled: false, wiki_enabled: false, merge_method: 'ff', tag_list: ['b', 'a'], topics: ['b', 'a'],
      ci_config_path: 'ci/.gitlab-ci.yml', only_allow_merge_if_pipeline_succeeds: true, request_access_enabled: false,
    })
    // _links leaves out issues and merge_requests when those features are off.
    expect(Object.keys(back._links).sort()).toEqual(['cluster_agents', 'events', 'labels', 'members', 'repo_branches', 'self'])
  })

  it('commits a README on the default branch with initialize_with_readme', async () => {
    const p = await createProject(alice.api, { name: 'With Readme', initialize_with_readme: true, default_branch: 'main' })
    expect(p.empty_repo).toBe(false)
    expect(p.default_branch).toBe('main')
    expect(existsSync(join(repoDir(p.id), 'refs', 'heads', 'main'))).toBe(true)
    const stats = (await alice.api.get(`/projects/${p.id}`, { query: { statistics: true } })).body.statistics
    expect(stats.commit_count).toBe(1)
    expect(stats.repository_size).toBeGreaterThan(0)
  })

  it('answers 400 naming "name" when neither name nor path is given', async () => {
    const res = await alice.api.post('/projects', { description: 'nameless' })
    expect(res.status).toBe(400)
    expect(res.text).toBe('{"message":"400 (Bad request) \\"name\\" not given"}')
  })

  it('answers 400 with the model error for an invalid name or path', async () => {
    const res = await alice.api.post('/projects', { name: '-bad name!', path: 'bad..path' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      message: {
        name: ["can contain only letters, digits, emojis, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."],
        path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"],
      },
    })
  })

  it('answers 409 when the name or path is already taken in the namespace, and creates nothing', async () => {
    await createProject(alice.api, { name: 'Taken' })
    const res = await alice.api.post('/projects', { name: 'taken' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } })
    const list = await alice.api.get('/projects', { query: { search: 'taken', owned: true } })
    expect(list.body.map((p: any) => p.path)).toEqual(['taken'])
  })

  it('lets another user take the same name in their own namespace', async () => {
    const p = await createProject(bob.api, { name: 'Taken' })
    expect(p.path_with_namespace).toBe('bob/taken')
  })

  it('creates in a group where the caller is a developer, making the creator a maintainer', async () => {
    const group = await createGroup(alice.api, { name: 'Dev Group', path: 'dev-group' })
    expect((await alice.api.post(`/groups/${group.id}/members`, { user_id: bob.id, access_level: 30 })).status).toBe(201)
    const p = await createProject(bob.api, { name: 'In Group', namespace_id: group.id })
    expect(p.path_with_namespace).toBe('dev-group/in-group')
    expect(p.name_with_namespace).toBe('Dev Group / In Group')
    expect(p.namespace).toMatchObject({ kind: 'group', full_path: 'dev-group', web_url: `${server.url}/groups/dev-group` })
    expect(p.owner).toBeUndefined()
    expect(p.permissions).toEqual({ project_access: { access_level: 40, notification_level: 3 }, group_access: { access_level: 30, notification_level: 3 } })
  })

  it('answers 404 Namespace Not Found for a namespace the caller may not create in', async () => {
    const group = await createGroup(alice.api, { name: 'Closed Group', path: 'closed-group' })
    const res = await bob.api.post('/projects', { name: 'Intruder', namespace_id: group.id })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Namespace Not Found' })
    const other = await bob.api.post('/projects', { name: 'Intruder', namespace_id: 999999 })
    expect(other.body).toEqual({ message: '404 Namespace Not Found' })
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).post('/projects', { name: 'Anon' })
    expect(res.status).toBe(401)
    expect(res.text).toBe('{"message":"401 Unauthorized"}')
  })
})

describe('POST /projects/user/:user_id', () => {
  it('lets an administrator create a project owned by another user', async () => {
    const res = await api(server, server.rootToken).post(`/projects/user/${bob.id}`, { name: 'Made For Bob' })
    expect(res.status).toBe(201)
    const p = Project.strict().parse(res.body)
    expect(p.path_with_namespace).toBe('bob/made-for-bob')
    expect(p.owner?.username).toBe('bob')
    const members = await bob.api.get(`/projects/${p.id}/members`)
    expect(members.body.map((m: any) => [m.username, m.access_level])).toEqual([['bob', 50]])
  })

  it('answers 403 to a non-administrator', async () => {
    const res = await alice.api.post(`/projects/user/${bob.id}`, { name: 'Not Allowed' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
  })

  it('answers 404 User Not Found for an unknown user', async () => {
    const res = await api(server, server.rootToken).post('/projects/user/999999', { name: 'Nobody' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 User Not Found' })
  })
})

describe('GET /projects/:id', () => {
  it('finds a project by its URL-encoded full path', async () => {
    const p = await createProject(alice.api, { name: 'By Path' })
    const res = await alice.api.get('/projects/alice%2Fby-path')
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(p.id)
  })

  it('answers a public project to anonymous callers in the simple form', async () => {
    const p = await createProject(alice.api, { name: 'Open Book', visibility: 'public' })
    const res = await api(server).get(`/projects/${p.id}`)
    expect(res.status).toBe(200)
    const simple = ProjectSimple.strict().parse(res.body)
    expect(simple.path_with_namespace).toBe('alice/open-book')
  })

  it('answers 404 Project Not Found for an unknown id or path', async () => {
    for (const ref of ['999999', 'alice%2Fnope', 'nobody%2Fnothing']) {
      const res = await alice.api.get(`/projects/${ref}`)
      expect(res.status).toBe(404)
      expect(res.text).toBe('{"message":"404 Project Not Found"}')
    }
  })
})

describe('PUT /projects/:id', () => {
  it('changes settings and reads them back', async () => {
    const p = await createProject(alice.api, { name: 'Editable' })
    const res = await alice.api.put(`/projects/${p.id}`, { description: 'new words', merge_method: 'rebase_merge', topics: ['x'], jobs_enabled: false })
    expect(res.status).toBe(200)
    Project.strict().parse(res.body)
    const back = (await alice.api.get(`/projects/${p.id}`)).body
    expect(back).toMatchObject({ description: 'new words', merge_method: 'rebase_merge', topics: ['x'], tag_list: ['x'], jobs_enabled: false })
  })

  it('renames the path, after which the old path no longer resolves', async () => {
    const p = await createProject(alice.api, { name: 'Rename Me' })
    const res = await alice.api.put(`/projects/${p.id}`, { name: 'Renamed', path: 'renamed' })
    expect(res.body).toMatchObject({ name: 'Renamed', path: 'renamed', path_with_namespace: 'alice/renamed' })
    expect((await alice.api.get('/projects/alice%2Frenamed')).body.id).toBe(p.id)
    expect((await alice.api.get('/projects/alice%2Frename-me')).status).toBe(404)
  })

  it('answers 409 when the new path belongs to another project', async () => {
    await createProject(alice.api, { name: 'First One' })
    const second = await createProject(alice.api, { name: 'Second One' })
    const res = await alice.api.put(`/projects/${second.id}`, { path: 'first-one' })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: { path: ['has already been taken'] } })
    expect((await alice.api.get(`/projects/${second.id}`)).body.path).toBe('second-one')
  })

  it('answers 403 to a developer and leaves the project unchanged', async () => {
    const p = await createProject(alice.api, { name: 'Dev Cannot Edit' })
    await alice.api.post(`/projects/${p.id}/members`, { user_id: bob.id, access_level: 30 })
    const res = await bob.api.put(`/projects/${p.id}`, { description: 'hijacked' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
    expect((await alice.api.get(`/projects/${p.id}`)).body.description).toBe('')
  })

  it('lets a maintainer edit settings but not change visibility', async () => {
    const p = await createProject(alice.api, { name: 'Maintained' })
    await alice.api.post(`/projects/${p.id}/members`, { user_id: bob.id, access_level: 40 })
    expect((await bob.api.put(`/projects/${p.id}`, { description: 'ok' })).status).toBe(200)
    const res = await bob.api.put(`/projects/${p.id}`, { visibility: 'public' })
    expect(res.status).toBe(403)
    expect((await alice.api.get(`/projects/${p.id}`)).body.visibility).toBe('private')
  })

  it('answers 404 to a non-member of a private project', async () => {
    const p = await createProject(alice.api, { name: 'Hidden Edit' })
    const res = await bob.api.put(`/projects/${p.id}`, { description: 'x' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })
})

describe('DELETE /projects/:id', () => {
  it('answers 202 and removes the row and the repository', async () => {
    const p = await createProject(alice.api, { name: 'Doomed' })
    expect(existsSync(repoDir(p.id))).toBe(true)
    const res = await alice.api.del(`/projects/${p.id}`)
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ message: '202 Accepted' })
    expect((await alice.api.get(`/projects/${p.id}`)).status).toBe(404)
    expect(existsSync(repoDir(p.id))).toBe(false)
  })

  it('answers 403 to a maintainer and keeps the project', async () => {
    const p = await createProject(alice.api, { name: 'Survivor' })
    await alice.api.post(`/projects/${p.id}/members`, { user_id: bob.id, access_level: 40 })
    const res = await bob.api.del(`/projects/${p.id}`)
    expect(res.status).toBe(403)
    expect((await alice.api.get(`/projects/${p.id}`)).status).toBe(200)
  })
})
