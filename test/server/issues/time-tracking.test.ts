// Time tracking: GitLab's duration grammar and human format, and the five endpoints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TimeStats } from '../../../src/contract/entities/issues.js'
import { humanDuration, parseTimeSpent } from '../../../src/core/durations.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath, noTime } from '../../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

describe('durations', () => {
  it.each([
    ['1mo 2w 3d 4h 5m', 160 * 3600 + 2 * 40 * 3600 + 3 * 8 * 3600 + 4 * 3600 + 300],
    ['3h30m', 12600], ['3h 30m', 12600], ['1.5h', 5400], ['2', 7200], ['1w 2d', 201600], ['1 week 2 days', 201600],
    ['90m', 5400], ['30 minutes', 1800], ['1d', 28800], ['1mo', 576000], ['-1h', -3600], ['10s', 10], ['0', 0],
  ])('parses %s as %i seconds', (text, seconds) => expect(parseTimeSpent(text)).toBe(seconds))

  it.each(['', 'abc', '3x', '1h foo', 'h', '--1h', '1y'])('refuses %j', (text) => expect(parseTimeSpent(text)).toBeNull())

  it.each([[12600, '3h 30m'], [201600, '1w 2d'], [576000 + 60, '1mo 1m'], [0, null], [28800, '1d'], [3661, '1h 1m 1s']])(
    'writes %i seconds as %j', (seconds, text) => expect(humanDuration(seconds)).toBe(text))
})

describe('time tracking endpoints', () => {
  let server: TestServer
  let alice: TestUser
  let guest: TestUser
  let project: any
  let path: (rest: string) => string

  beforeAll(async () => {
    server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
    alice = await createUser(server, 'alice')
    guest = await createUser(server, 'guest')
    project = await createProject(alice.api, { name: 'demo' })
    expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
    const issue = await createIssue(alice.api, project.id, { title: 'Timed' })
    path = (rest) => issuePath(project.id, issue.iid, rest)
  })
  afterAll(() => server.close())

  it('sets the estimate (200) and reads it back in time_stats and on the issue', async () => {
    const res = await alice.api.post(path('/time_estimate'), { duration: '3h30m' })
    expect([res.status, TimeStats.strict().parse(res.body)]).toEqual([200, { time_estimate: 12600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null }])
    expect((await alice.api.get(path('/time_stats'))).body).toEqual(res.body)
    expect((await alice.api.get(path(''))).body.time_stats).toEqual(res.body)
  })

  it('adds spent time (201), subtracts with a negative duration, refuses to go below zero', async () => {
    expect((await alice.api.post(path('/add_spent_time'), { duration: '1w 2d' })).body.human_total_time_spent).toBe('1w 2d')
    const less = await alice.api.post(path('/add_spent_time'), { duration: '-2d' })
    expect([less.status, less.body.total_time_spent, less.body.human_total_time_spent]).toEqual([201, 144000, '1w'])
    const over = await alice.api.post(path('/add_spent_time'), { duration: '-2w' })
    expect([over.status, over.body]).toEqual([400, { message: { time_spent: ['Time to subtract exceeds the total time spent'] } }])
    expect((await alice.api.get(path('/time_stats'))).body.total_time_spent).toBe(144000)
  })

  it('answers 400 to durations that do not parse and keeps the values', async () => {
    expect((await alice.api.post(path('/time_estimate'), { duration: 'soon' })).body).toEqual({ message: { time_estimate: ['has an invalid format'] } })
    expect((await alice.api.post(path('/time_estimate'), { duration: '-1h' })).status).toBe(400)
    expect((await alice.api.post(path('/add_spent_time'), { duration: '3 apples' })).body).toEqual({ message: { time_spent: ['has an invalid format'] } })
    expect((await alice.api.post(path('/add_spent_time'), {})).body).toEqual({ message: '400 (Bad request) "duration" not given' })
    expect((await alice.api.get(path('/time_stats'))).body).toMatchObject({ time_estimate: 12600, total_time_spent: 144000 })
  })

  it('resets estimate and spent time to zero (200), shown as null', async () => {
    expect((await alice.api.post(path('/reset_time_estimate'))).body).toMatchObject({ time_estimate: 0, human_time_estimate: null })
    const res = await alice.api.post(path('/reset_spent_time'))
    expect([res.status, res.body]).toEqual([200, noTime])
  })

  it('notes each change as a system note', async () => {
    const notes = (await alice.api.get(path('/notes'), { query: { sort: 'asc' } })).body.map((n: any) => n.body)
    expect(notes).toEqual(['changed time estimate to 3h 30m', 'added 1w 2d of time spent', 'subtracted 2d of time spent', 'removed time estimate', 'removed time spent'])
  })

  it('answers 403 to a guest', async () => {
    expect((await guest.api.post(path('/time_estimate'), { duration: '1h' })).body).toEqual({ message: '403 Forbidden' })
  })
})
