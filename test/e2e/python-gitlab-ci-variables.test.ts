// python-gitlab 3.12 (Debian's python3-gitlab) on group and instance CI/CD variables and pipeline trigger tokens:
// group.variables, gl.variables, project.triggers and project.trigger_pipeline as its users script them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab on CI/CD variables and triggers', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('manages group and instance variables and runs a pipeline with a trigger token', async () => {
    expect(await runPythonGitlab('python-gitlab-ci-variables.py', server)).toEqual({
      group_variable: ['GROUP_KEY', 'group-value', true, '*'],
      group_updated: 'changed-value',
      group_list: ['GROUP_KEY'],
      instance: ['INSTANCE_KEY', 'instance-value', ['description', 'key', 'masked', 'protected', 'raw', 'value', 'variable_type']],
      trigger: ['py trigger', true, 'root'],
      pipeline: ['trigger', 'master', 'root'],
      pipeline_variables: ['DEPLOY', 'TRIGGER_PAYLOAD'],
      last_used: true,
      bad_token: [404, '404 Not Found'],
      bad_ref: [400, { base: ['Reference not found'] }],
      triggers_after_delete: 0,
      after_delete: [0, 0],
    })
  })
})
