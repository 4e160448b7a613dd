// The Jobs API over a real pipeline: .gitlab-ci.yml committed, POST /pipeline, jobs moved by the coordinator as a runner
// moves them, then read, downloaded from (by id, by job token, by ref) and acted on through the API.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { api, expectStatus } from '../../../helpers/api.js'
import { commit, create } from '../../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, takeJob, type CiWorld } from './fixture.js'

const CONFIG = `stages: [build, test, deploy]
build:
  stage: build
  script: make
  artifacts:
    paths: [dist/]
    expire_in: 1 week
test:
  stage: test
  script: make test
deploy:
  stage: deploy
  script: make deploy
  when: manual
`

let server: TestServer
let w: CiWorld
let pid: number

const summary = (jobs: { name: string; status: string }[]) => jobs.map((j) => `${j.name}:${j.status}`)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  pid = w.project.id
  // [skip ci] keeps the commit itself from starting a pipeline; POST /pipeline ignores it.
  await commit(w.owner.api, pid, { branch: 'main', commit_message: 'CI [skip ci]', actions: [create('.gitlab-ci.yml', CONFIG)] })
  // Pipelines of protected main are run by those who may merge there (GitLab's pipeline policy): developers here.
  expectStatus(await w.owner.api.request('PATCH', `/projects/${pid}/protected_branches/main`, { json: { merge_access_level: 30 } }), 200)
})
afterAll(() => server.close())

it('runs a pipeline through the Jobs API from start to finish', async () => {
  const pipeline = expectStatus(await w.developer.api.post(`/projects/${pid}/pipeline`, { ref: 'main' }), 201).body
  const jobsOf = async () => expectStatus(await w.reporter.api.get(`/projects/${pid}/pipelines/${pipeline.id}/jobs`), 200).body
  expect(summary(await jobsOf())).toEqual(['build:pending', 'test:created', 'deploy:created'])

  const build = await takeJob(w)
  const me = expectStatus(await api(server).get('/job', { headers: { 'JOB-TOKEN': build.token } }), 200).body
  expect([me.name, me.status, me.pipeline.id, me.user.username]).toEqual(['build', 'running', pipeline.id, w.developer.username])
  await finish(w, build, { log: 'compiling\n', files: { 'dist/app.bin': 'binary' }, expireIn: '1 week' })

  const test = await takeJob(w)
  const fromBuild = await api(server).get(`/projects/${pid}/jobs/${build.id}/artifacts/dist/app.bin`, { query: { job_token: test.token } })
  expect([fromBuild.status, fromBuild.text]).toEqual([200, 'binary'])
  await finish(w, test, { log: 'ok\n' })

  expect(summary(await jobsOf())).toEqual(['build:success', 'test:success', 'deploy:manual'])
  const built = expectStatus(await w.reporter.api.get(`/projects/${pid}/jobs/${build.id}`), 200).body
  expect([built.artifacts_expire_at, built.artifacts_file.filename]).toEqual(['2024-01-09T03:04:05.000Z', 'artifacts.zip'])
  // The optional manual job leaves the pipeline successful, so its artifacts are the ref's latest.
  expect(expectStatus(await w.reporter.api.get(`/projects/${pid}/pipelines/${pipeline.id}`), 200).body.status).toBe('success')
  const byRef = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/main/raw/dist/app.bin`, { query: { job: 'build' } })
  expect([byRef.status, byRef.text]).toEqual([200, 'binary'])

  const deployId = (await jobsOf())[2].id
  expect(expectStatus(await w.developer.api.post(`/projects/${pid}/jobs/${deployId}/play`), 200).body.status).toBe('pending')
  expect(expectStatus(await w.developer.api.post(`/projects/${pid}/jobs/${deployId}/cancel`), 201).body.status).toBe('canceled')

  const retried = expectStatus(await w.developer.api.post(`/projects/${pid}/jobs/${test.id}/retry`), 201).body
  expect([retried.name, retried.status]).toEqual(['test', 'pending'])
  expect(summary(await jobsOf())).toEqual(['build:success', 'deploy:canceled', 'test:pending'])
  const all = expectStatus(await w.reporter.api.get(`/projects/${pid}/jobs`, { query: 'scope[]=success&scope[]=canceled' }), 200).body
  expect(summary(all)).toEqual(['deploy:canceled', 'test:success', 'build:success'])
})
