// Deleting a project erases its jobs' traces and artifacts, its uploads and its cached archives: files keyed by an id
// must not outlive its row, even now that ids are never handed out again (migration 032).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from './fixture.js'
import { until } from '../../../helpers/wait.js'

let server: TestServer
let w: CiWorld

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
})
afterAll(() => server.close())

it("erases a deleted project's job logs, artifacts, uploads and archives; the next job gets a new id and a clean log", async () => {
  const layout = server.app.layout
  seedPipeline(w, [jobSpec('secret-build')])
  const taken = await takeJob(w)
  await finish(w, taken, { log: 'the private project printed its secret\n', files: { 'out.txt': 'private output' } })
  const form = new FormData()
  form.append('file', new Blob(['private upload']), 'notes.txt')
  const res = await fetch(`${server.api}/projects/${w.project.id}/uploads`, { method: 'POST', body: form, headers: { 'PRIVATE-TOKEN': w.owner.token } })
  const upload = { status: res.status, ...((await res.json()) as { url: string }) }
  expectStatus(await w.owner.api.get(`/projects/${w.project.id}/repository/archive.tar.gz`), 200)
  // The archive is moved into the cache once its stream has ended, which may be just after the answer.
  const archives = join(layout.root, 'cache', 'archives', String(w.project.id))
  await until('the archive in the cache', () => existsSync(archives))
  const files = [join(layout.traces, `${taken.id}.log`), join(layout.artifacts, String(taken.id)), join(layout.uploads, String(w.project.id)), archives]
  expect([upload.status, upload.url, files.map(existsSync)]).toEqual([201, expect.stringContaining('/notes.txt'), [true, true, true, true]])

  expectStatus(await w.owner.api.del(`/projects/${w.project.id}`), 202)
  expect(files.map(existsSync)).toEqual([false, false, false, false])

  const next = await ciWorld(server, 'next-')
  seedPipeline(next, [jobSpec('public-build')])
  const again = await takeJob(next)
  expect(again.id).toBeGreaterThan(taken.id)
  await finish(next, again, { log: 'a fresh log\n' })
  expect(expectStatus(await next.owner.api.get(`/projects/${next.project.id}/jobs/${again.id}/trace`), 200).text).toBe('a fresh log\n')
})
