// The refresh grant revokes the old pair and issues the new one as one unit: a failure between them keeps the old pair.
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

const grant = (form: Record<string, string>) => request(server, 'POST', '/oauth/token', { form })
const whoami = async (token: string) => {
  const res = await request(server, 'GET', '/api/v4/user', { headers: { Authorization: `Bearer ${token}` } })
  return res.status === 200 ? res.body.username : res.status
}

describe('a refresh that fails while issuing the new token', () => {
  it('leaves the old access token working and the old refresh token usable', async () => {
    const first = (await grant({ grant_type: 'password', username: 'alice', password: alice.password })).body
    // The failure comes from the database itself, after the old token has been revoked within the unit of work.
    server.app.db.exec("CREATE TRIGGER refuse_oauth BEFORE INSERT ON tokens WHEN NEW.kind = 'oauth' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END")
    const failed = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token })
    server.app.db.exec('DROP TRIGGER refuse_oauth')
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ message: '500 Internal Server Error' })

    expect(await whoami(first.access_token)).toBe('alice')
    const second = await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token })
    expect(second.status).toBe(200)
    expect(await whoami(second.body.access_token)).toBe('alice')
    expect(await whoami(first.access_token)).toBe(401)
  })

  it('spends a refresh token once', async () => {
    const first = (await grant({ grant_type: 'password', username: 'alice', password: alice.password })).body
    const [a, b] = await Promise.all([0, 1].map(() => grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token })))
    expect([a.status, b.status].sort()).toEqual([200, 400])
  })
})
