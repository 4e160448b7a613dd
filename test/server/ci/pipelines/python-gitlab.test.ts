// python-gitlab 3.12 (Debian's python3-gitlab) creating, listing, cancelling, retrying and deleting pipelines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../../../helpers/python-gitlab.js'
import { startCiServer } from '../../../helpers/ci.js'
import type { TestServer } from '../../../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab pipelines', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startCiServer()
  })
  afterAll(() => server.close())

  it('drives the Pipelines API as its own objects expect', async () => {
    expect(await runPythonGitlab('python-gitlab-pipelines.py', server)).toEqual({
      created: [1, 'master', 'api', 'pending', 'pending'],
      variables: [['GREETING', 'hi', 'env_var']],
      list: [[1, 'api']],
      filtered: [1],
      canceled: 'canceled',
      retried: 'pending',
      latest: true,
      bad_ref: [400, { base: ['Reference not found'] }],
      after_delete: [],
    })
  })
})
