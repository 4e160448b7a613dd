// python-gitlab 3.12 (Debian's python3-gitlab) on collab's Jobs API: lists, trace, artifacts by id and by ref, keep,
// retry, play, cancel, erase, and CI/CD variables; skipped where that interpreter is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../../../helpers/python-gitlab.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob } from './fixture.js'

// runPythonGitlab reads scripts from test/fixtures; this one lives beside its test.
const SCRIPT = '../server/ci/jobs/python-gitlab-jobs.py'

describe.skipIf(!hasPythonGitlab)('python-gitlab on the Jobs API', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
    const w = await ciWorld(server)
    // A successful pipeline (its artifacts are the ref's latest), then one with a failure and a manual job.
    seedPipeline(w, [jobSpec('build', 0)])
    await finish(w, await takeJob(w), { log: 'built\n', files: { 'dist/app.txt': 'app\n' }, expireIn: '2 days' })
    seedPipeline(w, [jobSpec('test', 0), jobSpec('deploy', 0, { when: 'manual', allowFailure: true })])
    await finish(w, await takeJob(w), { log: 'broken\n', state: 'failed' })
  })
  afterAll(() => server.close())

  it('reads, downloads and acts on jobs, and manages variables', async () => {
    expect(await runPythonGitlab(SCRIPT, server)).toEqual({
      list: [['deploy', 'manual'], ['test', 'failed'], ['build', 'success']],
      scoped: ['deploy', 'test'],
      pipeline_jobs: ['test', 'deploy'],
      trace: 'built\n',
      artifact: 'app\n',
      zip_magic: 'PK',
      by_ref: 'app\n',
      by_ref_zip: 'PK',
      kept: null,
      retry: ['test', 'pending'],
      retry_again: [403, '403 Forbidden - Job is not retryable'],
      played: 'pending',
      canceled: 'canceled',
      replayed: ['pending', 'canceled'],
      play_build: [400, '400 Bad request - Unplayable Job'],
      erased: [[], true],
      after_erase: 404,
      variable: ['DEPLOY_KEY', 'abcdefgh12345678', true, false],
      updated: 'other-value-123',
      variables: ['DEPLOY_KEY'],
      duplicate: [400, { key: ['(DEPLOY_KEY) has already been taken'] }],
      after_delete: [],
    })
  })
})
