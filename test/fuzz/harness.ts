// Runs the contract fuzz: every endpoint of the contract in turn against one seeded server, rebuilt when a request breaks its world.
import fc from 'fast-check'
import { contract } from '../../src/contract/index.js'
import type { Endpoint } from '../../src/contract/define.js'
import { describe, problemsOf, sender, type Answer } from './check.js'
import { requestArb, type FuzzRequest } from './requests.js'
import { buildWorld, worldIsWhole, type Target, type World } from './world.js'

export interface Stats { requests: number; byClass: Record<string, number>; byStatus: Record<number, number>; rebuilds: number }

/** A 5xx or malformed answer the fuzz found: the request, the answer, what is wrong. */
export interface Finding { endpoint: string; request: string; problems: string[] }

/** Every declared endpoint, reads first and deletions last (deepest paths first, tokens at the very end): what a request destroys, later ones miss. */
export function endpointsInOrder(filter?: string): Endpoint[] {
  const rank = (e: Endpoint) => (e.method === 'GET' ? 0 : e.method === 'POST' ? 1 : e.method === 'DELETE' ? 3 : 2)
  const all = Object.values(contract).flatMap((group) => Object.values(group as Record<string, Endpoint>))
  const depth = (e: Endpoint) => (e.method === 'DELETE' ? (e.path.includes('token') ? -100 : e.path.split('/').length) : 0)
  return all.filter((e) => !filter || `${e.method} ${e.path}`.includes(filter)).sort((a, b) => rank(a) - rank(b) || depth(b) - depth(a))
}

const declaredMethods = new Map<string, Set<string>>()
for (const e of endpointsInOrder()) declaredMethods.set(e.path, (declaredMethods.get(e.path) ?? new Set()).add(e.method))

/** Each endpoint's own seed, so adding an endpoint does not change the requests generated for the others. */
export function endpointSeed(base: number, e: { method: string; path: string }): number {
  let h = base | 0
  for (const c of `${e.method} ${e.path}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  return h
}

export class FuzzHarness {
  readonly stats: Stats = { requests: 0, byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, 'no answer': 0 }, byStatus: {}, rebuilds: 0 }
  readonly findings: Finding[] = []
  /** Endpoints no request of theirs got a 2xx from: the world or the generators do not reach them. */
  readonly unreached = new Set<string>()
  /** The seeded objects and credentials: rebuilt (new tokens, new port) whenever ensureWhole rebuilds the server. */
  world!: World
  private client!: ReturnType<typeof sender>

  constructor(private readonly start: () => Promise<Target>) {}

  async init() {
    const target = await this.start()
    this.world = await buildWorld(target)
    this.client = sender(target.url)
  }

  /** Rebuilds the server and its world when a request deleted, revoked or reconfigured part of it. */
  async ensureWhole() {
    if (await worldIsWhole(this.world)) return
    await this.close()
    this.stats.rebuilds++
    await this.init()
  }

  async send(r: FuzzRequest, concurrent = false): Promise<{ answer?: Answer; problems: string[] }> {
    this.stats.requests++
    try {
      const answer = await this.client.send(r, concurrent)
      const cls = `${Math.floor(answer.status / 100)}xx`
      this.stats.byClass[cls] = (this.stats.byClass[cls] ?? 0) + 1
      this.stats.byStatus[answer.status] = (this.stats.byStatus[answer.status] ?? 0) + 1
      if (process.env.FUZZ_TRACE && String(answer.status).startsWith(process.env.FUZZ_TRACE)) console.log(describe(r, answer).slice(0, 400))
      return { answer, problems: problemsOf(r, answer) }
    } catch (err) {
      this.stats.byClass['no answer']++
      return { problems: [`no answer: ${(err as Error).message}`] }
    }
  }

  /** Judges answers: strict, the first bad one fails the property (fast-check then shrinks it); otherwise all are recorded. */
  private judge(name: string, strict: boolean, results: { r: FuzzRequest; answer?: Answer; problems: string[] }[]) {
    const bad = results.filter((x) => x.problems.length > 0).map((x) => ({ endpoint: name, request: describe(x.r, x.answer), problems: x.problems }))
    if (bad.length === 0) return
    if (!strict) this.findings.push(...bad)
    else throw new Error(bad.map((f) => `${f.problems.join('; ')}\n  ${f.request}`).join('\n'))
  }

  /**
   * Fuzzes one endpoint with `runs` requests. Strict, it throws fast-check's report of the first bad answer shrunk
   * to its smallest form; otherwise it records every bad answer and goes on (the benchmark counts them).
   */
  async fuzz(endpoint: Endpoint, opts: { seed: number; runs: number; strict: boolean; timeLimitMs?: number }) {
    const name = `${endpoint.method} ${endpoint.path}`
    const arb = requestArb(endpoint, this.world, declaredMethods.get(endpoint.path) ?? new Set([endpoint.method]))
    let reached = false
    const property = fc.asyncProperty(arb, async (r) => {
      const result = await this.send(r)
      reached ||= result.answer !== undefined && result.answer.status < 300 && r.method === endpoint.method
      this.judge(name, opts.strict, [{ r, ...result }])
    })
    try {
      await fc.assert(property, { seed: endpointSeed(opts.seed, endpoint), numRuns: opts.runs, interruptAfterTimeLimit: opts.timeLimitMs })
    } finally {
      if (!reached) this.unreached.add(name)
      if (endpoint.method !== 'GET') await this.ensureWhole()
    }
  }

  /** Batches of 2 to 8 requests to any endpoints, sent at once: writes racing writes, reads racing deletions. */
  async fuzzConcurrently(endpoints: Endpoint[], opts: { seed: number; runs: number; strict: boolean }) {
    const one = fc.oneof(...endpoints.map((e) => requestArb(e, this.world, declaredMethods.get(e.path) ?? new Set([e.method]))))
    const property = fc.asyncProperty(fc.array(one, { minLength: 2, maxLength: 8 }), async (batch) => {
      const results = await Promise.all(batch.map(async (r) => ({ r, ...(await this.send(r, true)) })))
      this.judge('concurrent batch', opts.strict, results)
    })
    try {
      await fc.assert(property, { seed: opts.seed, numRuns: opts.runs })
    } finally {
      await this.ensureWhole()
    }
  }

  /** A plain read answered as usual: the server outlived the run. */
  async stillServes(): Promise<Answer> {
    return this.client.send({ method: 'GET', path: `/api/v4/projects/${encodeURIComponent('fuzz-group/public')}`, headers: { 'PRIVATE-TOKEN': this.world.tokens.alice } })
  }

  async close() {
    this.client?.close()
    await this.world?.target.close()
  }
}
