// The contract fuzz as a benchmark line: a fixed-seed session against `collab serve`, counting requests and answers by class.
import { rmSync } from 'node:fs'
import { endpointsInOrder, FuzzHarness } from '../fuzz/harness.js'
import { startCollab, tempDir, TOKEN } from './lib.js'

const SEED = 20261123
const RUNS = 30

export async function fuzzBench() {
  const harness = new FuzzHarness(async () => {
    const dataDir = tempDir('fuzz-data')
    const configDir = tempDir('fuzz-config')
    const collab = await startCollab(dataDir, configDir)
    return {
      url: collab.url, rootToken: TOKEN,
      async close() {
        await collab.stop()
        for (const dir of [dataDir, configDir]) rmSync(dir, { recursive: true, force: true })
      },
    }
  })
  await harness.init()
  const start = Date.now()
  const endpoints = endpointsInOrder()
  try {
    for (const endpoint of endpoints) await harness.fuzz(endpoint, { seed: SEED, runs: RUNS, strict: false })
    const after = await harness.stillServes()
    const { requests, byClass, rebuilds } = harness.stats
    console.log(`contract fuzz, seed ${SEED}: ${endpoints.length} endpoints x ${RUNS} requests in ${((Date.now() - start) / 1000).toFixed(1)} s (server rebuilt ${rebuilds} times)`)
    const others = Object.entries(byClass).filter(([k]) => k !== '5xx').map(([k, v]) => `${k} ${v}`).join(', ')
    console.log(`  requests ${requests}   5xx ${byClass['5xx']}   (${others})   answers failing a check (5xx, non-JSON 4xx, none) ${harness.findings.length}`)
    console.log(`  a plain GET afterwards: ${after.status}`)
    // The first few bad answers in full, to replay; the test suite's fuzz shrinks them.
    for (const f of harness.findings.slice(0, 5)) console.log(`  FINDING ${f.endpoint}: ${f.problems.join('; ')}\n    ${f.request.slice(0, 600)}`)
    if (harness.findings.length > 5) console.log(`  … and ${harness.findings.length - 5} more bad answers`)
  } finally {
    await harness.close()
  }
}
