// PUT …/merge and what follows: every refusal with GitLab's status, the merged state, closed issues, removed branches,
// statuses recomputed when branches move, and a commit's merge requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
const settle = () => server.app.tasks.idle()

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: carol.id, access_level: 20 }), 201)
  await seedMaster(alice.api, project.id)
})
afterAll(() => server.close())

const merge = (as: TestUser, iid: number, body: Record<string, unknown> = {}) => as.api.put(mrPath(project.id, iid, '/merge'), body)

describe('merging', () => {
  it('refuses callers without merge access (401), a wrong sha (409), then drafts (405)', async () => {
    const head = (await branchWith(alice.api, project.id, 'feature', 'a.txt', 'a\n', 'Add a\n\nCloses #1')).id
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Bug one' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Bug two' }), 201)
    const mr = await openMergeRequest(bob.api, project.id, { source_branch: 'feature', title: 'Draft: Feature', description: 'Fixes #2' })
    expect((await merge(carol, mr.iid)).status).toBe(401)
    expect((await merge(carol, mr.iid)).body).toEqual({ message: '401 Unauthorized' })
    // GitLab 17 checks the sha before whether the merge request can be merged.
    const wrong = await merge(alice, mr.iid, { sha: '0'.repeat(40) })
    expect([wrong.status, wrong.body]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${head}` }])
    const draft = await merge(alice, mr.iid, { sha: head })
    expect([draft.status, draft.body]).toEqual([405, { message: '405 Method Not Allowed' }])
    expectStatus(await bob.api.put(mrPath(project.id, mr.iid), { title: 'Feature' }), 200)
    expect((await alice.api.get(mrPath(project.id, mr.iid))).body.state).toBe('opened')
    expect(await branchHead(alice.api, project.id, 'master')).not.toBe(head)
  })

  it('merges: merged_by, merged_at, merge commit with the default message, issues closed by the merger, notes', async () => {
    const before = await branchHead(alice.api, project.id, 'master')
    const res = await merge(alice, 1, { should_remove_source_branch: true })
    expect(res.status).toBe(200)
    const b = res.body
    expect([b.state, b.merged_by.username, b.merged_at, b.merge_user.username, b.should_remove_source_branch, b.detailed_merge_status])
      .toEqual(['merged', 'alice', NOW, 'alice', true, 'not_open'])
    const master = await branchHead(alice.api, project.id, 'master')
    expect(master).toBe(b.merge_commit_sha)
    const mergeCommit = expectStatus(await alice.api.get(`${repo(project.id)}/commits/${master}`), 200).body
    expect(mergeCommit.message).toBe(`Merge branch 'feature' into 'master'\n\nFeature\n\nCloses #1 and #2\n\nSee merge request alice/demo!1\n`)
    expect(mergeCommit.parent_ids).toEqual([before, b.sha])
    expect(await branchHead(alice.api, project.id, 'feature')).toBeNull()
    for (const iid of [1, 2]) {
      const issue = (await alice.api.get(`/projects/${project.id}/issues/${iid}`)).body
      expect([issue.state, issue.closed_by.username]).toEqual(['closed', 'alice'])
      const notes = (await alice.api.get(`/projects/${project.id}/issues/${iid}/notes`)).body
      expect(notes.map((n: any) => [n.body, n.system])).toEqual([['closed via merge request !1', true]])
      const closedBy = (await alice.api.get(`/projects/${project.id}/issues/${iid}/closed_by`)).body
      expect(closedBy.map((m: any) => [m.iid, m.state])).toEqual([[1, 'merged']])
    }
    const notes = (await alice.api.get(mrPath(project.id, 1, '/notes'))).body
    expect(notes.map((n: any) => n.body)).toEqual(['merged', 'changed title from **Draft: Feature** to **Feature**'])
    const byCommit = (await alice.api.get(`${repo(project.id)}/commits/${master}/merge_requests`)).body
    expect(byCommit.map((m: any) => m.iid)).toEqual([1])
    const byOwnCommit = (await alice.api.get(`${repo(project.id)}/commits/${b.sha}/merge_requests`)).body
    expect(byOwnCommit.map((m: any) => m.iid)).toEqual([1])
    // api-v4.md: accepting a merged or closed merge request answers 406.
    const again = await merge(alice, 1)
    expect([again.status, again.body]).toEqual([406, { message: 'Method Not Allowed' }])
  })

  it('finds a conflict: cannot_be_merged and has_conflicts, and merging answers 405 Branch cannot be merged (api-v4.md)', async () => {
    await commit(alice.api, project.id, { branch: 'left', start_branch: 'master', commit_message: 'left', actions: [update('README.md', 'left\n')] })
    await commit(alice.api, project.id, { branch: 'master', commit_message: 'right', actions: [update('README.md', 'right\n')] })
    const mr = await openMergeRequest(bob.api, project.id, { source_branch: 'left', title: 'Left' })
    expect([mr.merge_status, mr.detailed_merge_status, mr.has_conflicts]).toEqual(['cannot_be_merged', 'conflict', true])
    const res = await merge(alice, mr.iid)
    expect([res.status, res.body]).toEqual([405, { message: 'Branch cannot be merged' }])
  })

  it('checks again when a branch moves: a push to the source adds a note, a target change can make it conflict', async () => {
    await branchWith(alice.api, project.id, 'moving', 'm.txt', 'm\n')
    const mr = await openMergeRequest(bob.api, project.id, { source_branch: 'moving', title: 'Moving' })
    expect(mr.merge_status).toBe('can_be_merged')
    await commit(bob.api, project.id, { branch: 'moving', commit_message: 'more', actions: [create('n.txt', 'n\n')] })
    await settle()
    const after = (await alice.api.get(mrPath(project.id, mr.iid))).body
    expect([after.sha, after.changes_count]).toEqual([await branchHead(alice.api, project.id, 'moving'), '2'])
    const notes = (await alice.api.get(mrPath(project.id, mr.iid, '/notes'))).body
    expect(notes.map((n: any) => [n.body, n.author.username])).toEqual([['added 1 commit', 'bob']])
    await commit(alice.api, project.id, { branch: 'master', commit_message: 'clash', actions: [create('m.txt', 'other\n')] })
    await settle()
    const clashed = (await alice.api.get(mrPath(project.id, mr.iid))).body
    expect([clashed.merge_status, clashed.has_conflicts]).toEqual(['cannot_be_merged', true])
  })

  it('closes_issues lists only for the default branch target; cancel refuses 406 when auto-merge was not set (PUT and POST)', async () => {
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Bug three' }), 201)
    const counts = async () => (await alice.api.get(`/projects/${project.id}/issues`, { query: { iids: [3] } })).body.map((i: any) => i.merge_requests_count)
    expect(await counts()).toEqual([0])
    await branchWith(alice.api, project.id, 'fix3', 'f3.txt')
    const mr = await openMergeRequest(bob.api, project.id, { source_branch: 'fix3', title: 'Resolves #3' })
    const closes = (await alice.api.get(mrPath(project.id, mr.iid, '/closes_issues'))).body
    expect(closes.map((i: any) => [i.iid, i.merge_requests_count])).toEqual([[3, 1]])
    expect(await counts()).toEqual([1])
    expectStatus(await bob.api.put(mrPath(project.id, mr.iid), { target_branch: 'moving' }), 200)
    expect((await alice.api.get(mrPath(project.id, mr.iid, '/closes_issues'))).body).toEqual([])
    expect(await counts()).toEqual([0])
    const put = await bob.api.put(mrPath(project.id, mr.iid, '/cancel_merge_when_pipeline_succeeds'))
    expect([put.status, put.body]).toEqual([406, { status: 'error', message: "Can't cancel the automatic merge" }])
    const post = await bob.api.post(mrPath(project.id, mr.iid, '/cancel_merge_when_pipeline_succeeds'))
    expect([post.status, post.body]).toEqual([406, { status: 'error', message: "Can't cancel the automatic merge" }])
    expect((await alice.api.get(mrPath(project.id, mr.iid, '/pipelines'))).body).toEqual([])
  })

  it('squashes into one commit when asked and merges with merge_when_pipeline_succeeds at once (no pipeline)', async () => {
    await branchWith(alice.api, project.id, 'sq', 's1.txt')
    await commit(alice.api, project.id, { branch: 'sq', commit_message: 's2', actions: [create('s2.txt', 's\n')] })
    const mr = await openMergeRequest(bob.api, project.id, { source_branch: 'sq', title: 'Squashed' })
    const res = expectStatus(await merge(alice, mr.iid, { squash: true, merge_when_pipeline_succeeds: true }), 200).body
    expect([res.state, res.squash, typeof res.squash_commit_sha]).toEqual(['merged', true, 'string'])
    const squash = (await alice.api.get(`${repo(project.id)}/commits/${res.squash_commit_sha}`)).body
    expect([squash.message, squash.author_name]).toEqual(['Squashed\n', 'User bob'])
  })
})
