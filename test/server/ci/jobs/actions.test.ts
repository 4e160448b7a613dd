// Job actions: cancel, retry, play, erase, keep and delete artifacts, each refusing the wrong state and the wrong role.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Job } from '../../../../src/contract/entities/jobs.js'
import { expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld
let pid: number

const job = (id: number, action = '') => `/projects/${pid}/jobs/${id}${action}`
const read = async (id: number) => expectStatus(await w.reporter.api.get(job(id)), 200).body

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  pid = w.project.id
})
afterAll(() => server.close())

describe('POST …/cancel', () => {
  it('cancels a running job (201) and its token dies with it', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('long', 0)])
    const t = await takeJob(w)
    const res = expectStatus(await w.developer.api.post(job(j.id, '/cancel')), 201)
    Job.strict().parse(res.body)
    expect([res.body.id, res.body.status, res.body.finished_at]).toEqual([j.id, 'canceled', '2024-01-02T03:04:05.000Z'])
    const denied = await w.server.app.db.prepare('SELECT status FROM ci_jobs WHERE id = ?').get(t.id)
    expect(denied).toEqual({ status: 'canceled' })
    const own = await fetch(`${server.url}/api/v4/job`, { headers: { 'JOB-TOKEN': t.token } })
    expect(own.status).toBe(401)
  })

  it('answers a finished job unchanged with 201, as GitLab does', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('done', 0)])
    await finish(w, await takeJob(w))
    const res = expectStatus(await w.developer.api.post(job(j.id, '/cancel')), 201)
    expect(res.body.status).toBe('success')
  })

  it('leaves a manual job waiting for its person: cancel answers it unchanged, as GitLab does', async () => {
    const { jobs: [, gate] } = seedPipeline(w, [jobSpec('compile', 0), jobSpec('deploy', 1, { when: 'manual' })])
    await finish(w, await takeJob(w))
    expect((await read(gate.id)).status).toBe('manual')
    expect(expectStatus(await w.developer.api.post(job(gate.id, '/cancel')), 201).body.status).toBe('manual')
    expect(expectStatus(await w.developer.api.post(job(gate.id, '/play')), 200).body.status).toBe('pending')
    await w.developer.api.post(job(gate.id, '/cancel'))
    expect((await read(gate.id)).status).toBe('canceled')
  })

  it('takes force from Maintainers only', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('forced', 0)])
    const dev = await w.developer.api.post(job(j.id, '/cancel'), { force: true })
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(expectStatus(await w.maintainer.api.post(job(j.id, '/cancel'), { force: true }), 201).body.status).toBe('canceled')
  })

  it('refuses Reporters (403) and answers 404 for a missing job', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('guarded', 0)])
    const res = await w.reporter.api.post(job(j.id, '/cancel'))
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await read(j.id)).status).toBe('pending')
    const missing = await w.developer.api.post(job(4242, '/cancel'))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
    await w.developer.api.post(job(j.id, '/cancel'))
  })
})

describe('POST …/retry', () => {
  it('makes a new job (201) in the queue and keeps the old one as retried', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('flaky', 0)])
    await finish(w, await takeJob(w), { state: 'failed' })
    const res = expectStatus(await w.developer.api.post(job(j.id, '/retry')), 201)
    Job.strict().parse(res.body)
    expect(res.body.id).toBeGreaterThan(j.id)
    expect([res.body.name, res.body.status, res.body.user.username]).toEqual(['flaky', 'pending', w.developer.username])
    expect((await read(j.id)).status).toBe('failed')
    // The retried try is no longer retryable: its successor is.
    const again = await w.developer.api.post(job(j.id, '/retry'))
    expect([again.status, again.body]).toEqual([403, { message: '403 Forbidden - Job is not retryable' }])
    await w.developer.api.post(job(res.body.id, '/cancel'))
  })

  it('refuses a job that is still running or waiting', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('busy', 0)])
    const res = await w.developer.api.post(job(j.id, '/retry'))
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - Job is not retryable' }])
    await w.developer.api.post(job(j.id, '/cancel'))
  })
})

describe('POST …/play', () => {
  it('queues a manual job (200, pending)', async () => {
    const { jobs: [, manual] } = seedPipeline(w, [jobSpec('compile', 0), jobSpec('ship', 1, { when: 'manual', allowFailure: true })])
    await finish(w, await takeJob(w))
    expect((await read(manual.id)).status).toBe('manual')
    const res = expectStatus(await w.developer.api.post(job(manual.id, '/play')), 200)
    Job.strict().parse(res.body)
    expect([res.body.id, res.body.status]).toEqual([manual.id, 'pending'])
    await w.developer.api.post(job(manual.id, '/cancel'))
  })

  it('runs the job with the variables given to the play, over the planned ones', async () => {
    const { jobs: [gate] } = seedPipeline(w, [jobSpec('release', 0, { when: 'manual', variables: { TARGET: 'staging', KEEP: 'yes' } })])
    const body = { job_variables_attributes: [{ key: 'TARGET', value: 'production' }, { key: 'EXTRA', value: '1' }] }
    expectStatus(await w.developer.api.post(job(gate.id, '/play'), body), 200)
    const t = await takeJob(w)
    const vars = Object.fromEntries(t.payload.variables.filter((v) => ['TARGET', 'KEEP', 'EXTRA'].includes(v.key)).map((v) => [v.key, v.value]))
    expect([t.id, vars]).toEqual([gate.id, { TARGET: 'production', KEEP: 'yes', EXTRA: '1' }])
    await finish(w, t)
  })

  it("answers 400 'Unplayable Job' for a job that is not manual", async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('plain', 0)])
    const res = await w.developer.api.post(job(j.id, '/play'))
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - Unplayable Job' }])
    await w.developer.api.post(job(j.id, '/cancel'))
  })

  it('refuses Reporters', async () => {
    const { jobs: [manual] } = seedPipeline(w, [jobSpec('gate', 0, { when: 'manual' })])
    expect((await w.reporter.api.post(job(manual.id, '/play'))).status).toBe(403)
    expect((await read(manual.id)).status).toBe('manual')
  })
})

describe('POST …/erase', () => {
  it('removes the artifacts and the log of a finished job (201) and records who erased it', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('eraseme', 0)], { user: w.developer })
    await finish(w, await takeJob(w), { log: 'secret output\n', files: { 'a.txt': 'A' } })
    expect((await read(j.id)).artifacts.map((a: { file_type: string }) => a.file_type)).toEqual(['archive', 'metadata', 'trace'])
    const res = expectStatus(await w.developer.api.post(job(j.id, '/erase')), 201)
    expect([res.body.artifacts, res.body.artifacts_file, res.body.erased_at]).toEqual([[], undefined, '2024-01-02T03:04:05.000Z'])
    expect(expectStatus(await w.reporter.api.get(job(j.id, '/trace')), 200).text).toBe('')
    expect((await w.reporter.api.get(job(j.id, '/artifacts'))).status).toBe(404)
    const row = w.server.app.db.prepare('SELECT erased_by_id, artifacts_file FROM ci_jobs WHERE id = ?').get(j.id)
    expect(row).toEqual({ erased_by_id: w.developer.id, artifacts_file: null })
    // Nothing is left to erase now.
    const again = await w.developer.api.post(job(j.id, '/erase'))
    expect([again.status, again.body]).toEqual([403, { message: '403 Forbidden - Job is not erasable!' }])
  })

  it("lets Maintainers erase anyone's job, and Developers only the jobs they started", async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('theirs', 0)], { user: w.owner })
    await finish(w, await takeJob(w), { log: 'log\n' })
    const dev = await w.developer.api.post(job(j.id, '/erase'))
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(expectStatus(await w.maintainer.api.post(job(j.id, '/erase')), 201).body.erased_at).toBe('2024-01-02T03:04:05.000Z')
  })

  it('refuses a running job', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('running', 0)], { user: w.developer })
    const t = await takeJob(w)
    await w.coordinator.appendTrace(t.id, t.token, 0, Buffer.from('so far\n'))
    const res = await w.developer.api.post(job(j.id, '/erase'))
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - Job is not erasable!' }])
    await finish(w, t)
  })
})

describe('artifacts: keep and delete', () => {
  it('keeps expiring artifacts (200, artifacts_expire_at null) and answers 404 without any', async () => {
    const { jobs: [j, bare] } = seedPipeline(w, [jobSpec('keeper', 0), jobSpec('bare', 0)])
    await finish(w, await takeJob(w), { files: { 'k.txt': 'K' }, expireIn: '1 week' })
    await finish(w, await takeJob(w))
    expect((await read(j.id)).artifacts_expire_at).toBe('2024-01-09T03:04:05.000Z')
    const res = expectStatus(await w.developer.api.post(job(j.id, '/artifacts/keep')), 200)
    expect([res.body.artifacts_expire_at, res.body.artifacts_file]).toEqual([null, { filename: 'artifacts.zip', size: res.body.artifacts[0].size }])
    const none = await w.developer.api.post(job(bare.id, '/artifacts/keep'))
    expect([none.status, none.body]).toEqual([404, { message: '404 Not Found' }])
  })

  it('deletes a job\'s artifacts for Maintainers only (204; 403 for Developers)', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('deletable', 0)])
    await finish(w, await takeJob(w), { files: { 'd.txt': 'D' } })
    const dev = await w.developer.api.del(job(j.id, '/artifacts'))
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await w.maintainer.api.del(job(j.id, '/artifacts'))).status).toBe(204)
    const after = await read(j.id)
    expect([after.artifacts, after.artifacts_file]).toEqual([[], undefined])
    expect((await w.reporter.api.get(job(j.id, '/artifacts'))).status).toBe(404)
  })

  it('DELETE /projects/:id/artifacts keeps only the newest successful pipeline of each ref (202)', async () => {
    const older = seedPipeline(w, [jobSpec('old', 0)]).jobs[0]
    await finish(w, await takeJob(w), { files: { 'o.txt': 'O' } })
    const newer = seedPipeline(w, [jobSpec('new', 0)]).jobs[0]
    await finish(w, await takeJob(w), { files: { 'n.txt': 'N' } })
    expect((await w.developer.api.del(`/projects/${pid}/artifacts`)).status).toBe(403)
    const res = await w.maintainer.api.del(`/projects/${pid}/artifacts`)
    expect([res.status, res.body]).toEqual([202, { message: '202 Accepted' }])
    expect((await read(older.id)).artifacts).toEqual([])
    expect((await read(newer.id)).artifacts_file).toEqual({ filename: 'artifacts.zip', size: expect.any(Number) })
  })
})

describe('an archived project', () => {
  it('refuses every action (403) and still serves reads', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('frozen', 0)], { user: w.developer })
    await finish(w, await takeJob(w), { log: 'log\n', files: { 'f.txt': 'F' } })
    expectStatus(await w.owner.api.post(`/projects/${pid}/archive`), 201)
    try {
      for (const action of ['/retry', '/cancel', '/erase', '/artifacts/keep', '/play']) {
        const res = await w.maintainer.api.post(job(j.id, action))
        expect([action, res.status, res.body]).toEqual([action, 403, { message: '403 Forbidden' }])
      }
      expect((await w.maintainer.api.del(job(j.id, '/artifacts'))).status).toBe(403)
      expect((await read(j.id)).status).toBe('success')
      expect(expectStatus(await w.reporter.api.get(job(j.id, '/artifacts/f.txt')), 200).text).toBe('F')
    } finally {
      expectStatus(await w.owner.api.post(`/projects/${pid}/unarchive`), 201)
    }
  })
})
