// Artifact downloads: the archive streamed from disk, one entry by path (type, 400 and both 404 forms), by ref, expiry.
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { artifactsPath } from '../../../../src/server/ci/artifacts.js'
import { api, expectStatus, rawRequest } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld
let pid: number
let built: number
let bare: number

const job = (id: number, rest = '') => `/projects/${pid}/jobs/${id}${rest}`
const bytes = async (path: string, headers: Record<string, string>) => {
  const res = await fetch(`${server.url}/api/v4${path}`, { headers })
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) }
}

const FILES = {
  'dist/app.js': 'console.log(1)\n',
  'dist/report.json': '{"ok":true}\n',
  'dist/sub dir/notes.txt': 'plain\n',
  'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'no-extension': 'x',
}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  pid = w.project.id
  const { jobs: [a, b] } = seedPipeline(w, [jobSpec('build', 0), jobSpec('lint', 0)])
  ;[built, bare] = [a.id, b.id]
  await finish(w, await takeJob(w), { files: FILES })
  await finish(w, await takeJob(w))
})
afterAll(() => server.close())

describe('GET …/jobs/:job_id/artifacts', () => {
  it('streams the zip as stored, with its length and an attachment disposition', async () => {
    const res = await bytes(job(built, '/artifacts'), { 'PRIVATE-TOKEN': w.reporter.token })
    expect(res.status).toBe(200)
    const stored = readFileSync(artifactsPath(server.app.layout, built))
    expect(res.body.equals(stored)).toBe(true)
    expect(Object.fromEntries(['content-type', 'content-length', 'content-transfer-encoding', 'content-disposition'].map((h) => [h, res.headers.get(h)])))
      .toEqual({
        'content-type': 'application/octet-stream', 'content-length': String(stored.length), 'content-transfer-encoding': 'binary',
        'content-disposition': `attachment; filename="artifacts.zip"; filename*=UTF-8''artifacts.zip`,
      })
  })

  it('answers HEAD with the headers and no body', async () => {
    const res = await rawRequest(server, { method: 'HEAD', path: `/api/v4${job(built, '/artifacts')}`, headers: { 'PRIVATE-TOKEN': w.reporter.token } })
    expect([res.status, res.text, res.headers.get('content-length')]).toEqual([200, '', String(readFileSync(artifactsPath(server.app.layout, built)).length)])
  })

  it('answers a JSON 404 for a job without artifacts, and 404 for no such job', async () => {
    const none = await w.reporter.api.get(job(bare, '/artifacts'))
    expect([none.status, none.body]).toEqual([404, { message: '404 Not Found' }])
    const missing = await w.reporter.api.get(job(999, '/artifacts'))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('hides private artifacts from strangers and anonymous callers (404 Project Not Found)', async () => {
    for (const as of [w.stranger.api, api(server)]) {
      const res = await as.get(job(built, '/artifacts'))
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    }
  })
})

describe('a public project', () => {
  it('serves artifacts to anonymous callers while its pipelines are public, and 403 once they are not', async () => {
    expectStatus(await w.owner.api.put(`/projects/${pid}`, { visibility: 'public' }), 200)
    try {
      const res = await api(server).get(job(built, '/artifacts/dist/app.js'))
      expect([res.status, res.text]).toEqual([200, FILES['dist/app.js']])
      expectStatus(await w.owner.api.put(`/projects/${pid}`, { public_jobs: false }), 200)
      const closed = await api(server).get(job(built, '/artifacts'))
      expect([closed.status, closed.body]).toEqual([403, { message: '403 Forbidden' }])
    } finally {
      expectStatus(await w.owner.api.put(`/projects/${pid}`, { visibility: 'private', public_jobs: true }), 200)
    }
  })
})

describe('GET …/jobs/:job_id/artifacts/*artifact_path', () => {
  it('streams one entry with the type of its extension and its uncompressed length', async () => {
    const cases: [string, string, Buffer | string][] = [
      ['dist/app.js', 'text/javascript; charset=utf-8', FILES['dist/app.js']],
      ['dist/report.json', 'application/json', FILES['dist/report.json']],
      ['logo.png', 'image/png', FILES['logo.png']],
      ['no-extension', 'application/octet-stream', FILES['no-extension']],
    ]
    for (const [path, type, content] of cases) {
      const res = await bytes(job(built, `/artifacts/${path}`), { 'PRIVATE-TOKEN': w.reporter.token })
      const name = path.split('/').pop()
      expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition'), res.headers.get('content-length')])
        .toEqual([200, type, `attachment; filename="${name}"`, String(Buffer.from(content).length)])
      expect(res.body.equals(Buffer.from(content))).toBe(true)
    }
  })

  it('takes escaped characters and encoded slashes in the path', async () => {
    const res = await w.reporter.api.get(job(built, '/artifacts/dist%2Fsub%20dir/notes.txt'))
    expect([res.status, res.text]).toEqual([200, 'plain\n'])
  })

  it("answers Workhorse's plain-text 404 for an entry the zip does not have", async () => {
    for (const path of ['dist/missing.txt', 'dist/', 'dist']) {
      const res = await w.reporter.api.get(job(built, `/artifacts/${path}`))
      expect([res.status, res.headers.get('content-type'), res.text]).toEqual([404, 'text/plain; charset=utf-8', 'Not Found\n'])
    }
  })

  it('answers 400 for a path with a NUL byte or invalid UTF-8', async () => {
    for (const path of ['dist/a%00b', 'dist/%FF%FE']) {
      const res = await w.reporter.api.get(job(built, `/artifacts/${path}`))
      expect([res.status, res.body]).toEqual([400, { message: '400 Bad request' }])
    }
  })

  it('answers the JSON 404 when the job has no artifacts at all', async () => {
    const res = await w.reporter.api.get(job(bare, '/artifacts/dist/app.js'))
    expect([res.status, res.body]).toEqual([404, { message: '404 Not Found' }])
  })
})

describe('artifacts by ref and job name', () => {
  it('downloads from the latest successful pipeline of a branch whose name has slashes', async () => {
    expectStatus(await w.owner.api.post(`/projects/${pid}/repository/branches`, { branch: 'release/v1', ref: 'main' }), 201)
    const first = seedPipeline(w, [jobSpec('pack', 0)], { ref: 'release/v1' }).jobs[0]
    await finish(w, await takeJob(w), { files: { 'v.txt': 'one' } })
    const second = seedPipeline(w, [jobSpec('pack', 0)], { ref: 'release/v1' }).jobs[0]
    await finish(w, await takeJob(w), { files: { 'v.txt': 'two' } })
    // A newer pipeline that failed does not count.
    seedPipeline(w, [jobSpec('pack', 0)], { ref: 'release/v1' })
    await finish(w, await takeJob(w), { files: { 'v.txt': 'three' }, state: 'failed' })
    expect(first.id).toBeLessThan(second.id)

    const zip = await bytes(`/projects/${pid}/jobs/artifacts/release/v1/download?job=pack`, { 'PRIVATE-TOKEN': w.reporter.token })
    expect(zip.status).toBe(200)
    expect(zip.body.equals(readFileSync(artifactsPath(server.app.layout, second.id)))).toBe(true)
    const one = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/release/v1/raw/v.txt`, { query: { job: 'pack' } })
    expect([one.status, one.text, one.headers.get('content-disposition')]).toEqual([200, 'two', 'attachment; filename="v.txt"'])
    const encoded = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/release%2Fv1/raw/v.txt`, { query: { job: 'pack' } })
    expect([encoded.status, encoded.text]).toEqual([200, 'two'])
  })

  it("answers 404 'Not found' for an unknown job name or ref, and 400 without `job`", async () => {
    for (const path of ['/jobs/artifacts/main/download?job=nope', '/jobs/artifacts/nope/download?job=build', '/jobs/artifacts/main/raw/x?job=nope']) {
      const res = await w.reporter.api.get(`/projects/${pid}${path}`)
      expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
    }
    const res = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/main/download`)
    expect([res.status, res.body]).toEqual([400, { message: '400 (Bad request) "job" not given' }])
  })

  it('answers the plain 404 and the 400 on raw paths too', async () => {
    const missing = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/main/raw/dist/none.js`, { query: { job: 'build' } })
    expect([missing.status, missing.text]).toEqual([404, 'Not Found\n'])
    const bad = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/main/raw/a%00`, { query: { job: 'build' } })
    expect([bad.status, bad.body]).toEqual([400, { message: '400 Bad request' }])
  })
})

describe('expiry', () => {
  it('hides expired artifacts: 404 downloads, no artifacts_file', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('shortlived', 0)])
    await finish(w, await takeJob(w), { files: { 'e.txt': 'E' }, expireIn: '1 hour' })
    expectStatus(await w.reporter.api.get(job(j.id, '/artifacts')), 200)
    server.app.db.prepare("UPDATE ci_jobs SET artifacts_expire_at = '2024-01-02T03:00:00.000Z' WHERE id = ?").run(j.id)
    const res = await w.reporter.api.get(job(j.id, '/artifacts'))
    expect([res.status, res.body]).toEqual([404, { message: '404 Not Found' }])
    expect((await w.reporter.api.get(job(j.id, '/artifacts/e.txt'))).status).toBe(404)
    expect(expectStatus(await w.reporter.api.get(job(j.id)), 200).body).not.toHaveProperty('artifacts_file')
    const byRef = await w.reporter.api.get(`/projects/${pid}/jobs/artifacts/main/download`, { query: { job: 'shortlived' } })
    expect([byRef.status, byRef.body]).toEqual([404, { message: '404 Not found' }])
  })
})

describe('large archives', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

  it('streams a 24 MB archive whole, and keeps serving after a client hangs up halfway', async () => {
    const { jobs: [j] } = seedPipeline(w, [jobSpec('big', 0)])
    await finish(w, await takeJob(w), { files: { 'blob.bin': randomBytes(24 * 1024 * 1024) } })
    const stored = readFileSync(artifactsPath(server.app.layout, j.id))
    const path = `/api/v4${job(j.id, '/artifacts')}`
    const { hostname, port } = new URL(server.url)
    // Read one chunk, then drop the connection: the server stops reading the file and stays up.
    await new Promise<void>((resolve, reject) => {
      const req = http.get({ host: hostname, port, path, headers: { 'PRIVATE-TOKEN': w.reporter.token } }, (res) => {
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.on('error', (err) => (err.message.includes('socket hang up') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(err)))
    })
    const res = await bytes(job(j.id, '/artifacts'), { 'PRIVATE-TOKEN': w.reporter.token })
    expect([res.status, res.headers.get('content-length'), res.body.length]).toEqual([200, String(stored.length), stored.length])
    expect(sha(res.body)).toBe(sha(stored))
  })
})
