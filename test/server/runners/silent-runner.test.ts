// A runner that stops reporting loses its job after GitLab's stuck timeout (an hour without a log or an update),
// failed as runner_system_failure; a heartbeat (PUT state=running) keeps it. Time comes from the server's clock.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { failSilentJobs, RUNNER_SILENT_MS } from '../../../src/server/ci/lifecycle-runtime.js'
import { api, expectStatus, movableClock, request } from '../../helpers/api.js'
import { ciProject, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

const clock = movableClock('2026-03-01T00:00:00Z')
let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ clock })
})
afterAll(() => server.close())

it('fails the job of a runner silent for an hour, not of one that keeps reporting', async () => {
  const root = api(server, server.rootToken)
  await ciProject(server, 'silent', 'quiet:\n  script: [sleep 100000]\nchatty:\n  script: [sleep 100000]\n')
  const { token } = expectStatus(await root.post('/user/runners', { runner_type: 'instance_type' }), 201).body
  const take = async () => expectStatus(await request(server, 'POST', '/api/v4/jobs/request', { json: { token } }), 201).body
  const quiet = await take()
  const chatty = await take()
  const beat = (job: { id: number; token: string }) => request(server, 'PUT', `/api/v4/jobs/${job.id}`, { json: { token: job.token, state: 'running' } })

  clock.advance(RUNNER_SILENT_MS - 60_000)
  expectStatus(await beat(chatty), 200)
  expect(await failSilentJobs(server.app)).toBe(0)
  clock.advance(120_000)
  expect(await failSilentJobs(server.app)).toBe(1)
  const state = async (id: number) => expectStatus(await root.get(`/projects/${quiet.job_info.project_id}/jobs/${id}`), 200).body
  expect(await state(quiet.id)).toMatchObject({ status: 'failed', failure_reason: 'runner_system_failure' })
  expect(await state(chatty.id)).toMatchObject({ status: 'running' })
  // The quiet runner comes back: its token died with the job, so it is told to stop.
  expect((await beat(quiet)).status).toBe(403)
})
