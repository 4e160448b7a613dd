// Durations whose unit names a property every plain object has (`constructor`, `__proto__`) are refused with 400, not 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTimeSpent } from '../../../src/core/durations.js'
import { createProject, createUser, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const INHERITED = ['1constructor', '1__proto__', '2toString', '1hasOwnProperty', '3valueOf', '1h 2constructor']

describe('durations with inherited property names as units', () => {
  it.each(INHERITED)('parseDuration refuses %j', (text) => expect(parseTimeSpent(text)).toBeNull())

  let server: TestServer
  let alice: TestUser
  let path: (rest: string) => string

  beforeAll(async () => {
    server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
    alice = await createUser(server, 'alice')
    const project = await createProject(alice.api, { name: 'demo' })
    const issue = await createIssue(alice.api, project.id, { title: 'Timed' })
    path = (rest) => issuePath(project.id, issue.iid, rest)
  })
  afterAll(() => server.close())

  it.each(INHERITED)('time_estimate answers 400 to %j and keeps the estimate', async (duration) => {
    const res = await alice.api.post(path('/time_estimate'), undefined, { query: { duration } })
    expect([res.status, res.body]).toEqual([400, { message: { time_estimate: ['has an invalid format'] } }])
    expect((await alice.api.get(path('/time_stats'))).body.time_estimate).toBe(0)
  })

  it.each(INHERITED)('add_spent_time answers 400 to %j and keeps the time spent', async (duration) => {
    const res = await alice.api.post(path('/add_spent_time'), undefined, { query: { duration } })
    expect([res.status, res.body]).toEqual([400, { message: { time_spent: ['has an invalid format'] } }])
    expect((await alice.api.get(path('/time_stats'))).body.total_time_spent).toBe(0)
  })
})
