// python-gitlab 3.12 starts, replies to, resolves and edits discussions on a merge request, an issue and a commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab discussions against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('threads, replies, diff notes and resolutions, and the merge once every thread is resolved', async () => {
    expect(await runPythonGitlab('python-gitlab-discussions.py', server)).toEqual({
      diff_note: ['DiffNote', 2],
      mr_threads: [['Why b?', 'Because'], ['Line two']],
      blocking_before: 'discussions_not_resolved',
      resolved: [[true, 'root'], [true, 'root']],
      edited: 'Because it is',
      blocking_after: true,
      issue_threads: [['Seen it', 'Me too']],
      commit_threads: [['Commit', 'Commit']],
      commit_comments: ['On the commit', 'Reply'],
      state: 'merged',
    })
  })
})
