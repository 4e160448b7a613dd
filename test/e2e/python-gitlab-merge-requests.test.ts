// python-gitlab 3.12 creates, edits, lists, comments on, awards, reads and merges a merge request on collab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab merge requests against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('creates, edits, lists, comments, awards, reads changes and commits, and merges closing the issue', async () => {
    expect(await runPythonGitlab('python-gitlab-mr-session.py', server)).toEqual({
      iid: 1, draft: true, merge_status: 'can_be_merged', title: 'Feature', listed: [1], notes: ['Looks good', 'changed the description', 'changed title from **Draft: Feature** to **Feature**'],
      upvotes: 1, changes: ['a.txt'], commits: ['Add a'], closes: [1], time: '1h', wrong_sha: 409,
      state: 'merged', merged_by: 'root', issue: 'closed',
    })
  })
})
