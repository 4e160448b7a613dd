// python-gitlab 3.12, a real third-party client (Debian's python3-gitlab), against collab unchanged. It is the client
// that compares Content-Type as a string and follows Link for get_all, so it guards those rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('authenticates, creates, lists across pages, edits, commits, reads a file, posts a status and stars', async () => {
    expect(await runPythonGitlab('python-gitlab-session.py', server)).toEqual({
      user: 'root',
      version: '17.0.0-collab',
      created: 'root/py-demo',
      listed: ['py-0', 'py-1', 'py-2', 'py-demo'],
      description: 'edited from python',
      commit_title: 'add',
      file: 'hi\n',
      status: 'success',
      stars: 1,
      missing: [404, '404 Project Not Found'],
    })
  })

  it('creates, lists, edits and deletes releases and their asset links (project.releases, release.links)', async () => {
    expect(await runPythonGitlab('python-gitlab-releases.py', server)).toEqual({
      created: ['One', 'v1.0', false, ['1.0']],
      listed: [['v1.1', true], ['v1.0', false]],
      edited: 'Edited',
      link: ['docs', true, true],
      links: ['manual', 'pkg'],
      links_after: ['pkg'],
      tag_release: { tag_name: 'v1.0', description: 'Edited' },
      duplicate: [409, 'Release already exists'],
      after_delete: ['v1.0'],
      tag_kept: 'v1.1',
    })
  })
})
