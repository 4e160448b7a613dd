// python-gitlab 3.12 (Debian's python3-gitlab) on the protected_tags API: create, list, get, a taken name, delete;
// skipped where that interpreter is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject } from '../../helpers/api.js'
import { hasPythonGitlab, runPythonGitlab } from '../../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

// runPythonGitlab reads scripts from test/fixtures; this one lives beside its test.
const SCRIPT = '../server/protected-tags/python-gitlab-protected-tags.py'

describe.skipIf(!hasPythonGitlab)('python-gitlab on the protected_tags API', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    await createProject(api(server, server.rootToken), { name: 'pg-tags' })
  })
  afterAll(() => server.close())

  it('manages protected tags through project.protectedtags', async () => {
    expect(await runPythonGitlab(SCRIPT, server)).toEqual({
      created: ['v*', 30],
      list: ['v*', 'release-*'],
      get: ['release-*', 'Maintainers'],
      duplicate: [422, ['Name has already been taken']],
      after_delete: ['v*'],
      missing: 404,
    })
  })
})
