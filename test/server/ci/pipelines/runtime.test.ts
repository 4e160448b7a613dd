// CI while the server runs: uploaded artifacts expire after expire_in (or 30 days) and the sweep deletes them;
// closing the server kills a running job and records it before close() resolves.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createArtifactsZip } from '../../../../src/runner/executor/artifacts.js'
import { artifactsPath } from '../../../../src/server/ci/artifacts.js'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import { onJobFinished } from '../../../../src/server/ci/lifecycle.js'
import { sweepExpiredArtifacts } from '../../../../src/server/ci/lifecycle-runtime.js'
import { readTrace } from '../../../../src/server/ci/traces.js'
import type { RunnerJobArtifactsSpec as JobArtifactSpec } from '../../../../src/contract/entities/runner-job.js'
import { findJobById } from '../../../../src/server/store/ci-jobs.js'
import { api, expectStatus, movableClock } from '../../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer } from '../../../helpers/ci.js'
import type { TestServer } from '../../../helpers/server.js'

const clock = movableClock('2024-01-02T00:00:00.000Z')
let server: TestServer
let scratch: string

beforeAll(async () => {
  server = await startCiServer({ clock })
  scratch = mkdtempSync(join(tmpdir(), 'collab-artifacts-'))
})
afterAll(async () => {
  await server.close()
  rmSync(scratch, { recursive: true, force: true })
})

const SPEC: JobArtifactSpec = { name: 'a', untracked: false, paths: ['out.txt'], exclude: [], when: 'on_success', artifact_type: 'archive', artifact_format: 'zip', expire_in: null }

/** A zip of one file, as the executor would upload it. */
async function zipOf(name: string): Promise<string> {
  const dir = join(scratch, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'out.txt'), 'artifact')
  const file = join(scratch, `${name}.zip`)
  await createArtifactsZip(dir, SPEC, file)
  return file
}

describe('artifacts expiry', () => {
  it('sets expiry from expire_in (30 days without) and sweeps expired archives from disk', async () => {
    const { project, root } = await ciProject(server, 'expiry', 'a:\n  script: [x]\nb:\n  script: [x]\nc:\n  script: [x]\n')
    await projectPipelines(server, root, project.id)
    const coordinator = createCoordinator(server.app)
    const expiry: Record<string, string | null> = { a: '1 hour', b: null, c: 'never' }
    const ids: Record<string, number> = {}
    for (let i = 0; i < 3; i++) {
      const job = (await coordinator.requestJob({ id: 't', concurrency: 1 }))!
      const name = job.job_info.name
      ids[name] = job.id
      await coordinator.uploadArtifacts(job.id, job.token, { path: await zipOf(name), expire_in: expiry[name], artifact_type: 'archive', artifact_format: 'zip' })
      await coordinator.updateJob(job.id, job.token, { state: 'success' })
    }
    const expireAt = (name: string) => findJobById(server.app.db, ids[name])!.artifacts_expire_at
    expect([expireAt('a'), expireAt('b'), expireAt('c')]).toEqual(['2024-01-02T01:00:00.000Z', '2024-02-01T00:00:00.000Z', null])
    expect(await sweepExpiredArtifacts(server.app)).toBe(0)
    clock.set('2024-01-02T01:00:00.000Z')
    expect(await sweepExpiredArtifacts(server.app)).toBe(1)
    expect(findJobById(server.app.db, ids.a)!.artifacts_file).toBeNull()
    expect(existsSync(artifactsPath(server.app.layout, ids.a))).toBe(false)
    expect(existsSync(artifactsPath(server.app.layout, ids.b))).toBe(true)
    clock.set('2030-01-01T00:00:00.000Z')
    expect(await sweepExpiredArtifacts(server.app)).toBe(1)
    expect(findJobById(server.app.db, ids.c)!.artifacts_file).not.toBeNull()
  })

  it('uses the instance default_artifacts_expire_in and refuses archives over max_artifacts_size', async () => {
    clock.set('2024-03-01T00:00:00.000Z')
    const root = api(server, server.rootToken)
    expectStatus(await root.put('/application/settings', { default_artifacts_expire_in: '2 days', max_artifacts_size: 1 }), 200)
    const { project, root: owner } = await ciProject(server, 'defaults', 'small:\n  script: [x]\nbig:\n  script: [x]\n')
    await projectPipelines(server, owner, project.id)
    const coordinator = createCoordinator(server.app)
    for (let i = 0; i < 2; i++) {
      const job = (await coordinator.requestJob({ id: 't', concurrency: 1 }))!
      if (job.job_info.name === 'small') {
        await coordinator.uploadArtifacts(job.id, job.token, { path: await zipOf('small'), expire_in: null, artifact_type: 'archive', artifact_format: 'zip' })
        expect(findJobById(server.app.db, job.id)!.artifacts_expire_at).toBe('2024-03-03T00:00:00.000Z')
      } else {
        const big = join(scratch, 'big.zip')
        writeFileSync(big, Buffer.alloc(1024 * 1024 + 1))
        await expect(coordinator.uploadArtifacts(job.id, job.token, { path: big, expire_in: null, artifact_type: 'archive', artifact_format: 'zip' })).rejects.toThrow('413')
        expect(findJobById(server.app.db, job.id)!.artifacts_file).toBeNull()
      }
      await coordinator.updateJob(job.id, job.token, { state: 'success' })
    }
  })
})

describe('closing the server', () => {
  it('kills running jobs and records them as runner system failures before close() resolves', async () => {
    const other = await startCiServer({ runner: true })
    const finished: string[] = []
    onJobFinished(other.app, (_app, job) => { finished.push(`${job.name}:${job.status}:${job.failure_reason}`) })
    const { project, root } = await ciProject(other, 'shutdown', 'long:\n  script: [sleep 60]\n')
    const [p] = await projectPipelines(other, root, project.id)
    // Running as the runner sees it: its script has started (the job is 'running' as soon as it is handed out).
    const long = jobNamed(other, p.id, 'long')
    const started = async () => (await readTrace(other.app.layout, long.id)).includes('$ sleep 60')
    for (let i = 0; i < 800 && !(await started()); i++) await new Promise((r) => setTimeout(r, 25))
    expect(jobNamed(other, p.id, 'long').status).toBe('running')
    await other.close()
    expect(finished).toEqual(['long:failed:runner_system_failure'])
  }, 60_000)
})
