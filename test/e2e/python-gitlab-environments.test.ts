// python-gitlab 3.12 (Debian's python3-gitlab) on the environments and deployments APIs: create, list, search,
// update, a deployment recorded and marked successful, stop and delete; skipped where that interpreter is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject } from '../helpers/api.js'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab on environments and deployments', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    await createProject(api(server, server.rootToken), { name: 'pg-envs', initialize_with_readme: true })
  })
  afterAll(() => server.close())

  it('manages environments and deployments through project.environments and project.deployments', async () => {
    expect(await runPythonGitlab('python-gitlab-environments.py', server)).toEqual({
      created: ['review/one', 'review-one-sbi7zf', 'available', 'development', 'https://one.example.com'],
      list: ['review/one', 'production'],
      search: ['production'],
      updated: ['https://two.example.com', null],
      deployment: [1, 'success', 'review/one', null],
      deployments: ['success'],
      merge_requests: [],
      last_deployment: 1,
      delete_available: 403,
      stopped: 'stopped',
      missing: 404,
    })
  })
})
