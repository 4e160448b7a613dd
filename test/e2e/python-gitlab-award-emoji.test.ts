// python-gitlab 3.12 awards emoji to issues and to issue and merge request notes on collab (issue.awardemojis, note.awardemojis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab award emoji against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('creates, lists, reads and deletes awards on an issue, an issue note and a merge request note', async () => {
    expect(await runPythonGitlab('python-gitlab-award-emoji.py', server)).toEqual({
      issue_award: ['thumbsup', 'Issue', true, 'root'],
      issue_awards: ['thumbsup'],
      read: 'thumbsup',
      votes: [1, 1],
      votes_after: [0, 0],
      note_awards: [['tada', 'Note', true]],
      twice: [404, '404 Award Emoji {:name=>["has already been taken"]} Not Found'],
      mr_note_awards: [['rocket', 'Note', true]],
      mr_note_awards_after: 0,
    })
  })
})
