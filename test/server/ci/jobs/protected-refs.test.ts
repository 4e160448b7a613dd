// The attack: a Developer who may neither push nor merge to a protected branch plays or retries its jobs (with job
// variables of their choosing, such as BASH_ENV) and so runs code that sees its protected variables. GitLab's
// Ci::BuildPolicy refuses them (protected_ref); those who may push or merge there keep every action.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { specOf } from '../../../../src/server/ci/scheduler.js'
import { findJobById } from '../../../../src/server/store/ci-jobs.js'
import { expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld
let pid: number

const job = (id: number, action = '') => `/projects/${pid}/jobs/${id}${action}`
const FORBIDDEN = [403, { message: '403 Forbidden' }]

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server, 'prot-')
  pid = w.project.id
  // Maintainers only may push or merge: the Developer is a member who may read these jobs and nothing more.
  expectStatus(await w.owner.api.post(`/projects/${pid}/protected_branches`, { name: 'release*', push_access_level: 40, merge_access_level: 40 }), 201)
})
afterAll(() => server.close())

describe('a Developer on a protected branch they may not push or merge to', () => {
  it('may not play a manual job, with or without job variables (403), and the job keeps its planned variables', async () => {
    const { jobs: [gate] } = seedPipeline(w, [jobSpec('deploy', 0, { when: 'manual' })], { ref: 'release' })
    const attack = { job_variables_attributes: [{ key: 'BASH_ENV', value: '/tmp/evil' }] }
    const res = await w.developer.api.post(job(gate.id, '/play'), attack)
    expect([res.status, res.body]).toEqual(FORBIDDEN)
    const row = findJobById(server.app.db, gate.id)!
    expect([row.status, specOf(row).runVariables ?? {}]).toEqual(['manual', {}])
    // A Maintainer may push there: the play is theirs.
    expect(expectStatus(await w.maintainer.api.post(job(gate.id, '/play')), 200).body.status).toBe('pending')
    await w.maintainer.api.post(job(gate.id, '/cancel'))
  })

  it('may not retry a job nor cancel one (403); nor retry or create the pipeline', async () => {
    const { pipeline, jobs: [j] } = seedPipeline(w, [jobSpec('build', 0)], { ref: 'release/1.0' })
    await finish(w, await takeJob(w), { state: 'failed' })
    const retry = await w.developer.api.post(job(j.id, '/retry'))
    expect([retry.status, retry.body]).toEqual(FORBIDDEN)
    const again = await w.developer.api.post(`/projects/${pid}/pipelines/${pipeline.id}/retry`)
    expect([again.status, again.body]).toEqual(FORBIDDEN)
    expect(findJobById(server.app.db, j.id)!.retried).toBe(0)
    const created = await w.developer.api.post(`/projects/${pid}/pipeline`, { ref: 'release' })
    const why = "You do not have sufficient permission to run a pipeline on 'release'. Please select a different branch or contact your administrator for assistance."
    expect([created.status, created.body]).toEqual([400, { message: { base: [why] } }])

    const retried = expectStatus(await w.maintainer.api.post(job(j.id, '/retry')), 201).body
    const cancel = await w.developer.api.post(job(retried.id, '/cancel'))
    expect([cancel.status, cancel.body]).toEqual(FORBIDDEN)
    expect(expectStatus(await w.maintainer.api.post(job(retried.id, '/cancel')), 201).body.status).toBe('canceled')
  })

  it('may act once the branch lets Developers merge into it', async () => {
    expectStatus(await w.owner.api.post(`/projects/${pid}/protected_branches`, { name: 'stable', push_access_level: 40, merge_access_level: 30 }), 201)
    const { jobs: [gate] } = seedPipeline(w, [jobSpec('ship', 0, { when: 'manual' })], { ref: 'stable' })
    expect(expectStatus(await w.developer.api.post(job(gate.id, '/play')), 200).body.status).toBe('pending')
    await w.developer.api.post(job(gate.id, '/cancel'))
  })
})
