// The server, root and two ordinary users that the users and groups administration tests share.
import { afterAll, beforeAll } from 'vitest'
import type { Clock } from '../../../src/core/clock.js'
import { api, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

export const NOW = '2024-01-02T03:04:05.000Z'

export interface Fixture { server: TestServer; root: Api; alice: TestUser; bob: TestUser }

/** Starts the server before the file's tests and closes it after; the fields are set once beforeAll has run. */
export function adminFixture(clock: Clock = fixedClock(NOW)): Fixture {
  const f = {} as Fixture
  beforeAll(async () => {
    f.server = await startTestServer({ clock })
    f.root = api(f.server, f.server.rootToken)
    f.alice = await createUser(f.server, 'alice', { name: 'Alice Liddell' })
    f.bob = await createUser(f.server, 'bob')
  })
  afterAll(() => f.server.close())
  return f
}

/** Status and exact body text, compared as one. */
export const answer = (r: { status: number; text: string }) => [r.status, r.text]
