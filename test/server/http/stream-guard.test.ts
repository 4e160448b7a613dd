// A bug in a listener of a request's stream costs that request a 500, logged with its stack, never the process.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { streamLogger } from '../../../src/core/logger.js'
import { guard } from '../../../src/server/http/body.js'
import { sendError, sendJson } from '../../../src/server/http/respond.js'

const logged: string[] = []
const log = streamLogger((line) => logged.push(line))
let server: http.Server
let url: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const on = guard((err) => sendError(res, err, log))
    req.on('data', on((chunk: Buffer) => {
      if (chunk.includes('boom')) throw new Error('a bug in a data listener')
    }))
    req.on('end', on(() => sendJson(res, 200, { ok: true })))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it('answers 500 with GitLab\'s body and logs the stack when a guarded listener throws', async () => {
  const res = await fetch(url, { method: 'POST', body: 'boom' })
  expect([res.status, await res.json()]).toEqual([500, { message: '500 Internal Server Error' }])
  expect(logged.join('\n')).toMatch(/unhandled error while serving a request\nError: a bug in a data listener\n\s+at /)
})

it('goes on serving after the throw', async () => {
  const res = await fetch(url, { method: 'POST', body: 'fine' })
  expect([res.status, await res.json()]).toEqual([200, { ok: true }])
})
