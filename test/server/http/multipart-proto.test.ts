// A multipart part named `__proto__` is data: it stays a key of the parsed body and never becomes its prototype.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBody } from '../../../src/server/http/body.js'

let server: http.Server
let port: number

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const body = await readBody(req, 1024 * 1024)
    const file = Object.getOwnPropertyDescriptor(body, '__proto__')?.value as { filename?: string } | undefined
    res.end(JSON.stringify({ keys: Object.keys(body), plainPrototype: Object.getPrototypeOf(body) === Object.prototype, filename: file?.filename ?? null }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function post(body: string, boundary: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
      let text = ''
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('multipart parts named like prototype keys', () => {
  it('keeps a file part named __proto__ as an own key of the body', async () => {
    const b = 'proto-boundary'
    const body = [
      `--${b}`, 'Content-Disposition: form-data; name="title"', '', 'hello',
      `--${b}`, 'Content-Disposition: form-data; name="__proto__"; filename="x.txt"', 'Content-Type: text/plain', '', 'data',
      `--${b}--`, '',
    ].join('\r\n')
    expect(JSON.parse(await post(body, b))).toEqual({ keys: ['title', '__proto__'], plainPrototype: true, filename: 'x.txt' })
  })
})
