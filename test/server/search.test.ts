// The Search API: scopes per level, GitLab's errors, visibility (private projects, confidential issues) and the
// repository scopes answered by git grep / git log over the default branch and the wiki.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchBlob } from '../../src/contract/endpoints/search.js'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue } from '../helpers/issues.js'
import { commit, create } from '../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let demo: { id: number }
let secret: { id: number }
let group: { id: number }
const titles = (body: { title: string }[]) => body.map((x) => x.title)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-05-01T10:00:00Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  group = await createGroup(alice.api, { name: 'Team', path: 'team', visibility: 'public' })
  demo = await createProject(alice.api, { name: 'Needle demo', path: 'demo', namespace_id: group.id, visibility: 'public', initialize_with_readme: false })
  secret = await createProject(alice.api, { name: 'needle secret', path: 'secret', visibility: 'private' })
  await commit(alice.api, demo.id, { branch: 'main', commit_message: 'Add the needle finder', actions: [
    create('README.md', 'Demo\n\nfind the Needle here\nline 4\nline 5\nline 6\nline 7\nline 8\nanother needle\n'),
    create('src/lib/find.ts', 'export const needle = 1\n'),
  ] })
  await commit(alice.api, demo.id, { branch: 'main', commit_message: 'Unrelated change', actions: [create('other.txt', 'nothing\n')] })
  await commit(alice.api, secret.id, { branch: 'main', commit_message: 'needle in secret', actions: [create('a.txt', 'needle\n')] })
  await commit(alice.api, demo.id, { branch: 'feature', start_branch: 'main', commit_message: 'Feature', actions: [create('f.txt', 'f\n')] })
  expectStatus(await alice.api.post(`/projects/${demo.id}/merge_requests`, { title: 'Needle MR', source_branch: 'feature', target_branch: 'main' }), 201)
  await createIssue(alice.api, demo.id, { title: 'Needle bug' })
  await createIssue(alice.api, demo.id, { title: 'needle confidential', confidential: true })
  await createIssue(alice.api, demo.id, { title: 'Haystack' })
  await createIssue(alice.api, secret.id, { title: 'needle private issue' })
  expectStatus(await alice.api.post(`/projects/${demo.id}/issues/1/notes`, { body: 'a needle in the notes' }), 201)
  expectStatus(await alice.api.post(`/projects/${demo.id}/issues/2/notes`, { body: 'needle note on a confidential issue' }), 201)
  expectStatus(await alice.api.post(`/projects/${demo.id}/milestones`, { title: 'Needle sprint' }), 201)
  expectStatus(await alice.api.post(`/projects/${secret.id}/milestones`, { title: 'needle hidden sprint' }), 201)
  expectStatus(await alice.api.post(`/projects/${demo.id}/wikis`, { title: 'home', content: 'Wiki page\nwith a needle\n' }), 201)
  expectStatus(await alice.api.post('/snippets', { title: 'needle snippet', visibility: 'public', files: [{ file_path: 'a.txt', content: 'x' }] }), 201)
  expectStatus(await alice.api.post('/snippets', { title: 'needle private snippet', visibility: 'private', files: [{ file_path: 'a.txt', content: 'x' }] }), 201)
})
afterAll(() => server.close())

describe('GET /search', () => {
  it('finds projects the caller can see', async () => {
    const mine = await alice.api.get('/search', { query: { scope: 'projects', search: 'needle' } })
    expect(mine.status).toBe(200)
    expect(mine.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['alice/secret', 'team/demo'])
    expect(mine.headers.get('x-total')).toBe('2')
    const theirs = await bob.api.get('/search', { query: { scope: 'projects', search: 'needle' } })
    expect(theirs.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['team/demo'])
  })

  it('finds issues, leaving out private projects and confidential issues for others', async () => {
    expect(titles((await alice.api.get('/search', { query: { scope: 'issues', search: 'needle' } })).body).sort())
      .toEqual(['Needle bug', 'needle confidential', 'needle private issue'])
    expect(titles((await bob.api.get('/search', { query: { scope: 'issues', search: 'needle' } })).body)).toEqual(['Needle bug'])
    expect(titles((await bob.api.get('/search', { query: { scope: 'issues', search: 'needle', state: 'closed' } })).body)).toEqual([])
  })

  it('finds milestones, snippets and users', async () => {
    expect(titles((await bob.api.get('/search', { query: { scope: 'milestones', search: 'needle' } })).body)).toEqual(['Needle sprint'])
    expect(titles((await alice.api.get('/search', { query: { scope: 'milestones', search: 'needle' } })).body)).toEqual(['needle hidden sprint', 'Needle sprint'])
    expect(titles((await bob.api.get('/search', { query: { scope: 'snippet_titles', search: 'needle' } })).body)).toEqual(['needle snippet'])
    expect(titles((await alice.api.get('/search', { query: { scope: 'snippet_titles', search: 'needle' } })).body)).toEqual(['needle private snippet', 'needle snippet'])
    const users = await bob.api.get('/search', { query: { scope: 'users', search: 'alic' } })
    expect(users.body).toEqual([{ id: alice.id, username: 'alice', name: 'User alice', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, web_url: `${server.url}/alice` }])
  })

  it('shows administrators every project', async () => {
    const res = await api(server, server.rootToken).get('/search', { query: { scope: 'projects', search: 'needle' } })
    expect(res.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['alice/secret', 'team/demo'])
  })

  it('treats LIKE wildcards in the query as text', async () => {
    expect((await alice.api.get('/search', { query: { scope: 'issues', search: '%' } })).body).toEqual([])
    expect((await alice.api.get('/search', { query: { scope: 'projects', search: '_' } })).body).toEqual([])
  })

  it('answers GitLab errors for a bad scope, a missing or empty query and a huge one', async () => {
    const bad = await alice.api.get('/search', { query: { scope: 'blobs', search: 'x' } })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('{"error":"scope does not have a valid value"}')
    const missing = await alice.api.get('/search', { query: { scope: 'issues' } })
    expect(missing.status).toBe(400)
    expect(missing.text).toBe('{"message":"400 (Bad request) \\"search\\" not given"}')
    const empty = await alice.api.get('/search', { query: { scope: 'issues', search: '  ' } })
    expect(empty.status).toBe(400)
    expect(empty.text).toBe('{"error":"search is empty"}')
    const huge = await alice.api.get('/search', { query: { scope: 'issues', search: 'a'.repeat(5000) } })
    expect(huge.status).toBe(400)
    expect(huge.text).toBe('{"message":"400 Bad request - Search query is too long (maximum is 4096 characters)"}')
    const terms = await alice.api.get('/search', { query: { scope: 'issues', search: Array(65).fill('a').join(' ') } })
    expect(terms.text).toBe('{"message":"400 Bad request - Search query has too many terms (maximum is 64)"}')
  })

  it('needs authentication', async () => {
    const res = await api(server).get('/search', { query: { scope: 'projects', search: 'needle' } })
    expect(res.status).toBe(401)
  })
})

describe('GET /groups/:id/search', () => {
  it('searches the projects of the group', async () => {
    const projects = await alice.api.get(`/groups/${group.id}/search`, { query: { scope: 'projects', search: 'needle' } })
    expect(projects.body.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['team/demo'])
    expect(titles((await alice.api.get(`/groups/${group.id}/search`, { query: { scope: 'issues', search: 'needle' } })).body).sort()).toEqual(['Needle bug', 'needle confidential'])
    expect(titles((await alice.api.get(`/groups/${group.id}/search`, { query: { scope: 'milestones', search: 'needle' } })).body)).toEqual(['Needle sprint'])
    const users = await bob.api.get(`/groups/${group.id}/search`, { query: { scope: 'users', search: 'a' } })
    expect(users.body.map((u: { username: string }) => u.username)).toEqual(['alice'])
  })

  it('answers 404 for a group the caller cannot see', async () => {
    const hidden = await createGroup(alice.api, { name: 'Hidden', path: 'hidden', visibility: 'private' })
    const res = await bob.api.get(`/groups/${hidden.id}/search`, { query: { scope: 'projects', search: 'x' } })
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Group Not Found"}')
  })

  it('has no snippet or repository scopes', async () => {
    const res = await alice.api.get(`/groups/${group.id}/search`, { query: { scope: 'snippet_titles', search: 'x' } })
    expect(res.text).toBe('{"error":"scope does not have a valid value"}')
  })
})

describe('GET /projects/:id/search', () => {
  it('finds blob chunks on the default branch, with two lines of context', async () => {
    const res = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'blobs', search: 'needle' } })
    expect(res.status).toBe(200)
    for (const b of res.body) SearchBlob.strict().parse(b)
    expect(res.body).toEqual([
      { basename: 'README', data: 'Demo\n\nfind the Needle here\nline 4\nline 5\n', path: 'README.md', filename: 'README.md', id: null, ref: 'main', startline: 1, project_id: demo.id },
      { basename: 'README', data: 'line 7\nline 8\nanother needle\n', path: 'README.md', filename: 'README.md', id: null, ref: 'main', startline: 7, project_id: demo.id },
      { basename: 'src/lib/find', data: 'export const needle = 1\n', path: 'src/lib/find.ts', filename: 'src/lib/find.ts', id: null, ref: 'main', startline: 1, project_id: demo.id },
    ])
    expect(res.headers.get('x-total')).toBe('3')
    const page = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'blobs', search: 'needle', per_page: 1, page: 3 } })
    expect(page.body.map((b: { path: string }) => b.path)).toEqual(['src/lib/find.ts'])
  })

  it('answers no blobs for an unknown ref and takes options-looking queries as text', async () => {
    expect((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'blobs', search: 'needle', ref: 'nope' } })).body).toEqual([])
    expect((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'blobs', search: '--all-match' } })).body).toEqual([])
    for (const scope of ['blobs', 'commits', 'wiki_blobs']) {
      const nul = await bob.api.get(`/projects/${demo.id}/search`, { query: `scope=${scope}&search=nee%00dle` })
      expect([nul.status, nul.body]).toEqual([200, []])
    }
  })

  it('finds commits by message', async () => {
    const res = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'commits', search: 'NEEDLE' } })
    expect(res.status).toBe(200)
    expect(res.body.map((c: { title: string }) => c.title)).toEqual(['Add the needle finder'])
  })

  it('finds wiki chunks', async () => {
    const res = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'wiki_blobs', search: 'needle' } })
    expect(res.body).toEqual([{ basename: 'home', data: 'Wiki page\nwith a needle\n', path: 'home.md', filename: 'home.md', id: null, ref: 'main', startline: 1, project_id: demo.id }])
  })

  it('finds notes, leaving out those of confidential issues for others', async () => {
    const mine = await alice.api.get(`/projects/${demo.id}/search`, { query: { scope: 'notes', search: 'needle' } })
    expect(mine.body.map((n: { body: string; noteable_iid: number }) => [n.body, n.noteable_iid])).toEqual([['needle note on a confidential issue', 2], ['a needle in the notes', 1]])
    const theirs = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'notes', search: 'needle' } })
    expect(theirs.body.map((n: { body: string }) => n.body)).toEqual(['a needle in the notes'])
  })

  it('searches issues, merge requests, milestones and users of the project', async () => {
    expect(titles((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'issues', search: 'needle' } })).body)).toEqual(['Needle bug'])
    expect(titles((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'merge_requests', search: 'needle' } })).body)).toEqual(['Needle MR'])
    expect(titles((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'merge_requests', search: 'needle', state: 'merged' } })).body)).toEqual([])
    expect(titles((await bob.api.get('/search', { query: { scope: 'merge_requests', search: 'needle' } })).body)).toEqual(['Needle MR'])
    expect(titles((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'milestones', search: 'needle' } })).body)).toEqual(['Needle sprint'])
    expect((await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'users', search: 'ali' } })).body.map((u: { username: string }) => u.username)).toEqual(['alice'])
  })

  it('answers 404 for a project the caller cannot see, and no code of it to anyone else', async () => {
    const res = await bob.api.get(`/projects/${secret.id}/search`, { query: { scope: 'blobs', search: 'needle' } })
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Project Not Found"}')
    expect((await alice.api.get(`/projects/${secret.id}/search`, { query: { scope: 'blobs', search: 'needle' } })).body.map((b: { path: string }) => b.path)).toEqual(['a.txt'])
  })

  it('finds nothing in a feature the project has turned off', async () => {
    const off = await createProject(alice.api, { name: 'off', visibility: 'public' })
    await createIssue(alice.api, off.id, { title: 'needle while on' })
    expectStatus(await alice.api.post(`/projects/${off.id}/wikis`, { title: 'home', content: 'needle' }), 201)
    expect(titles((await alice.api.get(`/projects/${off.id}/search`, { query: { scope: 'issues', search: 'needle' } })).body)).toEqual(['needle while on'])
    expectStatus(await alice.api.put(`/projects/${off.id}`, { issues_enabled: false, merge_requests_enabled: false, wiki_enabled: false }), 200)
    for (const scope of ['issues', 'merge_requests', 'wiki_blobs']) {
      const res = await alice.api.get(`/projects/${off.id}/search`, { query: { scope, search: 'needle' } })
      expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], '0'])
    }
  })

  it('has no projects or snippet scope', async () => {
    const res = await bob.api.get(`/projects/${demo.id}/search`, { query: { scope: 'projects', search: 'x' } })
    expect(res.text).toBe('{"error":"scope does not have a valid value"}')
  })
})
