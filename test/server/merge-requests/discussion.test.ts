// A merge request's discussion through the shared layer (notes, award emoji, subscriptions, todos, time tracking,
// participants), its read-only sub-resources (changes, commits), rebase, and merge requests from forks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MergeRequestChanges } from '../../../src/contract/entities/merge-requests.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { userBasic } from '../../helpers/issues.js'
import { branchHead, commit, create, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any
let mr: any

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  await seedMaster(alice.api, project.id)
  await branchWith(alice.api, project.id, 'feature', 'a.txt', 'a\n')
  await commit(alice.api, project.id, { branch: 'feature', commit_message: 'Edit readme', actions: [update('README.md', '# demo!\n')] })
  mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
})
afterAll(() => server.close())

describe('notes and award emoji', () => {
  it('comments, edits and deletes notes; the count follows', async () => {
    const note = expectStatus(await bob.api.post(mrPath(project.id, 1, '/notes'), { body: 'Nice' }), 201).body
    expect(note).toEqual({
      id: note.id, body: 'Nice', attachment: null, author: { ...userBasic(server, bob), email: 'bob@example.com', created_at: NOW },
      created_at: NOW, updated_at: NOW, system: false, noteable_id: mr.id, noteable_type: 'MergeRequest', noteable_iid: 1, resolvable: false, type: null,
    })
    expect((await alice.api.get(mrPath(project.id, 1))).body.user_notes_count).toBe(1)
    expect(expectStatus(await bob.api.put(mrPath(project.id, 1, `/notes/${note.id}`), { body: 'Nicer' }), 200).body.body).toBe('Nicer')
    expect((await alice.api.get(mrPath(project.id, 1, `/notes/${note.id}`))).body.body).toBe('Nicer')
    expect((await bob.api.del(mrPath(project.id, 1, `/notes/${note.id}`))).status).toBe(204)
    expect((await alice.api.get(mrPath(project.id, 1))).body.user_notes_count).toBe(0)
  })

  it('awards emoji (a note of one emoji too), refuses a second of the same and others\' removals', async () => {
    const award = expectStatus(await bob.api.post(mrPath(project.id, 1, '/award_emoji'), { name: 'thumbsup' }), 201).body
    expect(award).toEqual({ id: award.id, name: 'thumbsup', user: userBasic(server, bob), created_at: NOW, updated_at: NOW, awardable_id: mr.id, awardable_type: 'MergeRequest', url: null })
    const twice = await bob.api.post(mrPath(project.id, 1, '/award_emoji'), { name: 'thumbsup' })
    expect([twice.status, twice.body]).toEqual([404, { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' }])
    const viaNote = expectStatus(await alice.api.post(mrPath(project.id, 1, '/notes'), { body: ':thumbsdown:' }), 201).body
    expect([viaNote.name, viaNote.awardable_type]).toEqual(['thumbsdown', 'MergeRequest'])
    const listed = (await alice.api.get(mrPath(project.id, 1, '/award_emoji'))).body
    expect(listed.map((a: any) => [a.name, a.user.username])).toEqual([['thumbsup', 'bob'], ['thumbsdown', 'alice']])
    expect((await alice.api.get(mrPath(project.id, 1, `/award_emoji/${award.id}`))).body).toEqual(award)
    expect((await alice.api.del(mrPath(project.id, 1, `/award_emoji/${award.id}`))).status).toBe(401)
    const mine = (await alice.api.get(mrPath(project.id, 1))).body
    expect([mine.upvotes, mine.downvotes]).toEqual([1, 1])
    expect((await alice.api.get(`/projects/${project.id}/merge_requests`, { query: { my_reaction_emoji: 'thumbsdown' } })).body.map((m: any) => m.iid)).toEqual([1])
    expect((await bob.api.del(mrPath(project.id, 1, `/award_emoji/${award.id}`))).status).toBe(204)
  })
})

describe('subscriptions, todos, time tracking, participants', () => {
  it('subscribes and unsubscribes, 304 when already so', async () => {
    expect((await bob.api.post(mrPath(project.id, 1, '/unsubscribe'))).status).toBe(304)
    expect(expectStatus(await bob.api.post(mrPath(project.id, 1, '/subscribe')), 201).body.subscribed).toBe(true)
    expect((await bob.api.post(mrPath(project.id, 1, '/subscribe'))).status).toBe(304)
    expect(expectStatus(await bob.api.post(mrPath(project.id, 1, '/unsubscribe')), 201).body.subscribed).toBe(false)
  })

  it('makes a todo (304 while pending) that the todo list shows with its merge request', async () => {
    const todo = expectStatus(await bob.api.post(mrPath(project.id, 1, '/todo')), 201).body
    expect([todo.target_type, todo.action_name, todo.target.iid, todo.target.user, todo.body]).toEqual(['MergeRequest', 'marked', 1, { can_merge: false }, 'Feature'])
    expect((await bob.api.post(mrPath(project.id, 1, '/todo'))).status).toBe(304)
    const list = (await bob.api.get('/todos', { query: { type: 'MergeRequest' } })).body
    expect(list.map((t: any) => [t.id, t.target_type])).toEqual([[todo.id, 'MergeRequest']])
    expect((await bob.api.get('/todos', { query: { type: 'Issue' } })).body).toEqual([])
  })

  it('tracks time with notes; participants are the author then commenters', async () => {
    expect(expectStatus(await alice.api.post(mrPath(project.id, 1, '/time_estimate'), { duration: '3h30m' }), 200).body)
      .toEqual({ time_estimate: 12600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null })
    expect(expectStatus(await alice.api.post(mrPath(project.id, 1, '/add_spent_time'), { duration: '1h' }), 201).body.total_time_spent).toBe(3600)
    expect((await alice.api.get(mrPath(project.id, 1, '/time_stats'))).body.human_total_time_spent).toBe('1h')
    expect(expectStatus(await alice.api.post(mrPath(project.id, 1, '/reset_spent_time')), 200).body.total_time_spent).toBe(0)
    expect(expectStatus(await alice.api.post(mrPath(project.id, 1, '/reset_time_estimate')), 200).body.time_estimate).toBe(0)
    expectStatus(await bob.api.post(mrPath(project.id, 1, '/notes'), { body: 'Hi' }), 201)
    expect((await alice.api.get(mrPath(project.id, 1, '/participants'))).body).toEqual([userBasic(server, alice), userBasic(server, bob)])
  })
})

describe('changes, commits and rebase', () => {
  it('answers the changes with the single form, and the commits newest first', async () => {
    const res = expectStatus(await alice.api.get(mrPath(project.id, 1, '/changes')), 200).body
    expect(MergeRequestChanges.strict().parse(res).changes_count).toBe('2')
    expect(res.changes.map((c: any) => [c.new_path, c.new_file])).toEqual([['README.md', false], ['a.txt', true]])
    expect(res.changes[1].diff).toBe('@@ -0,0 +1 @@\n+a\n')
    const commits = (await alice.api.get(mrPath(project.id, 1, '/commits'))).body
    expect(commits.map((c: any) => c.title)).toEqual(['Edit readme', 'Add a.txt'])
  })

  it('caps the changes at 1,000 files: changes_count "1000+" and overflow, unless the raw diffs are asked for', async () => {
    const actions = Array.from({ length: 1001 }, (_, i) => create(`many/f${i}.txt`, `${i}\n`))
    await commit(alice.api, project.id, { branch: 'many', start_branch: 'master', commit_message: 'Many', actions })
    const many = await openMergeRequest(alice.api, project.id, { source_branch: 'many', title: 'Many' })
    expect(many.changes_count).toBe('1000+')
    const capped = (await alice.api.get(mrPath(project.id, many.iid, '/changes'))).body
    expect([capped.changes.length, capped.overflow, capped.changes_count]).toEqual([1000, true, '1000+'])
    const raw = (await alice.api.get(mrPath(project.id, many.iid, '/changes'), { query: { access_raw_diffs: true } })).body
    expect([raw.changes.length, raw.overflow]).toEqual([1001, false])
    expectStatus(await alice.api.put(mrPath(project.id, many.iid), { state_event: 'close' }), 200)
  })

  it('rebases the source onto a moved target (202) and the merge request follows', async () => {
    await commit(alice.api, project.id, { branch: 'master', commit_message: 'more', actions: [create('m.txt', 'm\n')] })
    await server.app.tasks.idle()
    const diverged = (await alice.api.get(mrPath(project.id, 1), { query: { include_diverged_commits_count: true } })).body
    expect(diverged.diverged_commits_count).toBe(1)
    const res = await bob.api.put(mrPath(project.id, 1, '/rebase'))
    expect([res.status, res.body]).toEqual([202, { rebase_in_progress: true }])
    await server.app.tasks.idle()
    const after = (await alice.api.get(mrPath(project.id, 1), { query: { include_diverged_commits_count: true, include_rebase_in_progress: true } })).body
    expect([after.diverged_commits_count, after.rebase_in_progress, after.merge_error, after.sha]).toEqual([0, false, null, await branchHead(alice.api, project.id, 'feature')])
  })
})

describe('merge requests from forks', () => {
  it('opens from a fork into its parent, reads the fork\'s commits and merges its objects', async () => {
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    await server.app.tasks.idle() // the fork's repository is copied in the background
    await commit(bob.api, fork.id, { branch: 'forked', start_branch: 'master', commit_message: 'From fork', actions: [create('f.txt', 'f\n')] })
    const other = await createProject(bob.api, { name: 'unrelated' })
    const refused = await bob.api.post(`/projects/${other.id}/merge_requests`, { source_branch: 'master', target_branch: 'master', title: 'x', target_project_id: project.id })
    expect([refused.status, refused.body]).toEqual([422, { message: ['Source project is not a fork of the target project'] }])
    const fromFork = expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: 'forked', target_branch: 'master', title: 'Fork work', target_project_id: project.id,
    }), 201).body
    expect([fromFork.project_id, fromFork.source_project_id, fromFork.merge_status, fromFork.allow_collaboration]).toEqual([project.id, fork.id, 'can_be_merged', false])
    expect((await alice.api.get(mrPath(project.id, fromFork.iid, '/commits'))).body.map((c: any) => c.title)).toEqual(['From fork'])
    const merged = expectStatus(await alice.api.put(mrPath(project.id, fromFork.iid, '/merge')), 200).body
    expect(merged.state).toBe('merged')
    const file = await alice.api.get(`/projects/${project.id}/repository/files/f.txt/raw`, { query: { ref: 'master' } })
    expect([file.status, file.text]).toEqual([200, 'f\n'])
  })

  it('keeps the merge requests of a deleted fork with their discussion, closed (fork-deleted.test.ts has the rest)', async () => {
    const fork = (await bob.api.get(`/projects/${project.id}/forks`)).body[0]
    await commit(bob.api, fork.id, { branch: 'doomed', start_branch: 'master', commit_message: 'Doomed', actions: [create('d.txt', 'd\n')] })
    const doomed = expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: 'doomed', target_branch: 'master', title: 'Doomed', target_project_id: project.id,
    }), 201).body
    expectStatus(await alice.api.post(mrPath(project.id, doomed.iid, '/notes'), { body: 'hm' }), 201)
    expect((await bob.api.del(`/projects/${fork.id}`)).status).toBe(202)
    await server.app.tasks.idle()
    const kept = expectStatus(await alice.api.get(mrPath(project.id, doomed.iid)), 200).body
    expect([kept.state, kept.source_project_id, kept.user_notes_count]).toEqual(['closed', null, 1])
  })
})
