// A pending job's page says why it waits, as GitLab's "This job is stuck": no runner online takes it, or only the
// built-in runner that, without a sandbox, runs administrators' pipelines alone.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { prepareEmbeddedRunner } from '../../../src/server/services/ci/runners.js'
import { api, createUser, expectStatus, request, type TestUser } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { signIn } from '../web/fixture.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startCiServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

async function pendingJobPage(as: TestUser, name: string) {
  expectStatus(await as.api.post('/projects', { name }), 201)
  const ci = 'wait:\n  tags: [gpu]\n  script: [echo x]\n'
  expectStatus(await as.api.post(`/projects/${as.username}%2F${name}/repository/commits`, {
    branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }],
  }), 201)
  await server.app.tasks.idle()
  const project = expectStatus(await as.api.get(`/projects/${as.username}%2F${name}`), 200).body
  const [pipeline] = await projectPipelines(server, as.api, project.id)
  const job = jobNamed(server, pipeline.id, 'wait')
  expect(job.status).toBe('pending')
  const page = await request(server, 'GET', `/${as.username}/${name}/-/jobs/${job.id}`, { headers: { Cookie: await signIn(server, as) } })
  return /<p id="job-stuck" class="notice">([^<]*)<\/p>/.exec(page.text)?.[1] ?? null
}

it('says no runner online takes the job, naming its tags', async () => {
  expect(await pendingJobPage(alice, 'no-runner')).toBe(
    'This job is stuck because no runner online can take it (tags: gpu). Attach one: collab runner register --url URL --token glrt-… (or a gitlab-runner).')
})

it("says the built-in runner runs only administrators' pipelines when it cannot sandbox, and nothing once a runner can take the job", async () => {
  const embedded = prepareEmbeddedRunner({ app: server.app }, { adminPipelinesOnly: true })
  const root = api(server, server.rootToken)
  expectStatus(await root.put(`/runners/${embedded.id}`, { tag_list: ['gpu'] }), 200)
  // Its first request makes it online; nothing is pending for it yet.
  expectStatus(await request(server, 'POST', '/api/v4/jobs/request', { json: { token: embedded.token } }), 204)
  expect(await pendingJobPage(alice, 'admin-only')).toMatch(/^This job is waiting: the built-in runner of this server cannot sandbox jobs/)
  const other = expectStatus(await root.post('/user/runners', { runner_type: 'instance_type', tag_list: ['gpu'] }), 201).body
  expectStatus(await request(server, 'POST', '/api/v4/jobs/request', { json: { token: other.token } }), 201)
  expect(await pendingJobPage(alice, 'taken-soon')).toBeNull()
})
