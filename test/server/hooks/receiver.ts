// A real HTTP receiver for webhook tests: records every request and answers as the test scripts it.
import http from 'node:http'
import { afterAll, beforeAll } from 'vitest'
import type { AddressInfo } from 'node:net'
import { api, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

export interface Received { method: string; path: string; headers: http.IncomingHttpHeaders; body: any; at: number }

/** What to answer: a status and body, or `hang` to never answer. */
export type Answer = { status: number; body?: string } | 'hang'

export interface Receiver {
  url: string
  received: Received[]
  /** Answers for the next requests, in order; once used up, 200 `ok`. */
  script(...answers: Answer[]): void
  /** Resolves when `n` requests in all have arrived (fails after `ms`, a bound for a delivery that never comes). */
  waitFor(n: number, ms?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = []
  let answers: Answer[] = []
  const waiters: (() => void)[] = []
  const hung = new Set<http.ServerResponse>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try { body = JSON.parse(text) } catch { /* kept as text */ }
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body, at: performance.now() })
      for (const w of waiters.splice(0)) w()
      const answer = answers.shift() ?? { status: 200, body: 'ok' }
      if (answer === 'hang') { hung.add(res); return }
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body ?? '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (...a) => { answers = a },
    async waitFor(n, ms = 20_000) {
      const deadline = performance.now() + ms
      while (received.length < n) {
        if (performance.now() > deadline) throw new Error(`expected ${n} webhook requests, got ${received.length}`)
        await new Promise<void>((resolve) => { waiters.push(resolve); setTimeout(resolve, 50) })
      }
      return received.slice(0, n)
    },
    async close() {
      for (const res of hung) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A test server that may call loopback hooks, a receiver, and alice, a user: what a delivery test starts from. */
export async function hookWorld(): Promise<{ server: TestServer; rx: Receiver; alice: TestUser; close(): Promise<void> }> {
  const server = await startTestServer()
  expectStatus(await api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  const alice = await createUser(server, 'alice')
  const rx = await startReceiver()
  return { server, rx, alice, close: async () => { await rx.close(); await server.close() } }
}

export type HookWorld = Awaited<ReturnType<typeof hookWorld>>

/** hookWorld() for a whole test file: made before its first test, closed after its last. */
export function useHookWorld(): HookWorld {
  const w = {} as HookWorld
  beforeAll(async () => {
    Object.assign(w, await hookWorld())
  })
  afterAll(() => w.close())
  return w
}
