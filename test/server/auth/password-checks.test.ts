// Password checks run off the event loop, a few at a time: a flood of wrong passwords does not stall other requests.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const INVALID_GRANT = {
  error: 'invalid_grant',
  error_description: 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
}

interface Sent { sent: Promise<void>; answer: Promise<{ status: number; text: string }> }

/** A request on a connection of its own; `sent` resolves once its last byte is handed to the kernel. */
function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Sent {
  const { hostname, port } = new URL(server.url)
  let sent!: () => void
  const written = new Promise<void>((resolve) => (sent = resolve))
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request({ host: hostname, port, method, path, agent: false, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end(body, () => sent())
  })
  return { sent: written, answer }
}

const wrongPassword = () => send('POST', '/oauth/token', `grant_type=password&username=alice&password=wrong-${Math.random()}`,
  { 'Content-Type': 'application/x-www-form-urlencoded' })

describe('a burst of wrong passwords', () => {
  it('does not hold up an unrelated GET sent after it', async () => {
    const order: string[] = []
    const burst = Array.from({ length: 16 }, wrongPassword)
    await Promise.all(burst.map((r) => r.sent))
    const get = send('GET', '/api/v4/user', undefined, { 'PRIVATE-TOKEN': alice.token })
    const answers = [...burst.map((r) => r.answer.then((a) => (order.push('password'), a))), get.answer.then((a) => (order.push('get'), a))]
    const results = await Promise.all(answers)
    for (const r of results.slice(0, -1)) {
      expect(r.status).toBe(400)
      expect(JSON.parse(r.text)).toEqual(INVALID_GRANT)
    }
    expect(results.at(-1)!.status).toBe(200)
    // Checked one after another on the event loop, every password sent before the GET would be answered first.
    expect(order.at(-1)).toBe('password')
  })

  it('answers 429 Retry later, as a throttle does, to checks past the waiting line', async () => {
    const burst = Array.from({ length: 96 }, wrongPassword)
    const results = await Promise.all(burst.map((r) => r.answer))
    const busy = results.filter((r) => r.status === 429)
    expect(busy.length).toBeGreaterThan(0)
    for (const r of busy) expect(r.text).toBe('{"message":"Retry later"}')
    for (const r of results.filter((r) => r.status !== 429)) expect([r.status, JSON.parse(r.text)]).toEqual([400, INVALID_GRANT])
  })

  it('still signs in with the right password afterwards', async () => {
    const res = await request(server, 'POST', '/oauth/token', { form: { grant_type: 'password', username: 'alice', password: alice.password } })
    expect(res.status).toBe(200)
  })
})

describe('administrators creating users with passwords', () => {
  it('do not hold up an unrelated GET sent after them: the new passwords are hashed off the event loop', async () => {
    const order: string[] = []
    const creates = Array.from({ length: 12 }, (_, i) => send('POST', '/api/v4/users',
      JSON.stringify({ username: `hashed-${i}`, email: `hashed-${i}@example.com`, name: `Hashed ${i}`, password: 'a-long-password' }),
      { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' }))
    await Promise.all(creates.map((r) => r.sent))
    const get = send('GET', '/api/v4/user', undefined, { 'PRIVATE-TOKEN': alice.token })
    const results = await Promise.all([...creates.map((r) => r.answer.then((a) => (order.push('create'), a))), get.answer.then((a) => (order.push('get'), a))])
    expect(results.map((r) => r.status)).toEqual([...Array(12).fill(201), 200])
    expect(order.at(-1)).toBe('create')
  })
})
