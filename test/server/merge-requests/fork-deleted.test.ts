// A deleted fork leaves its merge requests in the project they target, as GitLab keeps them: the open one closed by
// the deleter (Projects::UnlinkForkService), source_project_id null, notes, commits and changes still there, merge and
// rebase refused with GitLab's answers, the page rendered; the target project still takes them along when deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { commit, create, gitIn } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { configureDeliveries, deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'
import { startReceiver, type Receiver } from '../hooks/receiver.js'
import { mrPath, seedMaster } from './fixtures.js'

const clock = movableClock('2024-05-01T10:00:00.000Z')
let server: TestServer
let alice: TestUser
let bob: TestUser
let rx: Receiver

beforeAll(async () => {
  server = await startTestServer({ clock })
  configureDeliveries(server.app, { retryDelaysMs: [30], timeoutMs: 400 })
  expectStatus(await api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  rx = await startReceiver()
})
afterAll(async () => {
  await rx.close()
  await server.close()
})

/** Upstream (alice's, public) and bob's fork, with one merged and one open merge request from the fork. */
async function world(name: string, ciYaml?: string) {
  clock.set('2024-05-01T10:00:00.000Z')
  const upstream = await createProject(alice.api, { name, visibility: 'public' })
  await seedMaster(alice.api, upstream.id)
  if (ciYaml) await commit(alice.api, upstream.id, { branch: 'master', commit_message: 'CI', actions: [create('.gitlab-ci.yml', ciYaml)] })
  const fork = expectStatus(await bob.api.post(`/projects/${upstream.id}/fork`, {}), 201).body
  await server.app.tasks.idle()
  const open = async (branch: string) => {
    await commit(bob.api, fork.id, { branch, start_branch: 'master', commit_message: `Add ${branch}`, actions: [create(`${branch}.txt`, `${branch}\n`)] })
    return expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: branch, target_branch: 'master', target_project_id: upstream.id, title: `Add ${branch}`,
    }), 201).body
  }
  const merged = await open('done')
  const pending = await open('pending')
  await server.app.tasks.idle()
  expect(expectStatus(await alice.api.put(mrPath(upstream.id, merged.iid, '/merge')), 200).body.state).toBe('merged')
  const note = expectStatus(await alice.api.post(mrPath(upstream.id, pending.iid, '/notes'), { body: 'Please add a test' }), 201).body
  await server.app.tasks.idle()
  return { upstream, fork, merged, pending, note }
}

const noteBodies = async (projectId: number, iid: number) =>
  expectStatus(await alice.api.get(mrPath(projectId, iid, '/notes'), { query: { sort: 'asc' } }), 200).body
    .map((n: any) => [n.author.username, n.system, n.body, n.created_at])

describe('deleting a fork', () => {
  it('keeps its merge requests upstream: the open one closed by the deleter, source_project_id null', async () => {
    const w = await world('keep')
    const before = {
      pending: expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid)), 200).body,
      merged: expectStatus(await alice.api.get(mrPath(w.upstream.id, w.merged.iid)), 200).body,
      changes: expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid, '/changes')), 200).body.changes,
      commits: expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid, '/commits')), 200).body,
    }
    clock.set('2024-05-02T09:00:00.000Z')
    expect(expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202).body).toEqual({ message: '202 Accepted' })
    await server.app.tasks.idle()

    const pending = expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid)), 200).body
    expect(pending).toEqual({
      ...before.pending, state: 'closed', closed_at: '2024-05-02T09:00:00.000Z', updated_at: '2024-05-02T09:00:00.000Z',
      closed_by: before.pending.author, source_project_id: null, detailed_merge_status: 'not_open',
    })
    expect(expectStatus(await alice.api.get(mrPath(w.upstream.id, w.merged.iid)), 200).body).toEqual({ ...before.merged, source_project_id: null })
    const list = expectStatus(await alice.api.get(`/projects/${w.upstream.id}/merge_requests`, { query: { state: 'all' } }), 200).body
    expect(list.map((m: any) => [m.iid, m.state, m.source_project_id, m.target_project_id, m.web_url]))
      .toEqual([[w.pending.iid, 'closed', null, w.upstream.id, before.pending.web_url], [w.merged.iid, 'merged', null, w.upstream.id, before.merged.web_url]])
    expect(await noteBodies(w.upstream.id, w.pending.iid)).toEqual([
      ['alice', false, 'Please add a test', '2024-05-01T10:00:00.000Z'],
      ['bob', true, 'closed', '2024-05-02T09:00:00.000Z'],
    ])
    const events = expectStatus(await alice.api.get(`/projects/${w.upstream.id}/merge_requests/${w.pending.iid}/resource_state_events`), 200).body
    expect(events.map((e: any) => [e.user.username, e.state, e.created_at])).toEqual([['bob', 'closed', '2024-05-02T09:00:00.000Z']])
    // What the merge request holds is read from the target repository, where its head stays.
    expect(expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid, '/changes')), 200).body.changes).toEqual(before.changes)
    expect(expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid, '/commits')), 200).body).toEqual(before.commits)
    expect(gitIn(server, w.upstream.id, ['rev-parse', `refs/merge-requests/${w.pending.iid}/head`]).trim()).toBe(before.pending.sha)
    expect(expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid, '/pipelines')), 200).body).toEqual([])
  })

  it('answers merge, rebase and reopen of such a merge request as GitLab does, never 500', async () => {
    const w = await world('refuse')
    expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202)
    await server.app.tasks.idle()
    const merge = await alice.api.put(mrPath(w.upstream.id, w.pending.iid, '/merge'))
    // Closed with its fork, merged before: api-v4.md's 406 for both.
    expect([merge.status, merge.body]).toEqual([406, { message: 'Method Not Allowed' }])
    const mergedAgain = await alice.api.put(mrPath(w.upstream.id, w.merged.iid, '/merge'))
    expect([mergedAgain.status, mergedAgain.body]).toEqual([406, { message: 'Method Not Allowed' }])
    for (const iid of [w.pending.iid, w.merged.iid]) {
      const rebase = await alice.api.put(mrPath(w.upstream.id, iid, '/rebase'))
      expect([rebase.status, rebase.body]).toEqual([403, { message: '403 Forbidden - Source branch does not exist' }])
    }
    // GitLab's reopen fails validation without the source project: the answer is the merge request, still closed.
    const reopen = expectStatus(await alice.api.put(mrPath(w.upstream.id, w.pending.iid), { state_event: 'reopen' }), 200).body
    expect([reopen.state, reopen.source_project_id]).toEqual(['closed', null])
    expect((await noteBodies(w.upstream.id, w.pending.iid)).map((n: any[]) => n[2])).toEqual(['Please add a test', 'closed'])
    const edit = expectStatus(await alice.api.put(mrPath(w.upstream.id, w.pending.iid), { title: 'Add pending (superseded)' }), 200).body
    expect([edit.title, edit.state]).toEqual(['Add pending (superseded)', 'closed'])
  })

  it('aborts an automatic merge waiting on the fork\'s pipeline, with GitLab\'s note', async () => {
    // The fork's push pipeline at the head stays pending: no runner takes it.
    const w = await world('auto', 'build:\n  script: [x]\n')
    const waiting = expectStatus(await alice.api.put(mrPath(w.upstream.id, w.pending.iid, '/merge'), { merge_when_pipeline_succeeds: true }), 200).body
    expect([waiting.state, waiting.merge_when_pipeline_succeeds]).toEqual(['opened', true])
    expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202)
    await server.app.tasks.idle()
    const after = expectStatus(await alice.api.get(mrPath(w.upstream.id, w.pending.iid)), 200).body
    expect([after.state, after.merge_when_pipeline_succeeds, after.merge_user, after.source_project_id]).toEqual(['closed', false, null, null])
    expect((await noteBodies(w.upstream.id, w.pending.iid)).map((n: any[]) => [n[0], n[2]])).toEqual([
      ['alice', 'Please add a test'],
      ['alice', `enabled an automatic merge when the pipeline for ${waiting.sha} succeeds`],
      ['bob', 'closed'],
      ['bob', 'aborted the automatic merge because merge request was closed'],
    ])
  })

  it('renders the merge request pages in the target project', async () => {
    const w = await world('pages')
    expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202)
    await server.app.tasks.idle()
    for (const rest of ['', '/commits', '/diffs']) {
      const res = await fetch(`${server.url}/${w.upstream.path_with_namespace}/-/merge_requests/${w.pending.iid}${rest}`)
      expect([rest, res.status]).toEqual([rest, 200])
      expect(await res.text()).toContain('Add pending')
    }
    const list = await fetch(`${server.url}/${w.upstream.path_with_namespace}/-/merge_requests?state=all`)
    expect(list.status).toBe(200)
    expect(await list.text()).toContain('Add done')
  })

  it('announces the close to the target project\'s hooks, with no source project', async () => {
    const w = await world('hooks')
    expectStatus(await alice.api.post(`/projects/${w.upstream.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, merge_requests_events: true }), 201)
    expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202)
    const [got] = await rx.waitFor(1)
    await deliveriesIdle(server.app)
    expect(got.headers['x-gitlab-event']).toBe('Merge Request Hook')
    expect(got.body.user.username).toBe('bob')
    expect(got.body.project.id).toBe(w.upstream.id)
    const a = got.body.object_attributes
    expect([a.iid, a.action, a.state, a.source_project_id, a.target_project_id, a.source, a.target.id])
      .toEqual([w.pending.iid, 'close', 'closed', null, w.upstream.id, null, w.upstream.id])
    expect(rx.received.length).toBe(1)
  })

  it('still takes its merge requests along when the target project is deleted', async () => {
    const w = await world('gone')
    expectStatus(await bob.api.del(`/projects/${w.fork.id}`), 202)
    await server.app.tasks.idle()
    const ids = [w.pending.id, w.merged.id]
    expectStatus(await alice.api.del(`/projects/${w.upstream.id}`), 202)
    const db = server.app.db
    const count = (sql: string) => (db.prepare(sql).get(...ids) as { n: number }).n
    expect(count('SELECT COUNT(*) AS n FROM merge_requests WHERE id IN (?, ?)')).toBe(0)
    expect(count('SELECT COUNT(*) AS n FROM noteables WHERE id IN (?, ?)')).toBe(0)
    expect(count('SELECT COUNT(*) AS n FROM notes WHERE noteable_id IN (?, ?)')).toBe(0)
  })
})

describe('deleting a project that is not a fork', () => {
  it('closes nothing else: its own merge requests go with it', async () => {
    const w = await world('plain')
    // The upstream's own merge request from a branch of its own.
    await commit(alice.api, w.upstream.id, { branch: 'own', start_branch: 'master', commit_message: 'own', actions: [create('own.txt', 'own\n')] })
    const own = expectStatus(await alice.api.post(`/projects/${w.upstream.id}/merge_requests`, { source_branch: 'own', target_branch: 'master', title: 'Own' }), 201).body
    await server.app.tasks.idle()
    expectStatus(await alice.api.del(`/projects/${w.upstream.id}`), 202)
    expect((server.app.db.prepare('SELECT COUNT(*) AS n FROM merge_requests WHERE id = ?').get(own.id) as { n: number }).n).toBe(0)
    expectStatus(await bob.api.get(`/projects/${w.fork.id}`), 200)
  })
})
