// The list filters issues and merge requests share (one module, store/issuable-lists.ts): twin issues and merge
// requests with the same labels, milestone, assignees, reactions, titles and dates answer every shared filter alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './fixtures.js'

const clock = movableClock('2024-01-01T00:00:00Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  const v1 = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
  await seedMaster(alice.api, project.id)
  const twins = [
    { title: 'Crash on start', labels: 'bug,critical', milestone_id: v1.id, as: alice },
    { title: 'Docs typo', description: 'the word crash is misspelled', labels: 'docs', as: alice },
    { title: 'Feature', assignee_ids: [alice.id], labels: 'bug', as: bob },
    { title: 'Plain', as: bob },
  ]
  for (const [i, { as, ...fields }] of twins.entries()) {
    clock.set(`2024-01-0${i + 1}T00:00:00Z`)
    await createIssue(as.api, project.id, fields)
    await branchWith(alice.api, project.id, `b${i}`, `f${i}.txt`)
    await openMergeRequest(as.api, project.id, { source_branch: `b${i}`, ...fields })
  }
  expectStatus(await bob.api.post(`/projects/${project.id}/issues/1/award_emoji`, { name: 'thumbsup' }), 201)
  expectStatus(await bob.api.post(mrPath(project.id, 1, '/award_emoji'), { name: 'thumbsup' }), 201)
})
afterAll(() => server.close())

const iids = async (as: TestUser['api'], kind: 'issues' | 'merge_requests', query: Record<string, any>) => {
  const res = expectStatus(await as.get(`/projects/${project.id}/${kind}`, { query }), 200)
  return res.body.map((i: any) => i.iid)
}

describe('issue and merge request lists', () => {
  const cases: [string, Record<string, any>, number[]][] = [
    ['all, newest first', {}, [4, 3, 2, 1]],
    ['one label', { labels: 'bug' }, [3, 1]],
    ['two labels, both held', { labels: 'bug,critical' }, [1]],
    ['no label (None)', { labels: 'None' }, [4]],
    ['no label (No+Label, the plus encoded)', { labels: 'No+Label' }, [4]],
    ['any label', { labels: 'Any' }, [3, 2, 1]],
    ['a milestone by title', { milestone: 'v1' }, [1]],
    ['no milestone', { milestone: 'None' }, [4, 3, 2]],
    ['any milestone', { milestone: 'Any' }, [1]],
    ['an assignee', { assignee_id: 0 }, []],
    ['no assignee', { assignee_id: 'None' }, [4, 2, 1]],
    ['any assignee', { assignee_id: 'Any' }, [3]],
    ['an author', { author_id: 0 }, []],
    ['a search of title and description', { search: 'crash' }, [2, 1]],
    ['iids, oldest first', { iids: [1, 3], sort: 'asc' }, [1, 3]],
    ['created after and before', { created_after: '2024-01-02T00:00:00Z', created_before: '2024-01-03T00:00:00Z' }, [3, 2]],
    ['ordered by update', { order_by: 'updated_at', sort: 'asc' }, [1, 2, 3, 4]],
  ]
  it.each(cases)('answer %s alike', async (_name, query, expected) => {
    const q = { ...query }
    if (q.assignee_id === 0) { q.assignee_id = alice.id; expected = [3] }
    if (q.author_id === 0) { q.author_id = bob.id; expected = [4, 3] }
    expect(await iids(alice.api, 'issues', q)).toEqual(expected)
    expect(await iids(alice.api, 'merge_requests', q)).toEqual(expected)
  })

  it('answer my_reaction_emoji by who asks', async () => {
    for (const kind of ['issues', 'merge_requests'] as const) {
      expect(await iids(bob.api, kind, { my_reaction_emoji: 'thumbsup' })).toEqual([1])
      expect(await iids(alice.api, kind, { my_reaction_emoji: 'thumbsup' })).toEqual([])
      expect(await iids(bob.api, kind, { my_reaction_emoji: 'None' })).toEqual([4, 3, 2])
    }
  })

  it('answer an anonymous caller\'s created_by_me and assigned_to_me with nothing (GitLab\'s by_scope: items.none)', async () => {
    const anonymous = api(server)
    for (const kind of ['issues', 'merge_requests'] as const) {
      expect(await iids(anonymous, kind, { scope: 'all' })).toEqual([4, 3, 2, 1])
      expect(await iids(anonymous, kind, { scope: 'created_by_me', author_id: alice.id })).toEqual([])
      expect(await iids(anonymous, kind, { scope: 'assigned_to_me' })).toEqual([])
    }
  })
})
