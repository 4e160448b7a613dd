// POST …/labels/:label_id/subscribe and unsubscribe: the label answered with `subscribed`, 304 when nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let id: number
let labelId: number

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  bob = await createUser(server, 'bob', { name: 'Bob' })
  id = (await createProject(alice.api, { name: 'subs', visibility: 'public' })).id
  labelId = expectStatus(await alice.api.post(`/projects/${id}/labels`, { name: 'bug', color: '#FF0000' }), 201).body.id
})
afterAll(() => server.close())

describe('label subscriptions', () => {
  it('subscribes by name, answers 304 the second time, and shows subscribed to that user only', async () => {
    const res = expectStatus(await bob.api.post(`/projects/${id}/labels/bug/subscribe`), 201)
    expect(res.body).toEqual({
      id: labelId, name: 'bug', color: '#FF0000', text_color: '#FFFFFF', description: null, description_html: '', priority: null,
      is_project_label: true, open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0, subscribed: true,
    })
    const again = await bob.api.post(`/projects/${id}/labels/${labelId}/subscribe`)
    expect([again.status, again.text]).toEqual([304, ''])
    expect(expectStatus(await bob.api.get(`/projects/${id}/labels/bug`), 200).body.subscribed).toBe(true)
    expect(expectStatus(await bob.api.get(`/projects/${id}/labels`), 200).body.map((l: any) => l.subscribed)).toEqual([true])
    expect(expectStatus(await alice.api.get(`/projects/${id}/labels/bug`), 200).body.subscribed).toBe(false)
  })

  it('unsubscribes, then answers 304; 404 for an unknown label; 401 without a user', async () => {
    expect(expectStatus(await bob.api.post(`/projects/${id}/labels/bug/unsubscribe`), 201).body.subscribed).toBe(false)
    expect((await bob.api.post(`/projects/${id}/labels/bug/unsubscribe`)).status).toBe(304)
    expect(expectStatus(await bob.api.get(`/projects/${id}/labels/bug`), 200).body.subscribed).toBe(false)
    const missing = await bob.api.post(`/projects/${id}/labels/nope/subscribe`)
    expect([missing.status, missing.text]).toEqual([404, '{"message":"404 Label Not Found"}'])
    const anonymous = await fetch(`${server.api}/projects/${id}/labels/bug/subscribe`, { method: 'POST' })
    expect(anonymous.status).toBe(401)
  })
})
