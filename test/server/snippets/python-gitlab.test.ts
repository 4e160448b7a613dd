// python-gitlab 3.12 (a real client) managing project snippets, snippet notes and awards, and personal snippets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab on snippets', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('creates, reads raw, saves, comments, awards the snippet and a note, and deletes', async () => {
    expect(await runPythonGitlab('python-gitlab-snippets.py', server)).toEqual({
      created: ['Hello', 'hello.py', 'private', true],
      raw: "print('hi')\n",
      saved: ['Hello again', "print('again')\n"],
      list: ['Hello again'],
      note: ['Looks good', 'Snippet', null],
      note_read: [true, 'Hello again', 'hello.py', null],
      notes: ['Looks better'],
      note_awards: [['tada', 'Note', true]],
      awards: [['thumbsup', 'Snippet']],
      awards_after: 0,
      notes_after: 0,
      user_agent: ['ip_address', 'spamfilter_submitted', 'user_agent'],
      bad: [400, 'files, content are missing, exactly one parameter must be provided'],
      missing: [404, '404 Snippet Not Found'],
      personal: ['Mine', 'public', null, 'mine'],
      public: ['Mine'],
      mine: ['Mine'],
      mine_after: 0,
    })
  })
})
