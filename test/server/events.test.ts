// The events feed records what users do (projects, pushes, issues, merge requests, comments, wiki pages, members)
// without any webhook, and GET /events, /users/:id/events and /projects/:id/events show it in GitLab's shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { removeExpiredMembers } from '../../src/server/services/projects/members.js'

const clock = movableClock('2024-03-01T10:00:00.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

/** Waits for the background listener, then lists. */
async function events(as: TestUser, path: string, query: Record<string, string> = {}) {
  await server.app.tasks.idle()
  return expectStatus(await as.api.get(path, { query }), 200).body as any[]
}

const authorOf = (u: TestUser) => ({
  id: u.id, username: u.username, name: `User ${u.username}`, state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${u.id}/identicon.svg`, web_url: `${server.url}/${u.username}`,
})
const base = (u: TestUser, projectId: number) => ({ project_id: projectId, author_id: u.id, author: authorOf(u), imported: false, imported_from: 'none', author_username: u.username })

describe('recording', () => {
  let project: any

  it('records a created project for its creator, with no webhook anywhere', async () => {
    project = await createProject(alice.api, { name: 'Feed', initialize_with_readme: true })
    const [created] = await events(alice, '/events')
    expect(created).toEqual({
      id: created.id, ...base(alice, project.id), action_name: 'created', target_id: null, target_iid: null, target_type: null,
      target_title: null, created_at: '2024-03-01T10:00:00.000Z',
    })
    expect(Object.keys(created)).toEqual(['id', 'project_id', 'action_name', 'target_id', 'target_iid', 'target_type', 'author_id', 'target_title',
      'created_at', 'author', 'imported', 'imported_from', 'author_username'])
  })

  it('records pushes to a branch, a new branch, a deleted branch, a new tag and a deleted tag with their push data', async () => {
    const tip = expectStatus(await alice.api.get(`/projects/${project.id}/repository/branches/main`), 200).body.commit.id
    const commit = expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits`, {
      branch: 'main', commit_message: 'Add the changelog\n\nWith a body.', actions: [{ action: 'create', file_path: 'CHANGELOG', content: 'v1\n' }],
    }), 201).body
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/branches`, { branch: 'topic', ref: 'main' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits`, {
      branch: 'topic', commit_message: 'A topic commit with a title that goes on for well beyond the seventy characters', actions: [{ action: 'create', file_path: 't', content: 't\n' }],
    }), 201)
    expectStatus(await alice.api.del(`/projects/${project.id}/repository/branches/topic`), 204)
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/tags`, { tag_name: 'v1', ref: 'main' }), 201)
    expectStatus(await alice.api.del(`/projects/${project.id}/repository/tags/v1`), 204)
    const pushes = await events(alice, `/projects/${project.id}/events`, { action: 'pushed', sort: 'asc' })
    const push = (p: Record<string, unknown>) => ({ commit_count: 0, commit_from: null, commit_to: null, commit_title: null, ref_count: null, ...p })
    expect(pushes.map((e) => [e.action_name, e.push_data])).toEqual([
      ['pushed to', push({ commit_count: 1, action: 'pushed', ref_type: 'branch', ref: 'main', commit_from: tip, commit_to: commit.id, commit_title: 'Add the changelog' })],
      ['pushed new', push({ action: 'created', ref_type: 'branch', ref: 'topic', commit_to: commit.id })],
      ['pushed to', push({ commit_count: 1, action: 'pushed', ref_type: 'branch', ref: 'topic', commit_from: commit.id, commit_to: pushes[2].push_data.commit_to,
        commit_title: 'A topic commit with a title that goes on for well beyond the sevent...' })],
      ['deleted', push({ action: 'removed', ref_type: 'branch', ref: 'topic', commit_from: pushes[2].push_data.commit_to })],
      ['pushed new', push({ commit_count: 1, action: 'created', ref_type: 'tag', ref: 'v1', commit_to: commit.id, commit_title: 'Add the changelog' })],
      ['deleted', push({ action: 'removed', ref_type: 'tag', ref: 'v1', commit_from: commit.id })],
    ])
    expect(pushes[0]).toEqual({
      id: pushes[0].id, ...base(alice, project.id), action_name: 'pushed to', target_id: null, target_iid: null, target_type: null, target_title: null,
      created_at: '2024-03-01T10:00:00.000Z', push_data: pushes[0].push_data,
    })
  })

  it('records issues opened, closed and reopened, and comments on them with the note', async () => {
    clock.set('2024-03-02T09:00:00.000Z')
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Broken feed' }), 201).body
    expectStatus(await alice.api.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: 'close' }), 200)
    expectStatus(await alice.api.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: 'reopen' }), 200)
    // An edit is not an event.
    expectStatus(await alice.api.put(`/projects/${project.id}/issues/${issue.iid}`, { title: 'Broken feed, renamed' }), 200)
    const note = expectStatus(await alice.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Looking' }), 201).body
    const listed = await events(alice, `/projects/${project.id}/events`, { after: '2024-03-01' })
    expect(listed.map((e) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual([
      ['commented on', 'Note', note.id, note.id, 'Broken feed, renamed'],
      ['opened', 'Issue', issue.id, issue.iid, 'Broken feed, renamed'],
      ['closed', 'Issue', issue.id, issue.iid, 'Broken feed, renamed'],
      ['opened', 'Issue', issue.id, issue.iid, 'Broken feed, renamed'],
    ])
    expect(listed[0]).toEqual({
      id: listed[0].id, ...base(alice, project.id), action_name: 'commented on', target_id: note.id, target_iid: note.id, target_type: 'Note',
      target_title: 'Broken feed, renamed', created_at: '2024-03-02T09:00:00.000Z', note: { ...note, noteable_type: 'Issue' },
    })
    expect(Object.keys(listed[0]).slice(8, 11)).toEqual(['created_at', 'note', 'author'])
  })

  it('records merge requests opened, closed, reopened, approved and accepted', async () => {
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits`, {
      branch: 'change', start_branch: 'main', commit_message: 'Change', actions: [{ action: 'create', file_path: 'c', content: 'c\n' }],
    }), 201)
    const mr = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'change', target_branch: 'main', title: 'Change it' }), 201).body
    expectStatus(await alice.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { state_event: 'close' }), 200)
    expectStatus(await alice.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { state_event: 'reopen' }), 200)
    expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/approve`), 201)
    await server.app.tasks.idle()
    expectStatus(await alice.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 200)
    const listed = await events(alice, `/projects/${project.id}/events`, { target_type: 'merge_request', sort: 'asc' })
    expect(listed.map((e) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual([
      ['opened', 'MergeRequest', mr.id, mr.iid, 'Change it'],
      ['closed', 'MergeRequest', mr.id, mr.iid, 'Change it'],
      ['opened', 'MergeRequest', mr.id, mr.iid, 'Change it'],
      ['approved', 'MergeRequest', mr.id, mr.iid, 'Change it'],
      ['accepted', 'MergeRequest', mr.id, mr.iid, 'Change it'],
    ])
  })

  it('records wiki pages created, updated and destroyed with the page', async () => {
    expectStatus(await alice.api.post(`/projects/${project.id}/wikis`, { title: 'Home Page', content: 'hi' }), 201)
    expectStatus(await alice.api.put(`/projects/${project.id}/wikis/Home-Page`, { content: 'hello' }), 200)
    expectStatus(await alice.api.del(`/projects/${project.id}/wikis/Home-Page`), 204)
    const listed = await events(alice, `/projects/${project.id}/events`, { target_type: 'wiki', sort: 'asc' })
    expect(listed.map((e) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title, e.wiki_page])).toEqual(
      ['created', 'updated', 'destroyed'].map((a) => [a, 'WikiPage::Meta', null, null, 'Home Page', { format: 'markdown', slug: 'Home-Page', title: 'Home Page' }]))
  })

  it('records comments on commits, titled with the commit, their target type the note class', async () => {
    const [changelog] = await events(alice, `/projects/${project.id}/events`, { action: 'pushed', sort: 'asc' })
    const sha = changelog.push_data.commit_to
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits/${sha}/comments`, { note: 'Nice' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits/${sha}/comments`, { note: 'This line', path: 'CHANGELOG', line: 1, line_type: 'new' }), 201)
    const listed = await events(alice, `/projects/${project.id}/events`, { action: 'commented', sort: 'asc' })
    expect(listed.slice(1).map((e) => [e.action_name, e.target_type, e.target_title, e.note.body, e.note.noteable_type, e.note.noteable_id, e.note.noteable_iid]))
      .toEqual([['commented on', 'Note', 'Add the changelog', 'Nice', 'Commit', null, null], ['commented on', 'LegacyDiffNote', 'Add the changelog', 'This line', 'Commit', null, null]])
    expect(listed[2].target_iid).toBe(listed[2].target_id)
  })

  it('records members joining and leaving as the member', async () => {
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
    expectStatus(await bob.api.del(`/projects/${project.id}/members/${bob.id}`), 204)
    const listed = await events(alice, `/users/${bob.username}/events`)
    expect(listed.map((e) => [e.action_name, e.author_id, e.project_id, e.target_type])).toEqual([['left', bob.id, project.id, null], ['joined', bob.id, project.id, null]])
  })

  it('keeps a comment-only feed with target_type=note and pages it', async () => {
    // GitLab's filter selects the class Note only, not its subclasses.
    const notes = await events(alice, '/events', { target_type: 'note' })
    expect(notes.map((e) => [e.action_name, e.target_type])).toEqual([['commented on', 'Note'], ['commented on', 'Note']])
    await server.app.tasks.idle()
    const page = await alice.api.get('/events', { query: { per_page: '2', page: '2', sort: 'asc' } })
    expect(page.headers.get('x-total')).toBe('23')
    expect(page.body.map((e: any) => e.action_name)).toEqual(['pushed new', 'pushed to'])
  })

  it('records a fork as a project its forker created', async () => {
    const fork = expectStatus(await alice.api.post(`/projects/${project.id}/fork`, { name: 'Feed fork', path: 'feed-fork' }), 201).body
    const [listed] = await events(alice, '/events', { action: 'created' })
    expect([listed.action_name, listed.project_id, listed.author_id, listed.target_type]).toEqual(['created', fork.id, alice.id, null])
  })

  it('records comments on project snippets; a guest sees them, not the comments on code they may not read', async () => {
    const snippet = expectStatus(await alice.api.post(`/projects/${project.id}/snippets`, { title: 'Snip', file_name: 'a.txt', content: 'a', visibility: 'private' }), 201).body
    const note = expectStatus(await alice.api.post(`/projects/${project.id}/snippets/${snippet.id}/notes`, { body: 'On the snippet' }), 201).body
    const [listed] = await events(alice, `/projects/${project.id}/events`, { action: 'commented' })
    expect([listed.target_type, listed.target_id, listed.target_title, listed.note]).toEqual(['Note', note.id, 'Snip', { ...note, noteable_iid: null }])
    // A guest of the private project reads its snippets (members do), not its code.
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 10 }), 201)
    const seen = await events(bob, `/projects/${project.id}/events`, { action: 'commented' })
    expect(seen.map((e) => e.target_title)).toEqual(['Snip', 'Broken feed, renamed'])
  })

  it('records a membership that expired, as its member, on the day it is swept', async () => {
    const carol = await createUser(server, 'carol')
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: carol.id, access_level: 30, expires_at: '2024-03-10' }), 201)
    clock.set('2024-03-10T12:00:00.000Z')
    expect(removeExpiredMembers(server.app)).toBe(1)
    const listed = await events(alice, `/users/${carol.id}/events`)
    expect(listed.map((e) => [e.action_name, e.project_id, e.created_at])).toEqual([
      ['removed due to membership expiration from', project.id, '2024-03-10T12:00:00.000Z'], ['joined', project.id, '2024-03-02T09:00:00.000Z'],
    ])
  })

  it('records milestones opened, closed, reopened and destroyed, a destroyed one by its last title', async () => {
    const m = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1.0' }), 201).body
    expectStatus(await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { state_event: 'close' }), 200)
    expectStatus(await alice.api.put(`/projects/${project.id}/milestones/${m.id}`, { state_event: 'activate', title: 'v1.1' }), 200)
    const live = await events(alice, `/projects/${project.id}/events`, { target_type: 'milestone', sort: 'asc' })
    expect(live.map((e) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual(
      ['opened', 'closed', 'opened'].map((a) => [a, 'Milestone', m.id, m.iid, 'v1.1']))
    expectStatus(await alice.api.del(`/projects/${project.id}/milestones/${m.id}`), 204)
    const [gone] = await events(alice, `/projects/${project.id}/events`, { target_type: 'milestone' })
    expect([gone.action_name, gone.target_id, gone.target_iid, gone.target_title]).toEqual(['destroyed', m.id, m.id, 'v1.1'])
  })
})
