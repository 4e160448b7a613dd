// python-gitlab 3.12 reads resource events, links issues and lists related merge requests on collab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab resource events and issue links against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('lists label, milestone and state events, creates and deletes a link, lists related merge requests', async () => {
    expect(await runPythonGitlab('python-gitlab-resource-events.py', server)).toEqual({
      labels: [['add', 'bug'], ['remove', 'bug']],
      milestones: [['add', 'v1', 'opened']],
      created: [1, 2],
      links: [[1, 'is_blocked_by', 1]],
      related: [1],
      mr_states: ['merged'],
      issue_states: [['closed', true]],
      closed_by: [1],
      after_delete: 0,
    })
  })
})
