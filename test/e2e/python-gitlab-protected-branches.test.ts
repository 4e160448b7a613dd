// python-gitlab 3.12 (Debian's python3-gitlab) protecting and unprotecting branches on collab, the legacy routes too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab protected branches', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('lists, creates, gets a wildcard, protects and unprotects by the legacy routes and deletes', async () => {
    expect(await runPythonGitlab('python-gitlab-protected-branches.py', server)).toEqual({
      default: [['main', 40]],
      created: ['release/*', 'Developers + Maintainers'],
      got: 'release/*',
      branch: true,
      legacy: [true, true],
      unprotected: false,
      after_delete: ['main'],
      duplicate: [409, "Protected branch 'main' already exists"],
    })
  })
})
