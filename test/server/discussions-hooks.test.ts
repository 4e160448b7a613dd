// Notes written through the Discussions API fire the note hook like any other note.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath } from '../helpers/issues.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { deliveriesIdle } from '../../src/server/services/webhook-delivery.js'
import { startReceiver, type Receiver } from './hooks/receiver.js'

let server: TestServer
let alice: TestUser
let rx: Receiver

beforeAll(async () => {
  server = await startTestServer()
  expectStatus(await api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  alice = await createUser(server, 'alice')
  rx = await startReceiver()
})
afterAll(async () => {
  await rx.close()
  await server.close()
})

it('delivers a Note Hook for a new thread and for a reply', async () => {
  const project = await createProject(alice.api, { name: 'demo' })
  expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, note_events: true }), 201)
  const issue = await createIssue(alice.api, project.id, { title: 'Hooked' })
  const thread = expectStatus(await alice.api.post(issuePath(project.id, issue.iid, '/discussions'), { body: 'Thread' }), 201).body
  expectStatus(await alice.api.post(issuePath(project.id, issue.iid, `/discussions/${thread.id}/notes`), { body: 'Reply' }), 201)
  const got = await rx.waitFor(2)
  await deliveriesIdle(server.app)
  expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.object_kind, r.body.object_attributes.note, r.body.object_attributes.noteable_type, r.body.issue.iid]))
    .toEqual([['Note Hook', 'note', 'Thread', 'Issue', issue.iid], ['Note Hook', 'note', 'Reply', 'Issue', issue.iid]])
})
