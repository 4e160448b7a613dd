// Broadcast messages: public reads, administrator writes, GitLab's defaults and validations, `active` from the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BroadcastMessage } from '../../src/contract/endpoints/broadcast-messages.js'
import { api, createUser, expectStatus, movableClock, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser
const clock = movableClock('2024-05-01T10:00:00.000Z')
const root = () => api(server, server.rootToken)

beforeAll(async () => {
  server = await startTestServer({ clock })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

describe('broadcast messages', () => {
  it('creates a banner showing for one hour from now by default', async () => {
    const res = expectStatus(await root().post('/broadcast_messages', { message: 'Deploy in progress' }), 201)
    expect(res.body).toEqual({
      id: res.body.id, message: 'Deploy in progress', starts_at: '2024-05-01T10:00:00.000Z', ends_at: '2024-05-01T11:00:00.000Z',
      color: null, font: null, active: true, target_access_levels: [], target_path: null, broadcast_type: 'banner',
      dismissable: false, theme: 'indigo',
    })
    BroadcastMessage.strict().parse(res.body)
  })

  it('keeps every field given, and lists and reads without credentials', async () => {
    const created = expectStatus(await root().post('/broadcast_messages', {
      message: 'Maintenance', starts_at: '2024-06-01T00:00:00Z', ends_at: '2024-06-02T00:00:00Z', color: '#cecece', font: '#FFFFFF',
      target_access_levels: [10, 30], target_path: '*/welcome', broadcast_type: 'notification', dismissable: true,
    }), 201).body
    expect(created).toMatchObject({ starts_at: '2024-06-01T00:00:00.000Z', active: false, target_access_levels: [10, 30], broadcast_type: 'notification', dismissable: true, color: '#cecece' })
    const one = await api(server).get(`/broadcast_messages/${created.id}`)
    expect(one.status).toBe(200)
    expect(one.body).toEqual(created)
    const list = await api(server).get('/broadcast_messages')
    expect(list.status).toBe(200)
    expect(list.body.map((m: { message: string }) => m.message)).toEqual(['Deploy in progress', 'Maintenance'])
    expect(list.headers.get('x-total')).toBe('2')
  })

  it('becomes active when its window opens', async () => {
    const created = expectStatus(await root().post('/broadcast_messages', { message: 'Later', starts_at: '2024-05-01T12:00:00Z', ends_at: '2024-05-01T13:00:00Z' }), 201).body
    expect(created.active).toBe(false)
    clock.set('2024-05-01T12:30:00Z')
    expect((await api(server).get(`/broadcast_messages/${created.id}`)).body.active).toBe(true)
    clock.set('2024-05-01T10:00:00Z')
  })

  it('updates and deletes, answering the message', async () => {
    const created = expectStatus(await root().post('/broadcast_messages', { message: 'Old' }), 201).body
    const updated = await root().put(`/broadcast_messages/${created.id}`, { message: 'New', theme: 'red' })
    expect(updated.status).toBe(200)
    expect(updated.body).toEqual({ ...created, message: 'New', theme: 'red' })
    const deleted = await root().del(`/broadcast_messages/${created.id}`)
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual(updated.body)
    const gone = await api(server).get(`/broadcast_messages/${created.id}`)
    expect(gone.status).toBe(404)
    expect(gone.text).toBe('{"message":"404 Not found"}')
  })

  it('refuses writes to non-administrators (403) and to anonymous callers (401)', async () => {
    const res = await alice.api.post('/broadcast_messages', { message: 'Hi' })
    expect(res.status).toBe(403)
    expect(res.text).toBe('{"message":"403 Forbidden"}')
    expect((await alice.api.put('/broadcast_messages/1', { message: 'Hi' })).status).toBe(403)
    expect((await alice.api.del('/broadcast_messages/1')).status).toBe(403)
    expect((await api(server).post('/broadcast_messages', { message: 'Hi' })).status).toBe(401)
  })

  it('validates the message, colours, window and access levels', async () => {
    const missing = await root().post('/broadcast_messages', {})
    expect(missing.status).toBe(400)
    expect(missing.text).toBe('{"message":"400 (Bad request) \\"message\\" not given"}')
    const bad = await root().post('/broadcast_messages', {
      message: ' ', color: 'red', starts_at: '2024-05-02T00:00:00Z', ends_at: '2024-05-01T00:00:00Z', target_access_levels: [15],
    })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ message: {
      message: ["can't be blank"], color: ['must be a valid color code'], ends_at: ['must be after start date'], target_access_levels: ['is invalid'],
    } })
    const type = await root().post('/broadcast_messages', { message: 'x', broadcast_type: 'popup' })
    expect(type.status).toBe(400)
    expect((await root().put('/broadcast_messages/999999', { message: 'x' })).status).toBe(404)
  })
})
