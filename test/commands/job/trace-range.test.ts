// The server's side of `job trace --follow`: the job log answers `Range: bytes=N-` with 206 and only the new bytes
// (416 when nothing was appended), and every other request with the whole log as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseByteRange, withByteRange } from '../../../src/server/http/byte-range.js'
import { rawRequest } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from '../../server/ci/jobs/fixture.js'

let server: TestServer
let w: CiWorld
let path: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  const { jobs } = seedPipeline(w, [jobSpec('build', 0)])
  await finish(w, await takeJob(w), { log: 'line one\nline two\n' })
  path = `/api/v4/projects/${w.project.id}/jobs/${jobs[0].id}/trace`
})
afterAll(() => server.close())

const get = (headers: Record<string, string> = {}) => rawRequest(server, { path, headers: { 'PRIVATE-TOKEN': w.reporter.token, ...headers } })
const facts = (r: Awaited<ReturnType<typeof get>>) =>
  [r.status, r.text, r.headers.get('content-range'), r.headers.get('content-length'), r.headers.get('accept-ranges')]

describe('GET /projects/:id/jobs/:job_id/trace with Range', () => {
  it('answers the whole log with Accept-Ranges when no range is asked for', async () => {
    expect(facts(await get())).toEqual([200, 'line one\nline two\n', null, '18', 'bytes'])
  })

  it('answers 206 with the bytes from an offset on', async () => {
    expect(facts(await get({ Range: 'bytes=9-' }))).toEqual([206, 'line two\n', 'bytes 9-17/18', '9', 'bytes'])
    expect(facts(await get({ Range: 'bytes=0-3' }))).toEqual([206, 'line', 'bytes 0-3/18', '4', 'bytes'])
    expect(facts(await get({ Range: 'bytes=-4' }))).toEqual([206, 'two\n', 'bytes 14-17/18', '4', 'bytes'])
  })

  it('answers 416 when nothing was appended after the offset', async () => {
    expect(facts(await get({ Range: 'bytes=18-' }))).toEqual([416, '', 'bytes */18', '0', 'bytes'])
  })

  it('ignores ranges it does not serve: several at once, other units, nonsense', async () => {
    for (const range of ['bytes=0-1,4-5', 'lines=1-', 'bytes=x-', 'bytes=5-2']) {
      expect(facts(await get({ Range: range }))).toEqual([200, 'line one\nline two\n', null, '18', 'bytes'])
    }
  })

  it("checks access first: another project's job is still a 404", async () => {
    const r = await rawRequest(server, { path: `/api/v4/projects/${w.project.id}/jobs/999/trace`, headers: { 'PRIVATE-TOKEN': w.reporter.token, Range: 'bytes=0-' } })
    expect([r.status, r.body]).toEqual([404, { message: '404 Not found' }])
  })
})

describe('byte ranges', () => {
  it.each([
    ['bytes=0-', 10, { start: 0, end: 9 }], ['bytes=3-5', 10, { start: 3, end: 5 }], ['bytes=3-50', 10, { start: 3, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }], ['bytes=-30', 10, { start: 0, end: 9 }], ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'], ['bytes=-0', 10, 'unsatisfiable'], ['bytes=-', 10, null], ['bytes=4-2', 10, null], ['items=1-', 10, null],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected)
  })

  it('leaves answers alone that do not offer ranges, and HEAD, and errors', () => {
    const answer = { status: 200, headers: { 'Content-Length': '3' }, raw: 'abc' }
    expect(withByteRange('GET', 'bytes=1-', answer)).toBe(answer)
    const offered = { ...answer, headers: { 'Accept-Ranges': 'bytes' } }
    expect(withByteRange('HEAD', 'bytes=1-', offered)).toBe(offered)
    expect(withByteRange('GET', 'bytes=1-', { ...offered, status: 404 }).status).toBe(404)
  })
})
