// How the CLI reads a log from an offset from servers that are not ours: GitLab's trace endpoint ignores Range and
// answers the whole log (sliced here), a proxy may answer 206 from an earlier byte; redirects keep the token at home.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { bytesFrom, getBytes } from '../../../commands/job/bytes.js'
import { ApiClient } from '../../../src/client/http.js'
import { route } from '../../../src/client/paths.js'

const servers: http.Server[] = []
afterEach(() => servers.splice(0).forEach((s) => s.close()))

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const trace = route('getJobTrace', { id: 'g/p', job_id: 7 })
const LOG = Buffer.from('line one\nline two ✓\n')

describe('reading a log from an offset', () => {
  it('slices the whole log a server sends when it ignores Range, as GitLab does', async () => {
    const ranges: (string | undefined)[] = []
    const host = await serve((req, res) => {
      ranges.push(req.headers.range)
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end(LOG)
    })
    const api = new ApiClient({ host, token: 't' })
    expect(await bytesFrom(api, trace, 0)).toEqual(LOG)
    expect(await bytesFrom(api, trace, 9)).toEqual(LOG.subarray(9))
    expect(await bytesFrom(api, trace, LOG.length)).toEqual(Buffer.alloc(0))
    expect(ranges).toEqual([undefined, 'bytes=9-', `bytes=${LOG.length}-`])
  })

  it('takes a 206 from the asked offset as is, trims one from an earlier byte, and reads 416 as nothing new', async () => {
    const host = await serve((req, res) => {
      const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0)
      if (start >= LOG.length) return void res.writeHead(416, { 'Content-Range': `bytes */${LOG.length}` }).end()
      // Like a cache that serves from the start of a block: two bytes earlier than asked.
      const from = start === 12 ? 10 : start
      res.writeHead(206, { 'Content-Range': `bytes ${from}-${LOG.length - 1}/${LOG.length}` }).end(LOG.subarray(from))
    })
    const api = new ApiClient({ host, token: 't' })
    expect(await bytesFrom(api, trace, 9)).toEqual(LOG.subarray(9))
    expect(await bytesFrom(api, trace, 12)).toEqual(LOG.subarray(12))
    expect(await bytesFrom(api, trace, LOG.length)).toEqual(Buffer.alloc(0))
  })

  it('follows a redirect to another origin without the token, and throws the API error of a 4xx', async () => {
    const seen: Record<string, string | undefined> = {}
    const storage = await serve((req, res) => {
      seen.storage = req.headers['private-token'] as string | undefined
      res.end('zip bytes')
    })
    const host = await serve((req, res) => {
      seen.api = req.headers['private-token'] as string | undefined
      if (req.url?.includes('/jobs/7/')) return void res.writeHead(302, { Location: `${storage}/object` }).end()
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"404 Not found"}')
    })
    const api = new ApiClient({ host, token: 'secret' })
    const answer = await getBytes(api, route('downloadJobArtifacts', { id: 'g/p', job_id: 7 }))
    expect([answer.status, answer.body.toString(), seen]).toEqual([200, 'zip bytes', { api: 'secret', storage: undefined }])
    await expect(getBytes(api, route('downloadJobArtifacts', { id: 'g/p', job_id: 8 }))).rejects.toMatchObject({ status: 404, message: '404 Not found' })
  })
})
