// The Jobs API's reads: project and pipeline lists (scope forms, include_retried, pagination), one job, its trace, who may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Job } from '../../../../src/contract/entities/jobs.js'
import { api, expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, NOW, seedPipeline, takeJob, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld
let pid: number
let buildId: number
let testId: number
let deployId: number

const jobs = () => `/projects/${pid}/jobs`
const ids = (body: { id: number }[]) => body.map((j) => j.id)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  pid = w.project.id
  const { jobs: [build, test, deploy] } = seedPipeline(w, [jobSpec('build', 0), jobSpec('test', 1), jobSpec('deploy', 2, { when: 'manual' })])
  ;[buildId, testId, deployId] = [build.id, test.id, deploy.id]
  await finish(w, await takeJob(w), { log: 'building\n' })
  await finish(w, await takeJob(w), { log: 'testing\nfailed\n', state: 'failed' })
})
afterAll(() => server.close())

describe('GET /projects/:id/jobs/:job_id', () => {
  it("answers GitLab 17's Job entity, field for field", async () => {
    const res = expectStatus(await w.reporter.api.get(`${jobs()}/${testId}`), 200)
    const base = server.url
    expect(res.body).toEqual({
      id: testId, status: 'failed', stage: 'test', name: 'test', ref: 'main', tag: false, coverage: null, allow_failure: false,
      created_at: NOW, started_at: NOW, finished_at: NOW, erased_at: null, duration: 0, queued_duration: 0,
      user: {
        id: w.owner.id, username: 'owner', name: 'Olive Owner', state: 'active', avatar_url: `${base}/uploads/-/system/user/avatar/${w.owner.id}/identicon.svg`, web_url: `${base}/owner`,
        created_at: NOW, bio: '', location: '', public_email: null, skype: '', linkedin: '', twitter: '', website_url: '',
        organization: '', job_title: '', pronouns: null, bot: false, work_information: null, followers: 0, following: 0, local_time: null,
      },
      commit: {
        id: w.sha, short_id: w.sha.slice(0, 8), created_at: '2024-01-02T03:04:05.000+00:00', parent_ids: [], title: 'Initial commit',
        message: 'Initial commit\n', author_name: 'Olive Owner', author_email: 'owner@example.com',
        authored_date: '2024-01-02T03:04:05.000+00:00', committer_name: 'Olive Owner', committer_email: 'owner@example.com',
        committed_date: '2024-01-02T03:04:05.000+00:00', trailers: {}, extended_trailers: {}, web_url: `${base}/owner/builds/-/commit/${w.sha}`,
      },
      pipeline: {
        id: 1, iid: 1, project_id: pid, sha: w.sha, ref: 'main', status: 'failed', source: 'push', created_at: NOW, updated_at: NOW,
        web_url: `${base}/owner/builds/-/pipelines/1`,
      },
      failure_reason: 'script_failure',
      web_url: `${base}/owner/builds/-/jobs/${testId}`,
      project: { ci_job_token_scope_enabled: false },
      artifacts: [{ file_type: 'trace', size: 15, filename: 'job.log', file_format: 'raw' }],
      runner: {
        id: 1, description: 'collab built-in shell runner', ip_address: null, active: true, paused: false, is_shared: true,
        runner_type: 'instance_type', name: 'collab', online: true, status: 'online',
      },
      artifacts_expire_at: null,
      archived: false,
      tag_list: [],
    })
    Job.strict().parse(res.body)
  })

  it('leaves failure_reason out unless the job failed, and shows a waiting job without runner or times', async () => {
    const res = expectStatus(await w.reporter.api.get(`${jobs()}/${deployId}`), 200)
    expect(res.body).not.toHaveProperty('failure_reason')
    expect(res.body).not.toHaveProperty('artifacts_file')
    expect([res.body.status, res.body.started_at, res.body.duration, res.body.runner, res.body.artifacts]).toEqual(['skipped', null, null, null, []])
  })

  it("answers ActiveRecord's 404 for a job that is not the project's", async () => {
    const res = await w.reporter.api.get(`${jobs()}/999`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('answers 400 for a job id that is not a number', async () => {
    const res = await w.reporter.api.get(`${jobs()}/abc`)
    expect([res.status, res.body]).toEqual([400, { message: { job_id: ['is invalid'] } }])
  })
})

describe('who may read jobs', () => {
  it('lets Reporters read, and Guests only while the project\'s pipelines are public (403 otherwise)', async () => {
    expectStatus(await w.guest.api.get(jobs()), 200)
    expectStatus(await w.owner.api.put(`/projects/${pid}`, { public_jobs: false }), 200)
    try {
      expectStatus(await w.reporter.api.get(jobs()), 200)
      const res = await w.guest.api.get(jobs())
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
      expect((await w.guest.api.get(`${jobs()}/${testId}/trace`)).status).toBe(403)
    } finally {
      expectStatus(await w.owner.api.put(`/projects/${pid}`, { public_jobs: true }), 200)
    }
  })

  it('hides a private project from strangers (404) and asks anonymous callers to sign in (401)', async () => {
    const stranger = await w.stranger.api.get(`${jobs()}/${buildId}`)
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }])
    const anonymous = await api(server).get(jobs())
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
  })

  it('lets any signed-in user read the jobs of a public project with public pipelines', async () => {
    expectStatus(await w.owner.api.put(`/projects/${pid}`, { visibility: 'public' }), 200)
    try {
      expect(ids(expectStatus(await w.stranger.api.get(jobs()), 200).body)).toEqual([deployId, testId, buildId])
      expectStatus(await w.owner.api.put(`/projects/${pid}`, { public_jobs: false }), 200)
      expect((await w.stranger.api.get(jobs())).status).toBe(403)
    } finally {
      expectStatus(await w.owner.api.put(`/projects/${pid}`, { visibility: 'private', public_jobs: true }), 200)
    }
  })
})

describe('GET /projects/:id/jobs', () => {
  it('lists every job newest first, paginated', async () => {
    const res = expectStatus(await w.reporter.api.get(jobs(), { query: { per_page: 2 } }), 200)
    for (const j of res.body) Job.strict().parse(j)
    expect(ids(res.body)).toEqual([deployId, testId])
    expect([res.headers.get('x-total'), res.headers.get('x-total-pages'), res.headers.get('x-next-page')]).toEqual(['3', '2', '2'])
  })

  it('filters by scope given as a string, an array or a hash', async () => {
    expect(ids(expectStatus(await w.reporter.api.get(jobs(), { query: 'scope=success' }), 200).body)).toEqual([buildId])
    expect(ids(expectStatus(await w.reporter.api.get(jobs(), { query: 'scope[]=success&scope[]=failed' }), 200).body)).toEqual([testId, buildId])
    expect(ids(expectStatus(await w.reporter.api.get(jobs(), { query: 'scope[a]=skipped' }), 200).body)).toEqual([deployId])
  })

  it("answers Grape's 400 for a scope outside the statuses", async () => {
    for (const query of ['scope=done', 'scope[]=success&scope[]=bogus', 'scope[a][b]=success']) {
      const res = await w.reporter.api.get(jobs(), { query })
      expect([res.status, res.body]).toEqual([400, { error: 'scope does not have a valid value' }])
    }
  })
})

describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
  it("lists the pipeline's jobs in order, hiding retried tries unless include_retried", async () => {
    const retried = expectStatus(await w.developer.api.post(`${jobs()}/${testId}/retry`), 201).body
    const path = `/projects/${pid}/pipelines/1/jobs`
    expect(ids(expectStatus(await w.reporter.api.get(path), 200).body)).toEqual([buildId, deployId, retried.id])
    expect(ids(expectStatus(await w.reporter.api.get(path, { query: { include_retried: true } }), 200).body)).toEqual([buildId, testId, deployId, retried.id])
    expect(ids(expectStatus(await w.reporter.api.get(path, { query: { scope: 'success' } }), 200).body)).toEqual([buildId])
  })

  it('answers 404 for a pipeline of no such id', async () => {
    const res = await w.reporter.api.get(`/projects/${pid}/pipelines/77/jobs`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })
})

describe('GET /projects/:id/jobs/:job_id/trace', () => {
  it('answers the whole log as text/plain with an infile disposition', async () => {
    const res = expectStatus(await w.reporter.api.get(`${jobs()}/${testId}/trace`), 200)
    expect(res.text).toBe('testing\nfailed\n')
    expect([res.headers.get('content-type'), res.headers.get('content-disposition'), res.headers.get('content-length')])
      .toEqual(['text/plain', `infile; filename="${testId}.log"`, '15'])
  })

  it('answers an empty body for a job without a log', async () => {
    const res = expectStatus(await w.reporter.api.get(`${jobs()}/${deployId}/trace`), 200)
    expect([res.text, res.headers.get('content-type')]).toEqual(['', 'text/plain'])
  })

  it('answers 404 for another project\'s job', async () => {
    const res = await w.reporter.api.get(`${jobs()}/12345/trace`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })
})
