// POST/GET/PUT/DELETE /projects/:id/merge_requests[/:iid] and the three lists: exact bodies, bad input, state read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MergeRequest, MergeRequestBasic } from '../../../src/contract/entities/merge-requests.js'
import { createGroup, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, expectedSingle, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
let base: string
let head: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  const group = await createGroup(alice.api, { name: 'team', path: 'team', visibility: 'public' })
  project = await createProject(alice.api, { name: 'demo', namespace_id: group.id, visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  base = (await seedMaster(alice.api, project.id)).id
  head = (await branchWith(alice.api, project.id, 'feature', 'a.txt')).id
  await branchWith(alice.api, project.id, 'wip', 'b.txt')
})
afterAll(() => server.close())

describe('creating a merge request', () => {
  it('answers 201 with the single form, merge status computed, and GET answers the same', async () => {
    const res = await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master', title: 'Feature' })
    expect(res.status).toBe(201)
    expect(MergeRequest.strict().parse(res.body)).toEqual(expectedSingle(server, {
      id: res.body.id, iid: 1, project, author: userBasic(server, alice), at: NOW, sha: head,
      diff_refs: { base_sha: base, head_sha: head, start_sha: base },
    }))
    expect((await alice.api.get(mrPath(project.id, 1))).body).toEqual(res.body)
  })

  it('answers the diverged commit count when asked, and can_merge false to a non-member', async () => {
    expect((await alice.api.get(mrPath(project.id, 1), { query: { include_diverged_commits_count: true } })).body.diverged_commits_count).toBe(0)
    const seen = (await carol.api.get(mrPath(project.id, 1))).body
    expect([seen.user, seen.subscribed]).toEqual([{ can_merge: false }, false])
  })

  it('refuses a second open merge request from the same branch into the same target (409)', async () => {
    const res = await bob.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master', title: 'Again' })
    expect([res.status, res.body]).toEqual([409, { message: ['Another open merge request already exists for this source branch: !1'] }])
  })

  it('refuses the same branch as source and target (422) and missing branches (400)', async () => {
    const same = await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'master', target_branch: 'master', title: 'x' })
    expect([same.status, same.body]).toEqual([422, { message: ["You can't use same project/branch for source and target"] }])
    const noSource = await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'nope', target_branch: 'master', title: 'x' })
    expect([noSource.status, noSource.body]).toEqual([400, { message: { source_branch: ['does not exist'] } }])
    const noTarget = await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'nope', title: 'x' })
    expect([noTarget.status, noTarget.body]).toEqual([400, { message: { target_branch: ['does not exist'] } }])
    const noTitle = await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master' })
    expect(noTitle.status).toBe(400)
  })

  it('refuses a target project with merge requests disabled (422)', async () => {
    const off = await createProject(alice.api, { name: 'off', merge_requests_enabled: false })
    await seedMaster(alice.api, off.id)
    await branchWith(alice.api, off.id, 'feature', 'a.txt')
    const res = await alice.api.post(`/projects/${off.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master', title: 'x' })
    expect([res.status, res.body]).toEqual([422, { message: ['Target project has disabled merge requests'] }])
  })

  it('lets only Developers and up create (403)', async () => {
    const res = await carol.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'wip', target_branch: 'master', title: 'x' })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
  })

  it('marks drafts from every prefix GitLab knows; the wip filter follows', async () => {
    const titles = ['Draft: a', '[Draft] b', '(draft) c', 'WIP: d', '[WIP] e', 'draft - f', 'Drafting g']
    const drafts = []
    for (const title of titles) {
      const branch = `d${drafts.length}`
      await branchWith(alice.api, project.id, branch, `${branch}.txt`)
      const mr = await openMergeRequest(alice.api, project.id, { source_branch: branch, title })
      drafts.push([mr.draft, mr.work_in_progress, mr.detailed_merge_status])
    }
    expect(drafts.map((d) => d[0])).toEqual([true, true, true, true, true, true, false])
    expect(drafts[0]).toEqual([true, true, 'draft_status'])
    const wip = await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { wip: 'yes', per_page: 100 } })
    expect(wip.body.map((m: any) => m.title).sort()).toEqual(titles.slice(0, 6).sort())
    const notWip = await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { wip: 'no' } })
    expect(notWip.body.map((m: any) => m.title)).toEqual(['Drafting g', 'Feature'])
  })
})

describe('listing merge requests', () => {
  it('answers the basic form, paginated, and view=simple exactly the simple fields', async () => {
    const res = await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { per_page: 2, source_branch: 'feature' } })
    expect([res.status, res.headers.get('x-total'), res.body.length]).toEqual([200, '1', 1])
    expect(MergeRequestBasic.strict().parse(res.body[0]).title).toBe('Feature')
    const simple = await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { view: 'simple', iids: [1] } })
    expect(simple.body).toEqual([{
      id: res.body[0].id, iid: 1, project_id: project.id, title: 'Feature', description: null, state: 'opened',
      created_at: NOW, updated_at: NOW, web_url: `${server.url}/team/demo/-/merge_requests/1`,
    }])
  })

  it('filters the group and global lists (created_by_me by default)', async () => {
    const group = await alice.api.get(`/groups/team/merge_requests`, { query: { target_branch: 'master', search: 'Feat', per_page: 100 } })
    expect(group.body.map((m: any) => m.title)).toEqual(['Feature'])
    expect((await bob.api.get('/merge_requests')).body).toEqual([])
    expect((await bob.api.get('/merge_requests', { query: { scope: 'all', state: 'opened', iids: [1] } })).body.map((m: any) => m.iid)).toEqual([1])
    expect((await alice.api.get('/merge_requests', { query: { state: 'merged' } })).body).toEqual([])
  })
})

describe('updating and deleting', () => {
  it('closes with a system note and reopens; a reopen is refused while a twin is open', async () => {
    const closed = expectStatus(await bob.api.put(mrPath(project.id, 1), { state_event: 'close' }), 200).body
    expect([closed.state, closed.closed_by?.username, closed.closed_at, closed.detailed_merge_status]).toEqual(['closed', 'bob', NOW, 'not_open'])
    const twin = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Twin' })
    const refused = await alice.api.put(mrPath(project.id, 1), { state_event: 'reopen' })
    expect([refused.status, refused.body]).toEqual([409, { message: [`Another open merge request already exists for this source branch: !${twin.iid}`] }])
    expectStatus(await alice.api.put(mrPath(project.id, twin.iid), { state_event: 'close' }), 200)
    const reopened = expectStatus(await alice.api.put(mrPath(project.id, 1), { state_event: 'reopen' }), 200).body
    expect([reopened.state, reopened.closed_by, reopened.merge_status]).toEqual(['opened', null, 'can_be_merged'])
    const notes = (await alice.api.get(mrPath(project.id, 1, '/notes'), { query: { sort: 'asc' } })).body
    expect(notes.map((n: any) => [n.body, n.system, n.author.username, n.noteable_type])).toEqual([
      ['closed', true, 'bob', 'MergeRequest'], ['reopened', true, 'alice', 'MergeRequest'],
    ])
  })

  it('sets labels, assignees, reviewers, milestone, lock and removal flag; retargets with a note', async () => {
    const milestone = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
    const res = expectStatus(await alice.api.put(mrPath(project.id, 1), {
      labels: 'bug,ui', assignee_ids: [bob.id], reviewer_ids: [alice.id], milestone_id: milestone.id, discussion_locked: true,
      remove_source_branch: true, squash: true, title: 'Feature!', description: '- [x] done\n- [ ] todo',
    }), 200).body
    expect([res.labels, res.assignee.username, res.reviewers.map((u: any) => u.username), res.milestone.title, res.discussion_locked,
      res.force_remove_source_branch, res.squash, res.title, res.task_completion_status])
      .toEqual([['bug', 'ui'], 'bob', ['alice'], 'v1', true, true, true, 'Feature!', { count: 2, completed_count: 1 }])
    const labels = (await alice.api.get(`/projects/${project.id}/labels`)).body
    expect(labels.map((l: any) => [l.name, l.open_merge_requests_count, l.open_issues_count])).toEqual([['bug', 1, 0], ['ui', 1, 0]])
    const retargeted = expectStatus(await alice.api.put(mrPath(project.id, 1), { target_branch: 'wip' }), 200).body
    expect([retargeted.target_branch, retargeted.merge_status]).toEqual(['wip', 'can_be_merged'])
    const notes = (await alice.api.get(mrPath(project.id, 1, '/notes'), { query: { per_page: 1 } })).body
    expect(notes[0].body).toBe('changed target branch from `master` to `wip`')
    const bad = await alice.api.put(mrPath(project.id, 1), { target_branch: 'feature' })
    expect([bad.status, bad.body]).toEqual([422, { message: ["You can't use same project/branch for source and target"] }])
    expect((await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { labels: 'ui', milestone: 'v1', assignee_id: bob.id } })).body.map((m: any) => m.iid)).toEqual([1])
    expect((await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { reviewer_id: alice.id } })).body.map((m: any) => m.iid)).toEqual([1])
  })

  it('lets only owners delete (403, then 204 and 404)', async () => {
    const del = await bob.api.del(mrPath(project.id, 1))
    expect([del.status, del.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await alice.api.del(mrPath(project.id, 1))).status).toBe(204)
    const gone = await alice.api.get(mrPath(project.id, 1))
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Merge Request Not Found' }])
  })
})

// Last, because it opens one more merge request (the tests above count them and their iids).
describe('render_html', () => {
  it('adds title_html and description_html with render_html, escaping raw HTML and linking references', async () => {
    await branchWith(alice.api, project.id, 'render', 'r.txt')
    const made = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, {
      source_branch: 'render', target_branch: 'master', title: 'Render *this*', description: 'Fixes #1 <script>x()</script>\n\n- [x] done',
    }), 201).body
    const plain = (await alice.api.get(mrPath(project.id, made.iid))).body
    expect([plain.title_html, plain.description_html]).toEqual([undefined, undefined])
    const html = (await alice.api.get(mrPath(project.id, made.iid), { query: { render_html: true } })).body
    expect(html.title_html).toBe('Render <em>this</em>')
    expect(html.description_html).toContain(`href="${server.url}/${project.path_with_namespace}/-/issues/1"`)
    expect(html.description_html).toContain('&lt;script&gt;x()&lt;/script&gt;')
    expect(html.description_html).not.toContain('<script>')
  })
})
