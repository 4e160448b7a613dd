// The contract fuzz: every declared endpoint gets random and malformed paths, queries, bodies and credentials; no answer
// may be a 5xx, every 4xx is GitLab's JSON error, and the server still serves afterwards. `npm run fuzz` runs it longer.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../helpers/server.js'
import { endpointsInOrder, FuzzHarness } from './harness.js'

// npm test: a fixed seed and 5 requests per endpoint, a smoke check that every endpoint survives malformed input (it
// was the suite's longest file at 20); npm run fuzz: 300. FUZZ_RUNS raises the count (and picks a fresh seed unless FUZZ_SEED
// is given); FUZZ_ONLY narrows the run to endpoints whose "METHOD /path" contains it, to replay a failure (a failure that
// needs an earlier endpoint's writes replays only in the whole run with the same seed). FUZZ_LOG=1 logs the server's
// errors with their stacks; FUZZ_TRACE=4 prints every request answered 4xx (any status prefix).
const runs = Number(process.env.FUZZ_RUNS ?? 5)
const seed = Number(process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Date.now() % 2 ** 31 : 20261123))
const only = process.env.FUZZ_ONLY

const harness = new FuzzHarness(() => startTestServer({ log: process.env.FUZZ_LOG === '1' }))

beforeAll(async () => {
  console.log(`contract fuzz: seed ${seed}, ${runs} requests per endpoint (replay with FUZZ_SEED=${seed} FUZZ_RUNS=${runs})`)
  await harness.init()
})
afterAll(async () => {
  console.log(`contract fuzz: ${harness.stats.requests} requests, ${JSON.stringify(harness.stats.byClass)} (${JSON.stringify(harness.stats.byStatus)}), world rebuilt ${harness.stats.rebuilds} times`)
  if (harness.unreached.size) console.log(`contract fuzz: no 2xx from ${[...harness.unreached].join(', ')}`)
  await harness.close()
})

for (const endpoint of endpointsInOrder(only)) {
  it(`${endpoint.method} ${endpoint.path} answers every request without a 5xx, with GitLab's error bodies`, async () => {
    await harness.fuzz(endpoint, { seed, runs, strict: true })
  }, 30_000 + runs * 500)
}

it('answers batches of concurrent requests to any endpoints without a 5xx', async () => {
  await harness.fuzzConcurrently(endpointsInOrder(only), { seed, runs, strict: true })
}, 30_000 + runs * 2000)

it('still answers a plain GET after the run', async () => {
  const answer = await harness.stillServes()
  expect(answer.status).toBe(200)
  expect(answer.headers['content-type']).toBe('application/json')
  expect(JSON.parse(answer.text).path_with_namespace).toBe('fuzz-group/public')
})
