// Which of a key's CI variables a job with an environment gets (HasEnvironmentScope.on_environment, through
// core/wildcard): the closest scope wins, the exact name before a wildcard scope, a wildcard scope before `*`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, jobSpec, seedPipeline, takeJob, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  const scoped = { '*': 'anywhere', 'review/*': 'any review', 'review/feature-1': 'this review', staging: 'staging', '*-1': 'ends in -1' }
  for (const [scope, value] of Object.entries(scoped)) {
    expectStatus(await w.maintainer.api.post(`/projects/${w.project.id}/variables`, { key: 'TARGET', value, environment_scope: scope }), 201)
  }
  for (const [scope, value] of Object.entries({ '*': 'anywhere', 'review/*': 'any review' })) {
    expectStatus(await w.maintainer.api.post(`/projects/${w.project.id}/variables`, { key: 'FALLBACK', value, environment_scope: scope }), 201)
  }
})
afterAll(() => server.close())

/** The value of `key` that a job in `environment` is handed. */
async function valueFor(environment: string | null, key: string): Promise<string[]> {
  const env = environment === null ? null : { name: environment, url: null, action: 'start' as const, onStop: null, deploymentTier: null, autoStopIn: null }
  seedPipeline(w, [jobSpec('deploy', 0, { environment: env })])
  const { payload } = await takeJob(w)
  return payload.variables.filter((v) => v.key === key).map((v) => v.value)
}

describe('environment scopes', () => {
  it.each([
    ['review/feature-1', 'TARGET', 'this review'],
    ['review/feature-2', 'TARGET', 'any review'],
    ['prod-1', 'TARGET', 'ends in -1'],
    ['staging', 'TARGET', 'staging'],
    ['production', 'TARGET', 'anywhere'],
    ['review/feature-1', 'FALLBACK', 'any review'],
    ['reviewer/x', 'FALLBACK', 'anywhere'],
    [null, 'TARGET', 'anywhere'],
  ])('a job in %j gets %s = %j', async (environment, key, value) => {
    expect(await valueFor(environment, key)).toEqual([value])
  })
})
