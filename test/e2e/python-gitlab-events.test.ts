// python-gitlab 3.12 (Debian's python3-gitlab) reading the events feed: the caller's events, a project's pushes, a
// user's events, pages followed by get_all, and /user/activities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab events', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('lists events, pushes with their push data, a user’s issue events and user activities', async () => {
    expect(await runPythonGitlab('python-gitlab-events.py', server)).toEqual({
      mine: [['created', null], ['pushed to', null], ['opened', 'Issue'], ['commented on', 'Note'], ['closed', 'Issue']],
      pushed: [['pushed to', 'main', 1, 'Add notes']],
      user: ['closed', 'opened'],
      all_pages: 5,
      activities: ['root'],
      bad: [400, { action: ['does not have a valid value'] }],
    })
  })
})
