// The scheduler and job ends, driven through the real coordinator (the runner's side of the protocol): stages,
// needs, when, allow_failure, manual jobs blocking or not, delayed jobs, automatic retries, coverage, job tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../../../../src/core/ids.js'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import { cancelJob, playJob } from '../../../../src/server/ci/lifecycle.js'
import type { JobUpdate } from '../../../../src/server/ci/runner/protocol.js'
import { enqueueDueJobs } from '../../../../src/server/ci/scheduler.js'
import { findJobById, oldestPendingJob } from '../../../../src/server/store/ci-jobs.js'
import { findPipelineById } from '../../../../src/server/store/pipelines.js'
import { api, expectStatus, movableClock } from '../../../helpers/api.js'
import { allJobs, ciProject, jobNamed, jobStates, runPipeline, startCiServer } from '../../../helpers/ci.js'
import type { TestServer } from '../../../helpers/server.js'

const clock = movableClock('2024-01-02T03:04:05.000Z')
let server: TestServer
let coordinator: ReturnType<typeof createCoordinator>
let n = 0

beforeAll(async () => {
  server = await startCiServer({ clock })
  coordinator = createCoordinator(server.app)
})
afterAll(() => server.close())

/** A new project with this config and one API pipeline on master; answers the pipeline's id. */
async function pipelineOf(yaml: string): Promise<number> {
  const { project, root } = await ciProject(server, `sched-${++n}`, yaml)
  await server.app.tasks.idle()
  return (await runPipeline(root, project.id)).id
}

/** Takes the next job from the queue, expects its name, and reports it ended as `update` says. */
async function runNext(name: string, update: JobUpdate = { state: 'success' }, trace?: string) {
  const payload = await coordinator.requestJob({ id: 'test-runner', concurrency: 1 })
  expect(payload?.job_info.name).toBe(name)
  if (trace !== undefined) await coordinator.appendTrace(payload!.id, payload!.token, 0, Buffer.from(trace))
  await coordinator.updateJob(payload!.id, payload!.token, update)
  return payload!
}

const status = (id: number) => findPipelineById(server.app.db, id)!.status
const failed = (exit_code = 1): JobUpdate => ({ state: 'failed', failure_reason: 'script_failure', exit_code })

/** Drains jobs of pipelines made by other tests' triggers (push pipelines of each project's first commit). */
async function drainQueue() {
  await server.app.tasks.idle()
  for (;;) {
    const p = await coordinator.requestJob({ id: 'drain', concurrency: 1 })
    if (!p) return
    await coordinator.updateJob(p.id, p.token, { state: 'canceled' })
  }
}

describe('stages and when', () => {
  it('skips everything after a canceled job, always jobs too (they run after success, failure or skips only)', async () => {
    const id = await pipelineOf(`stages: [build, test, cleanup]
build: { stage: build, script: [x] }
test: { stage: test, script: [x] }
notify: { stage: cleanup, script: [x], when: on_failure }
tidy: { stage: cleanup, script: [x], when: always }
`)
    await drainQueue()
    expect(jobStates(server, id)).toEqual(['build:canceled', 'test:skipped', 'notify:skipped', 'tidy:skipped'])
    expect(status(id)).toBe('canceled')
  })

  it('moves on after success, leaving on_failure jobs skipped', async () => {
    const id = await pipelineOf(`stages: [build, test, cleanup]
build: { stage: build, script: [x] }
test: { stage: test, script: [x] }
notify: { stage: cleanup, script: [x], when: on_failure }
tidy: { stage: cleanup, script: [x], when: always }
`)
    await drainOthers(id)
    await runNext('build')
    expect(jobStates(server, id)).toEqual(['build:success', 'test:pending', 'notify:created', 'tidy:created'])
    expect(status(id)).toBe('running')
    await runNext('test', failed())
    expect(jobStates(server, id)).toEqual(['build:success', 'test:failed', 'notify:pending', 'tidy:pending'])
    await runNext('notify')
    await runNext('tidy')
    expect(status(id)).toBe('failed')
  })

  it('treats an allowed failure as success with warnings', async () => {
    const id = await pipelineOf(`stages: [build, test]
lint: { stage: build, script: [x], allow_failure: true }
test: { stage: test, script: [x] }
`)
    await drainOthers(id)
    await runNext('lint', failed())
    expect(jobStates(server, id)).toEqual(['lint:failed', 'test:pending'])
    await runNext('test')
    const p = findPipelineById(server.app.db, id)!
    expect(p.status).toBe('success')
    const root = api(server, server.rootToken)
    const body = expectStatus(await root.get(`/projects/${p.project_id}/pipelines/${id}`), 200).body
    expect(body.detailed_status).toMatchObject({ icon: 'status_warning', text: 'warning', label: 'passed with warnings', group: 'success_with_warnings' })
  })

  it('allows only the listed exit codes with allow_failure:exit_codes', async () => {
    const id = await pipelineOf(`a: { script: [x], allow_failure: { exit_codes: [3] } }
b: { script: [x], allow_failure: { exit_codes: [3] } }
`)
    await drainOthers(id)
    await runNext('a', failed(3))
    await runNext('b', failed(4))
    expect(allJobs(server, id).map((j) => [j.name, j.status, j.allow_failure, j.exit_code])).toEqual([['a', 'failed', 1, 3], ['b', 'failed', 0, 4]])
    expect(status(id)).toBe('failed')
  })
})

/** Other projects' push pipelines may hold queue places older than this pipeline's jobs. */
async function drainOthers(keep: number) {
  await server.app.tasks.idle()
  for (;;) {
    const head = oldestPendingJob(server.app.db)
    if (!head || head.pipeline_id === keep) return
    const p = await coordinator.requestJob({ id: 'drain', concurrency: 1 })
    await coordinator.updateJob(p!.id, p!.token, { state: 'canceled' })
  }
}

describe('needs', () => {
  it('starts a job once its needs are done, whatever the stages before it', async () => {
    const id = await pipelineOf(`stages: [build, test, deploy]
a: { stage: build, script: [x] }
slow: { stage: build, script: [x] }
b: { stage: test, script: [x] }
c: { stage: deploy, script: [x], needs: [a] }
early: { stage: deploy, script: [x], needs: [] }
`)
    await drainOthers(id)
    expect(jobStates(server, id)).toEqual(['a:pending', 'slow:pending', 'b:created', 'c:created', 'early:pending'])
    await runNext('a')
    expect(jobStates(server, id)).toEqual(['a:success', 'slow:pending', 'b:created', 'c:pending', 'early:pending'])
  })

  it('skips a job whose need was skipped', async () => {
    const id = await pipelineOf(`stages: [build, test, deploy]
a: { stage: build, script: [x] }
b: { stage: test, script: [x] }
c: { stage: deploy, script: [x], needs: [b] }
`)
    await drainOthers(id)
    await runNext('a', failed())
    expect(jobStates(server, id)).toEqual(['a:failed', 'b:skipped', 'c:skipped'])
  })
})

describe('manual and delayed jobs', () => {
  it('does not wait for an optional manual job', async () => {
    const id = await pipelineOf(`stages: [build, test]
deploy: { stage: build, script: [x], when: manual }
test: { stage: test, script: [x] }
`)
    await drainOthers(id)
    expect(jobStates(server, id)).toEqual(['deploy:manual', 'test:pending'])
    await runNext('test')
    expect(status(id)).toBe('success')
  })

  it('blocks later stages behind a manual job that may not fail, until it is played', async () => {
    const id = await pipelineOf(`stages: [build, test]
gate: { stage: build, script: [x], when: manual, allow_failure: false }
test: { stage: test, script: [x] }
`)
    await drainOthers(id)
    expect(jobStates(server, id)).toEqual(['gate:manual', 'test:created'])
    expect(status(id)).toBe('manual')
    const played = playJob(server.app, jobNamed(server, id, 'gate').id, null)
    expect(played.status).toBe('pending')
    await runNext('gate')
    expect(jobStates(server, id)).toEqual(['gate:success', 'test:pending'])
  })

  it('retries a finished manual job when it is played again, into the queue', async () => {
    const id = await pipelineOf('deploy: { script: [x], when: manual }\n')
    await drainOthers(id)
    const first = jobNamed(server, id, 'deploy')
    playJob(server.app, first.id, null)
    await runNext('deploy')
    const again = playJob(server.app, first.id, null)
    expect(again.id).not.toBe(first.id)
    expect(again.status).toBe('pending')
    expect(findJobById(server.app.db, first.id)!.retried).toBe(1)
    expect(() => playJob(server.app, first.id, null)).toThrow('400 Bad request - Unplayable Job')
  })

  it('schedules a delayed job and queues it when its time comes', async () => {
    const id = await pipelineOf('later: { script: [x], when: delayed, start_in: 30 seconds }\n')
    const job = jobNamed(server, id, 'later')
    expect(job.status).toBe('scheduled')
    expect(Date.parse(job.scheduled_at!) - clock.now().getTime()).toBe(30_000)
    expect(status(id)).toBe('scheduled')
    clock.advance(29_000)
    enqueueDueJobs(server.app)
    expect(jobNamed(server, id, 'later').status).toBe('scheduled')
    clock.advance(1_000)
    enqueueDueJobs(server.app)
    expect(jobNamed(server, id, 'later').status).toBe('pending')
    expect(status(id)).toBe('pending')
  })
})

describe('pipeline timings', () => {
  it('sets started_at, queued_duration, finished_at and duration from its jobs', async () => {
    clock.set('2024-02-01T00:00:00.000Z')
    const id = await pipelineOf('one: { script: [x] }\n')
    await drainOthers(id)
    clock.set('2024-02-01T00:00:05.000Z')
    const payload = (await coordinator.requestJob({ id: 'test-runner', concurrency: 1 }))!
    const running = findPipelineById(server.app.db, id)!
    expect([running.status, running.started_at, running.queued_duration, running.finished_at]).toEqual(['running', '2024-02-01T00:00:05.000Z', 5, null])
    clock.set('2024-02-01T00:01:05.000Z')
    await coordinator.updateJob(payload.id, payload.token, { state: 'success' })
    const done = findPipelineById(server.app.db, id)!
    expect([done.status, done.finished_at, done.duration, done.updated_at]).toEqual(['success', '2024-02-01T00:01:05.000Z', 60, '2024-02-01T00:01:05.000Z'])
  })
})

describe('job ends', () => {
  it('retries a failed job automatically up to retry:max', async () => {
    const id = await pipelineOf('flaky: { script: [x], retry: 1 }\n')
    await drainOthers(id)
    await runNext('flaky', failed())
    expect(allJobs(server, id).map((j) => [j.status, j.retried, j.retry_count])).toEqual([['failed', 1, 0], ['pending', 0, 1]])
    expect(status(id)).toBe('pending')
    await runNext('flaky', failed())
    expect(allJobs(server, id).map((j) => [j.status, j.retried])).toEqual([['failed', 1], ['failed', 0]])
    expect(status(id)).toBe('failed')
  })

  it('reads coverage from the trace and averages it as the pipeline\'s %.2f string', async () => {
    const id = await pipelineOf(`a: { script: [x], coverage: '/Coverage: (\\d+\\.\\d+)%/' }
b: { script: [x], coverage: '/Coverage: (\\d+\\.\\d+)%/' }
`)
    await drainOthers(id)
    await runNext('a', { state: 'success' }, 'start\nCoverage: 80.00%\nCoverage: 81.25%\ndone\n')
    await runNext('b', { state: 'success' }, 'Coverage: 82.5%\n')
    expect(allJobs(server, id).map((j) => j.coverage)).toEqual([81.25, 82.5])
    expect(findPipelineById(server.app.db, id)!.coverage).toBe('81.88')
  })

  it('issues a token hashed in the row and clears it when the job ends; a stale token is refused', async () => {
    const id = await pipelineOf('one: { script: [x] }\n')
    await drainOthers(id)
    const payload = await coordinator.requestJob({ id: 'test-runner', concurrency: 1 })
    expect(payload!.token).toMatch(/^glcbt-/)
    expect(findJobById(server.app.db, payload!.id)!.token_hash).toBe(sha256(payload!.token))
    await coordinator.updateJob(payload!.id, payload!.token, { state: 'success' })
    expect(findJobById(server.app.db, payload!.id)!.token_hash).toBeNull()
    await expect(coordinator.updateJob(payload!.id, payload!.token, { state: 'success' })).rejects.toThrow('403 Forbidden')
  })

  it('tells the executor when its running job is canceled, and keeps the job canceled when it reports', async () => {
    const id = await pipelineOf('long: { script: [x] }\n')
    await drainOthers(id)
    const payload = (await coordinator.requestJob({ id: 'test-runner', concurrency: 1 }))!
    let told = 0
    coordinator.onCancel(payload.id, () => told++)
    cancelJob(server.app, payload.id)
    expect(told).toBe(1)
    const trace = await coordinator.appendTrace(payload.id, payload.token, 0, Buffer.from('late\n'))
    expect(trace.status).toBe('canceled')
    expect(await coordinator.updateJob(payload.id, payload.token, { state: 'failed', failure_reason: 'script_failure', exit_code: 137 })).toEqual({ status: 'canceled' })
    expect(status(id)).toBe('canceled')
  })
})
