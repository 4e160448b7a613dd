// The fixture the application-settings tests share: a fresh server on a movable clock, root's API, a user, and `set`.
import { api, createUser, expectStatus, movableClock, type Api, type TestUser } from './api.js'
import { startTestServer, type TestServer } from './server.js'

export interface SettingsFixture {
  clock: ReturnType<typeof movableClock>
  server: TestServer
  root: Api
  alice: TestUser
  /** PUT /application/settings as root, failing the test unless it answers 200. */
  set(settings: Record<string, unknown>): Promise<unknown>
}

export async function settingsFixture(start: string): Promise<SettingsFixture> {
  const clock = movableClock(start)
  const server = await startTestServer({ clock })
  const root = api(server, server.rootToken)
  const alice = await createUser(server, 'alice')
  const set = async (settings: Record<string, unknown>) => expectStatus(await root.put('/application/settings', settings), 200)
  return { clock, server, root, alice, set }
}
