// Webhook delivery to a real local receiver: payloads, headers, the delivery log, retries, deadlines, auto-disabling,
// and the loopback switch. Retry delays and the deadline are shortened; everything else runs as in `collab serve`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { listHookLogs } from '../../../src/server/store/hooks.js'
import { guardedLookup } from '../../../src/server/services/hooks/webhook-addresses.js'
import { configureDeliveries, deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'
import { startReceiver, type Receiver } from './receiver.js'

let server: TestServer
let root: Api
let alice: TestUser
let project: any
let rx: Receiver

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
// The server's clock stands still: a hook's rest is then known to the millisecond.
const NOW = '2024-05-06T07:08:09.000Z'

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  configureDeliveries(server.app, { retryDelaysMs: [30, 30], timeoutMs: 400 })
  root = api(server, server.rootToken)
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  alice = await createUser(server, 'alice', { name: 'Alice A' })
  project = await createProject(alice.api, { name: 'demo' })
  await commit(alice.api, project.id, { branch: 'main', commit_message: 'init', actions: [create('README.md', 'hi\n')] })
  rx = await startReceiver()
})
afterAll(async () => {
  await rx.close()
  await server.close()
})

let hookIds: number[] = []
afterEach(async () => {
  await deliveriesIdle(server.app)
  for (const id of hookIds) await alice.api.del(`/projects/${project.id}/hooks/${id}`)
  hookIds = []
  rx.received.length = 0
  rx.script()
})

async function addHook(body: Record<string, unknown>) {
  const hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, ...body }), 201).body
  hookIds.push(hook.id)
  return hook
}
/** Nothing more will be sent: the events a request queued have run (they start deliveries), and the deliveries ended. */
async function settled() {
  await server.app.tasks.idle()
  await deliveriesIdle(server.app)
}

const events = async (hookId: number, query?: Record<string, string>) =>
  expectStatus(await alice.api.get(`/projects/${project.id}/hooks/${hookId}/events`, { query }), 200).body

describe('issue events', () => {
  it("delivers GitLab's issue payload with GitLab's headers, and logs it without the token", async () => {
    const hook = await addHook({ issues_events: true, token: 'tok-1' })
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Broken' }), 201).body
    const [got] = await rx.waitFor(1)
    expect(got.method).toBe('POST')
    expect(got.path).toBe('/hook')
    expect(got.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': 'GitLab/17.0.0', 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'tok-1',
      'x-gitlab-instance': server.url,
    })
    expect(got.headers['x-gitlab-webhook-uuid']).toMatch(UUID)
    expect(got.headers['idempotency-key']).toMatch(UUID)
    const web = `${server.url}/alice/demo`
    expect(got.body).toMatchObject({
      object_kind: 'issue', event_type: 'issue',
      user: { id: alice.id, name: 'Alice A', username: 'alice', avatar_url: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, email: '[REDACTED]' },
      project: { id: project.id, name: 'demo', web_url: web, path_with_namespace: 'alice/demo', git_http_url: `${web}.git`, visibility_level: 0, namespace: 'Alice A' },
      object_attributes: { id: issue.id, iid: 1, title: 'Broken', state: 'opened', action: 'open', url: `${web}/-/issues/1`, confidential: false, assignee_ids: [], labels: [] },
      labels: [], changes: {}, assignees: [], repository: { name: 'demo', homepage: web },
    })
    await deliveriesIdle(server.app)
    const log = await events(hook.id)
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({ url: `${rx.url}/hook`, trigger: 'issue_hooks', response_status: '200', response_body: 'ok', request_data: got.body })
    expect(log[0].request_headers['X-Gitlab-Token']).toBe('[REDACTED]')
    expect(log[0].request_headers['Idempotency-Key']).toBe(got.headers['idempotency-key'])
  })

  it('sends a close with its changes, and confidential issues only to confidential_issues_events', async () => {
    await addHook({ issues_events: true })
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Open' }), 201).body
    await rx.waitFor(1)
    expectStatus(await alice.api.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: 'close' }), 200)
    const [, closed] = await rx.waitFor(2)
    expect(closed.body.object_attributes).toMatchObject({ action: 'close', state: 'closed' })
    expect(closed.body.changes.state_id).toEqual({ previous: 1, current: 2 })
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Secret', confidential: true }), 201)
    await settled()
    expect(rx.received).toHaveLength(2)
    await addHook({ confidential_issues_events: true })
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Secret 2', confidential: true }), 201)
    const [, , secret] = await rx.waitFor(3)
    expect(secret.headers['x-gitlab-event']).toBe('Confidential Issue Hook')
    expect(secret.body).toMatchObject({ event_type: 'confidential_issue', object_attributes: { title: 'Secret 2', confidential: true } })
  })
})

describe('hook settings at delivery', () => {
  it('fills URL variables, adds custom headers (never over GitLab\'s), and renders a custom template', async () => {
    await addHook({
      url: `${rx.url}/{segment}`, issues_events: true, url_variables: [{ key: 'segment', value: 'filled' }],
      custom_headers: [{ key: 'X-Custom', value: 'yes' }, { key: 'X-Gitlab-Event', value: 'spoofed' }],
      custom_webhook_template: '{"kind":"{{object_kind}}","title":"{{object_attributes.title}}","iid":{{object_attributes.iid}}}',
    })
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Say "hi"' }), 201)
    const [got] = await rx.waitFor(1)
    expect(got.path).toBe('/filled')
    expect(got.headers).toMatchObject({ 'x-custom': 'yes', 'x-gitlab-event': 'Issue Hook' })
    expect(got.body).toEqual({ kind: 'issue', title: 'Say "hi"', iid: expect.any(Number) })
  })
})

describe('notes, merge requests and pushes', () => {
  it('delivers a comment on an issue as a Note Hook carrying the issue', async () => {
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Discuss' }), 201).body
    await addHook({ note_events: true })
    const note = expectStatus(await alice.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Looks good' }), 201).body
    const [got] = await rx.waitFor(1)
    expect(got.headers['x-gitlab-event']).toBe('Note Hook')
    expect(got.body).toMatchObject({
      object_kind: 'note', event_type: 'note', project_id: project.id,
      object_attributes: { id: note.id, note: 'Looks good', noteable_type: 'Issue', system: false, url: `${server.url}/alice/demo/-/issues/${issue.iid}#note_${note.id}` },
      issue: { iid: issue.iid, title: 'Discuss' },
    })
  })

  it('delivers pushes through the branch filter, with the commits and their files', async () => {
    await addHook({ push_events: true, push_events_branch_filter: 'ma*' })
    const c = await commit(alice.api, project.id, { branch: 'main', commit_message: 'Add a\n\nbody', actions: [create('a.txt', 'a\n')] })
    await commit(alice.api, project.id, { branch: 'feature', start_branch: 'main', commit_message: 'elsewhere', actions: [create('b.txt', 'b\n')] })
    const [got] = await rx.waitFor(1)
    expect(got.headers['x-gitlab-event']).toBe('Push Hook')
    expect(got.body).toMatchObject({
      object_kind: 'push', event_name: 'push', ref: 'refs/heads/main', ref_protected: true, after: c.id, checkout_sha: c.id, user_username: 'alice',
      user_avatar: `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`, project_id: project.id, total_commits_count: 1,
      commits: [{ id: c.id, message: 'Add a\n\nbody\n', title: 'Add a', added: ['a.txt'], modified: [], removed: [], author: { name: expect.any(String) } }],
    })
    await settled()
    expect(rx.received.map((r) => r.body.ref)).toEqual(['refs/heads/main'])
  })

  it('marks a tag push ref_protected when a protected tag rule matches it, as GitLab does', async () => {
    await addHook({ push_events: false, tag_push_events: true })
    expectStatus(await alice.api.post(`/projects/${project.id}/protected_tags`, { name: 'v*' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/tags`, { tag_name: 'v9', ref: 'main' }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/tags`, { tag_name: 'rc9', ref: 'main' }), 201)
    const got = await rx.waitFor(2)
    // Two deliveries may arrive in either order.
    expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.ref, r.body.ref_protected]).sort()).toEqual([
      ['Tag Push Hook', 'refs/tags/rc9', false], ['Tag Push Hook', 'refs/tags/v9', true],
    ])
  })

  it('delivers a new merge request as a Merge Request Hook', async () => {
    await commit(alice.api, project.id, { branch: 'topic', start_branch: 'main', commit_message: 'topic', actions: [create('t.txt', 't\n')] })
    await addHook({ merge_requests_events: true })
    const mr = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Topic' }), 201).body
    const [got] = await rx.waitFor(1)
    expect(got.headers['x-gitlab-event']).toBe('Merge Request Hook')
    expect(got.body).toMatchObject({
      object_kind: 'merge_request', event_type: 'merge_request',
      object_attributes: { iid: mr.iid, action: 'open', source_branch: 'topic', target_branch: 'main', state: 'opened', url: `${server.url}/alice/demo/-/merge_requests/${mr.iid}` },
    })
  })
})

describe('failures', () => {
  it('retries a 5xx with backoff under one Idempotency-Key, logging every attempt newest first', async () => {
    const hook = await addHook({ issues_events: true })
    rx.script({ status: 500, body: 'down' }, { status: 502, body: 'still down' })
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Retry me' }), 201)
    const got = await rx.waitFor(3)
    expect(new Set(got.map((r) => r.headers['idempotency-key'])).size).toBe(1)
    expect(new Set(got.map((r) => r.headers['x-gitlab-webhook-uuid'])).size).toBe(3)
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(25)
    await deliveriesIdle(server.app)
    expect((await events(hook.id)).map((l: any) => [l.response_status, l.response_body])).toEqual([['200', 'ok'], ['502', 'still down'], ['500', 'down']])
    expect((await events(hook.id, { status: 'server_failure' })).map((l: any) => l.response_status)).toEqual(['502', '500'])
    expect((await events(hook.id, { status: '200' })).length).toBe(1)
  })

  it('stops retrying once the hook is deleted', async () => {
    const hook = await addHook({ issues_events: true })
    configureDeliveries(server.app, { retryDelaysMs: [300, 300] })
    try {
      rx.script({ status: 503, body: 'busy' })
      expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Deleted meanwhile' }), 201)
      await rx.waitFor(1)
      expectStatus(await alice.api.del(`/projects/${project.id}/hooks/${hook.id}`), 204)
      hookIds = []
      await deliveriesIdle(server.app)
      expect(rx.received).toHaveLength(1)
    } finally {
      configureDeliveries(server.app, { retryDelaysMs: [30, 30] })
    }
  })

  it('does not retry a 4xx', async () => {
    const hook = await addHook({ issues_events: true })
    rx.script({ status: 404, body: 'nope' })
    expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Once' }), 201)
    await rx.waitFor(1)
    await deliveriesIdle(server.app)
    expect((await events(hook.id)).map((l: any) => l.response_status)).toEqual(['404'])
  })

  it('never holds up the request or the server when the receiver hangs; the attempt times out and is logged', async () => {
    const hook = await addHook({ issues_events: true })
    // One attempt with a deadline longer than the bound below: a create that waited for it could not pass.
    configureDeliveries(server.app, { retryDelaysMs: [], timeoutMs: 2500 })
    try {
      rx.script('hang')
      expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Slow receiver' }), 201)
      expectStatus(await alice.api.get(`/projects/${project.id}/issues`), 200)
      // Answered while the attempt is still out: its outcome (the deadline passing) is not logged yet.
      expect(await events(hook.id)).toEqual([])
      await rx.waitFor(1)
      await deliveriesIdle(server.app)
      const log = await events(hook.id)
      expect(log.map((l: any) => [l.response_status, l.response_body])).toEqual([['internal error', '']])
      // The deadline's own error, not the receiver's: the attempt was cut by the timeout.
      expect(listHookLogs(server.app.db, hook.id, null, 10, 0).rows.map((l) => l.internal_error_message)).toEqual(['execution expired'])
    } finally {
      configureDeliveries(server.app, { retryDelaysMs: [30, 30], timeoutMs: 400 })
    }
  })

  it('rests a hook after 4 failed events in a row (alert_status temporarily_disabled) and skips it meanwhile', async () => {
    const hook = await addHook({ issues_events: true })
    configureDeliveries(server.app, { retryDelaysMs: [] })
    try {
      rx.script(...Array.from({ length: 4 }, () => ({ status: 410, body: 'gone' })))
      for (let i = 0; i < 4; i++) {
        expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: `fail ${i}` }), 201)
        await rx.waitFor(i + 1)
        await deliveriesIdle(server.app)
      }
      const rested = expectStatus(await alice.api.get(`/projects/${project.id}/hooks/${hook.id}`), 200).body
      expect(rested.alert_status).toBe('temporarily_disabled')
      expect(rested.disabled_until).toBe(new Date(Date.parse(NOW) + 60_000).toISOString())
      expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'skipped' }), 201)
      await settled()
      expect(rx.received).toHaveLength(4)
    } finally {
      configureDeliveries(server.app, { retryDelaysMs: [30, 30] })
    }
  })

  it('refuses to call a local receiver once allow_local_requests_from_hooks_and_services is off, logging why', async () => {
    const hook = await addHook({ issues_events: true })
    expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: false }), 200)
    try {
      expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Not sent' }), 201)
      await settled()
      expect(rx.received).toHaveLength(0)
      expect((await events(hook.id)).map((l: any) => l.response_status)).toEqual(['internal error'])
      expect(await alice.api.post(`/projects/${project.id}/hooks/${hook.id}/test/issues_events`))
        .toMatchObject({ status: 422, body: { message: 'Requests to localhost are not allowed' } })
      // The connection resolves through the same check, so a name cannot turn local between the check and the connect.
      const lookup = guardedLookup(server.app)!
      const err = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (e) => resolve(e)))
      expect(err?.message).toBe('Requests to localhost are not allowed')
    } finally {
      expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
    }
  })
})

describe('test triggers', () => {
  it("answers 201 when the receiver takes the sample, GitLab's 422s otherwise", async () => {
    // The samples come from the project's newest issue and note, made here so the test stands alone.
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Sample' }), 201).body
    expectStatus(await alice.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'Sample note' }), 201)
    const hook = await addHook({})
    const test = (trigger: string) => alice.api.post(`/projects/${project.id}/hooks/${hook.id}/test/${trigger}`)
    expect(await test('releases_events')).toMatchObject({ status: 422, body: { message: 'Ensure the project has releases.' } })
    expect(await test('job_events')).toMatchObject({ status: 422, body: { message: 'Ensure the project has CI jobs.' } })
    expect(await test('wiki_page_events')).toMatchObject({ status: 422, body: { message: 'Ensure the wiki is enabled and has pages.' } })
    expect(await test('issues_events')).toMatchObject({ status: 201, body: { message: '201 Created' } })
    expect(rx.received[0].headers['x-gitlab-event']).toBe('Issue Hook')
    expect(await test('push_events')).toMatchObject({ status: 201, body: { message: '201 Created' } })
    expect(rx.received[1].body).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main' })
    expect(await test('tag_push_events')).toMatchObject({ status: 201 })
    expect(rx.received[2]).toMatchObject({ headers: { 'x-gitlab-event': 'Tag Push Hook' }, body: { object_kind: 'push', ref: 'refs/heads/main' } })
    rx.script({ status: 500, body: 'boom' })
    expect(await test('note_events')).toMatchObject({ status: 422, body: { message: 'boom' } })
    expect((await test('bogus')).status).toBe(400)
    const [last] = await events(hook.id)
    expect(expectStatus(await alice.api.post(`/projects/${project.id}/hooks/${hook.id}/events/${last.id}/resend`), 201).body).toEqual({ response_status: '200' })
    expect(rx.received.at(-1)!.headers['idempotency-key']).toBe(last.request_headers['Idempotency-Key'])
  })

  it('system hooks: POST /hooks/:id sends the project_create sample; pushes arrive as System Hook', async () => {
    const sys = expectStatus(await root.post('/hooks', { url: `${rx.url}/system`, push_events: true }), 201).body
    try {
      const sample = { event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' }
      expect(expectStatus(await root.post(`/hooks/${sys.id}`), 201).body).toEqual(sample)
      expect(rx.received[0]).toMatchObject({ path: '/system', body: sample, headers: { 'x-gitlab-event': 'System Hook' } })
      expect((await alice.api.post(`/hooks/${sys.id}`)).status).toBe(403)
      await commit(alice.api, project.id, { branch: 'main', commit_message: 'sys', actions: [create('s.txt', 's\n')] })
      const got = await rx.waitFor(3)
      const kinds = got.slice(1).map((r) => r.body.object_kind ?? r.body.event_name).sort()
      expect(kinds).toEqual(['push', 'repository_update'])
      expect(got.slice(1).every((r) => r.headers['x-gitlab-event'] === 'System Hook')).toBe(true)
    } finally {
      await deliveriesIdle(server.app)
      expectStatus(await root.del(`/hooks/${sys.id}`), 204)
    }
  })
})

describe('instance events', () => {
  it('sends user and group creation and removal to every system hook, whatever its switches', async () => {
    const sys = expectStatus(await root.post('/hooks', { url: `${rx.url}/instance`, repository_update_events: false }), 201).body
    try {
      const bob = await createUser(server, 'bob', { name: 'Bob B' })
      const group = expectStatus(await root.post('/groups', { name: 'Team', path: 'team' }), 201).body
      const made = expectStatus(await root.post('/projects', { name: 'Tool', namespace_id: group.id }), 201).body
      await server.app.tasks.idle()
      expectStatus(await root.del(`/projects/${made.id}`), 202)
      await server.app.tasks.idle()
      expectStatus(await root.del(`/groups/${group.id}`), 202)
      expectStatus(await root.del(`/users/${bob.id}`), 204)
      const got = await rx.waitFor(6)
      expect(got.every((r) => r.path === '/instance' && r.headers['x-gitlab-event'] === 'System Hook')).toBe(true)
      expect(got.map((r) => r.body.event_name)).toEqual(['user_create', 'group_create', 'project_create', 'project_destroy', 'group_destroy', 'user_destroy'])
      expect(got[2].body).toEqual({
        created_at: expect.any(String), updated_at: expect.any(String), event_name: 'project_create', name: 'Tool', owner_email: 'root@localhost',
        owner_name: 'Administrator', owners: [{ name: 'Administrator', email: 'root@localhost' }], path: 'tool', path_with_namespace: 'team/tool',
        project_id: made.id, project_visibility: 'private',
      })
      expect(got[0].body).toEqual({
        created_at: expect.any(String), updated_at: expect.any(String), email: 'bob@example.com', event_name: 'user_create', name: 'Bob B', username: 'bob', user_id: bob.id,
      })
      expect(got[1].body).toEqual({
        created_at: expect.any(String), updated_at: expect.any(String), event_name: 'group_create', name: 'Team', path: 'team', full_path: 'team', group_id: group.id,
      })
    } finally {
      await deliveriesIdle(server.app)
      expectStatus(await root.del(`/hooks/${sys.id}`), 204)
    }
  })
})
