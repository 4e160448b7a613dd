// Secondary emails (/user/emails, /users/:id/emails) and the user status (/user/status, /users/:id/status).
import { describe, expect, it } from 'vitest'
import { api, createUser, movableClock, type Api, type TestUser } from '../../helpers/api.js'
import { adminFixture, answer, NOW } from './fixture.js'

const clock = movableClock(NOW)
const f = adminFixture(clock)

const EMPTY = { emoji: null, availability: null, message: null, message_html: '', clear_status_at: null }

describe('emails', () => {
  it('adds an unconfirmed email for the caller, lists, reads and deletes it', async () => {
    const add = await f.alice.api.post('/user/emails', { email: 'alice@work.example' })
    const email = { id: add.body.id, email: 'alice@work.example', confirmed_at: null }
    expect([add.status, add.body]).toEqual([201, email])
    expect((await f.alice.api.get('/user/emails')).body).toEqual([email])
    expect((await f.alice.api.get(`/user/emails/${email.id}`)).body).toEqual(email)
    expect(answer(await f.bob.api.get(`/user/emails/${email.id}`))).toEqual([404, '{"message":"404 Email Not Found"}'])
    expect(answer(await f.alice.api.del(`/user/emails/${email.id}`))).toEqual([204, ''])
    expect((await f.alice.api.get('/user/emails')).body).toEqual([])
  })

  it('lets an administrator add a confirmed email for a user and delete it', async () => {
    const add = await f.root.post(`/users/${f.bob.id}/emails`, { email: 'bob@home.example', skip_confirmation: true })
    expect([add.status, add.body]).toEqual([201, { id: add.body.id, email: 'bob@home.example', confirmed_at: NOW }])
    expect((await f.root.get(`/users/${f.bob.id}/emails`)).body).toEqual([add.body])
    expect(answer(await f.alice.api.get(`/users/${f.bob.id}/emails`))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.root.del(`/users/${f.bob.id}/emails/${add.body.id}`))).toEqual([204, ''])
    expect(answer(await f.root.del(`/users/${f.bob.id}/emails/${add.body.id}`))).toEqual([404, '{"message":"404 Email Not Found"}'])
  })

  it.each([
    ["someone's primary email", 'bob@example.com', '{"message":{"email":["has already been taken"]}}'],
    ['an invalid email', 'not-an-email', '{"message":{"email":["is invalid"]}}'],
  ])('refuses %s', async (_n, email, text) => {
    expect(answer(await f.alice.api.post('/user/emails', { email }))).toEqual([400, text])
  })

  it("refuses another user's secondary email, whatever its case", async () => {
    await f.bob.api.post('/user/emails', { email: 'shared@example.org' })
    expect(answer(await f.alice.api.post('/user/emails', { email: 'SHARED@example.org' }))).toEqual([400, '{"message":{"email":["has already been taken"]}}'])
  })
})

describe('status', () => {
  it('is empty until set, then shown to others by id or username', async () => {
    expect((await f.alice.api.get('/user/status')).body).toEqual(EMPTY)
    const set = await f.alice.api.put('/user/status', { message: 'Out <today>', availability: 'busy', clear_status_after: '1_day' })
    const status = { emoji: 'speech_balloon', availability: 'busy', message: 'Out <today>', message_html: 'Out &lt;today&gt;', clear_status_at: '2024-01-03T03:04:05.000Z' }
    expect([set.status, set.body]).toEqual([200, status])
    expect((await f.bob.api.get('/users/alice/status')).body).toEqual(status)
    expect((await f.bob.api.get(`/users/${f.alice.id}/status`)).body).toEqual(status)
  })

  it('PATCH keeps fields left out, PUT clears them, and an empty status is removed', async () => {
    await f.bob.api.put('/user/status', { emoji: 'coffee', message: 'brb' })
    const patched = await f.bob.api.request('PATCH', '/user/status', { json: { availability: 'busy' } })
    expect(patched.body).toEqual({ emoji: 'coffee', availability: 'busy', message: 'brb', message_html: 'brb', clear_status_at: null })
    const put = await f.bob.api.put('/user/status', { emoji: 'coffee' })
    expect(put.body).toEqual({ emoji: 'coffee', availability: 'not_set', message: null, message_html: '', clear_status_at: null })
    expect((await f.bob.api.put('/user/status', {})).body).toEqual(EMPTY)
    expect((await f.bob.api.get('/user/status')).body).toEqual(EMPTY)
  })

  it('clears itself once clear_status_at has passed', async () => {
    const u = await createUser(f.server, 'carol')
    await u.api.put('/user/status', { message: 'lunch', clear_status_after: '30_minutes' })
    clock.advance(31 * 60 * 1000)
    expect((await u.api.get('/user/status')).body).toEqual(EMPTY)
    clock.set(NOW)
  })

  it('answers 400 for values out of range and 404 for unknown users', async () => {
    expect(answer(await f.alice.api.put('/user/status', { availability: 'away' }))).toEqual([400, '{"message":{"availability":["does not have a valid value"]}}'])
    expect(answer(await f.alice.api.put('/user/status', { clear_status_after: '2_years' }))).toEqual([400, '{"message":{"clear_status_after":["does not have a valid value"]}}'])
    expect(answer(await f.alice.api.put('/user/status', { emoji: 'not an emoji' }))).toEqual([400, '{"message":{"emoji":["does not exist"]}}'])
    expect(answer(await f.alice.api.get('/users/nobody/status'))).toEqual([404, '{"message":"404 User Not Found"}'])
    expect(answer(await api(f.server).get('/user/status'))).toEqual([401, '{"message":"401 Unauthorized"}'])
  })
})
