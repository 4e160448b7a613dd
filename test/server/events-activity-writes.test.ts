// Recording an event moves the author's last_activity_on once a day, not on every event: any write to `users` forgets
// every remembered read of it (tokens, users, issue list texts), so a write per event would make every request re-read.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { watchWrites } from '../../src/server/store/writes.js'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { createIssue } from '../helpers/issues.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => {
  watchWrites(server.app.db, undefined)
  return server.close()
})

it('writes users for the first event of the day only', async () => {
  const project = await createProject(alice.api, { name: 'busy' })
  await createIssue(alice.api, project.id, { title: 'First' })
  await server.app.tasks.idle()
  const day = expectStatus(await alice.api.get('/user'), 200).body.last_activity_on
  expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/)

  const written: string[] = []
  watchWrites(server.app.db, (sql, tables, run) => {
    if (tables?.includes('users')) written.push(sql)
    return run()
  })
  await createIssue(alice.api, project.id, { title: 'Second' })
  await server.app.tasks.idle()
  watchWrites(server.app.db, undefined)
  expect(written).toEqual([])
})
