// python-gitlab 3.12 (Debian's python3-gitlab) with group labels and milestones, and promoting project ones, on collab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab group labels and milestones', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('creates group labels and milestones, uses them on a project issue, and promotes project ones', async () => {
    expect(await runPythonGitlab('python-gitlab-group-labels.py', server)).toEqual({
      group_label: ['triage', '#FF0000', false],
      project_labels: [['triage', false]],
      saved: 'Look first',
      group_milestone: ['Sprint 1', true, false],
      issue: ['Sprint 1', true, ['triage']],
      milestone_issues: ['Plan'],
      promoted: ['local', false],
      group_labels: ['local', 'triage'],
      after_promote: [['local', false], ['triage', false]],
      milestone_promote: 200,
      group_milestones: ['Solo', 'Sprint 1'],
      deleted: ['local'],
    })
  })
})
