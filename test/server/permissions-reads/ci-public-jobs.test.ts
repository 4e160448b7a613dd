// One rule for every CI read (GitLab's public_builds): with the project's `public_jobs` on, whoever reads the project
// reads its pipelines, jobs, logs, artifacts and commit statuses (guests of a private one too); off, Reporters and up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from '../ci/jobs/fixture.js'

let server: TestServer
let w: CiWorld
let reads: string[]

/** The status of every CI read for a user, keyed by path, to compare whole. */
async function statuses(as: TestUser) {
  const out: Record<string, number> = {}
  for (const path of reads) out[path] = (await as.api.get(path)).status
  return out
}
const jobsPublic = (on: boolean) => ({ public_jobs: on })
const all = (status: number) => Object.fromEntries(reads.map((p) => [p, status]))

async function withProject(settings: Record<string, unknown>, undo: Record<string, unknown>, run: () => Promise<void>) {
  expectStatus(await w.owner.api.put(`/projects/${w.project.id}`, settings), 200)
  try {
    await run()
  } finally {
    expectStatus(await w.owner.api.put(`/projects/${w.project.id}`, undo), 200)
  }
}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server, 'pj-')
  const { pipeline, jobs: [build] } = seedPipeline(w, [jobSpec('build', 0)])
  await finish(w, await takeJob(w), { log: 'secret log\n', files: { 'out.txt': 'artifact\n' } })
  expectStatus(await w.developer.api.post(`/projects/${w.project.id}/statuses/${w.sha}`, { state: 'success', name: 'external', ref: 'main' }), 201)
  const p = `/projects/${w.project.id}`
  reads = [
    `${p}/pipelines`, `${p}/pipelines/${pipeline.id}`, `${p}/pipelines/${pipeline.id}/jobs`, `${p}/jobs`, `${p}/jobs/${build.id}`,
    `${p}/jobs/${build.id}/trace`, `${p}/jobs/${build.id}/artifacts`, `${p}/jobs/${build.id}/artifacts/out.txt`,
    `${p}/jobs/artifacts/main/download?job=build`, `${p}/jobs/artifacts/main/raw/out.txt?job=build`,
    `${p}/repository/commits/${w.sha}/statuses`,
  ]
})
afterAll(() => server.close())

describe('a private project', () => {
  it('lets a guest read every CI read while its pipelines are public (the default)', async () => {
    expect(await statuses(w.guest)).toEqual(all(200))
  })

  it('refuses a guest every CI read with public_jobs off, and still lets a reporter', async () => {
    await withProject(jobsPublic(false), jobsPublic(true), async () => {
      expect(await statuses(w.guest)).toEqual(all(403))
      expect(await statuses(w.reporter)).toEqual(all(200))
    })
  })
})

describe('a public project', () => {
  it('lets a non-member read every CI read while its pipelines are public, and none once they are not', async () => {
    await withProject({ visibility: 'public' }, { visibility: 'private' }, async () => {
      expect(await statuses(w.stranger)).toEqual(all(200))
      await withProject(jobsPublic(false), jobsPublic(true), async () => {
        expect(await statuses(w.stranger)).toEqual(all(403))
      })
    })
  })
})
