// The Environments and Deployments APIs: exact answers, GitLab's errors, and who may read and write (private project:
// Reporters read, Developers write, Maintainers delete deployments).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Deployment, Environment } from '../../../src/contract/entities/environments.js'
import { api, createProject, createUser, expectStatus, movableClock, type Api, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2030-01-01T00:00:00.000Z')
let server: TestServer
let root: Api
let dev: TestUser
let rep: TestUser
let guest: TestUser
let maint: TestUser
let id: number
let sha: string
let projectPath: string
let branch: string

const envs = () => `/projects/${id}/environments`
const deps = () => `/projects/${id}/deployments`
const T0 = '2030-01-01T00:00:00.000Z'

beforeAll(async () => {
  server = await startTestServer({ clock })
  root = api(server, server.rootToken)
  ;[dev, rep, guest, maint] = await Promise.all(['dev', 'rep', 'guest', 'maint'].map((u) => createUser(server, u)))
  const project = await createProject(root, { name: 'shop', visibility: 'private', initialize_with_readme: true })
  id = project.id
  projectPath = project.path_with_namespace
  branch = project.default_branch
  for (const [u, level] of [[dev, 30], [rep, 20], [guest, 10], [maint, 40]] as const) {
    expectStatus(await root.post(`/projects/${id}/members`, { user_id: u.id, access_level: level }), 201)
  }
  sha = expectStatus(await root.get(`/projects/${id}/repository/commits/${branch}`), 200).body.id
})
afterAll(() => server.close())

describe('environments', () => {
  it('creates an environment with its slug, and the tier given or guessed from the name as GitLab does', async () => {
    const res = expectStatus(await dev.api.post(envs(), { name: 'review/fix-foo', external_url: 'https://fix-foo.example.com' }), 201)
    expect(res.body).toEqual({
      id: 1, name: 'review/fix-foo', slug: 'review-fix-foo-v25cyx', external_url: 'https://fix-foo.example.com', state: 'available',
      tier: 'development', created_at: T0, updated_at: T0, auto_stop_at: null,
    })
    expect(Environment.parse(res.body)).toEqual(res.body)
    const tiers: Record<string, string> = { production: 'production', 'eu-live': 'production', staging: 'staging', 'MON-B-MTEST': 'testing', qa: 'testing', sandbox: 'other' }
    for (const [name, tier] of Object.entries(tiers)) {
      const made = expectStatus(await dev.api.post(envs(), { name }), 201).body
      expect([made.name, made.slug, made.tier]).toEqual([name, made.slug, tier])
    }
    const given = expectStatus(await dev.api.post(envs(), { name: 'prod-eu', tier: 'staging' }), 201).body
    expect([given.slug, given.tier, given.external_url]).toEqual(['prod-eu', 'staging', null])
    // Gitlab::Slug::Environment: changed names get 17 characters and a suffix from the name's SHA-256.
    const slugs = await Promise.all(['PRODUCTION', 'staging-12345678901234567', '1-foo'].map(async (name) =>
      expectStatus(await dev.api.post(envs(), { name }), 201).body.slug))
    expect(slugs).toEqual(['production-vl4voz', 'staging-123456789-s729ne', 'env-1-foo-1k46wz'])
  })

  it("answers GitLab's validation errors and refuses a slug", async () => {
    const taken = await dev.api.post(envs(), { name: 'production' })
    expect([taken.status, taken.body]).toEqual([400, { message: { name: ['has already been taken'] } }])
    const bad = await dev.api.post(envs(), { name: '/bad*name', external_url: 'ftp://x' })
    expect([bad.status, bad.body]).toEqual([400, {
      message: {
        name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"],
        external_url: ['is blocked: Only allowed schemes are http, https'],
      },
    }])
    const slug = await dev.api.post(envs(), { name: 'x', slug: 'mine' })
    expect([slug.status, slug.body]).toEqual([400, { error: 'slug is automatically generated and cannot be changed' }])
    const missing = await dev.api.post(envs(), {})
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "name" not given' }])
    const tier = await dev.api.post(envs(), { name: 'y', tier: 'prod' })
    expect(tier.status).toBe(400)
  })

  it('lists with name, search and states filters and pagination headers', async () => {
    const all = expectStatus(await rep.api.get(envs(), { query: { per_page: 3 } }), 200)
    expect(all.body.map((e: { id: number }) => e.id)).toEqual([1, 2, 3])
    expect(all.headers.get('x-total')).toBe('11')
    expect(expectStatus(await rep.api.get(envs(), { query: { name: 'staging' } }), 200).body.map((e: { name: string }) => e.name)).toEqual(['staging'])
    expect(expectStatus(await rep.api.get(envs(), { query: { search: 'PROD' } }), 200).body.map((e: { name: string }) => e.name))
      .toEqual(['production', 'prod-eu', 'PRODUCTION'])
    const short = await rep.api.get(envs(), { query: { search: 'pr' } })
    expect([short.status, short.body]).toEqual([400, { message: '400 Bad request - Search query is less than 3 characters' }])
    const both = await rep.api.get(envs(), { query: { search: 'prod', name: 'x' } })
    expect([both.status, both.body]).toEqual([400, { error: 'name, search cannot be used together' }])
    expect(expectStatus(await rep.api.get(envs(), { query: { states: 'stopped' } }), 200).body).toEqual([])
  })

  it('updates external_url and tier but never the name', async () => {
    clock.set('2030-01-02T00:00:00.000Z')
    const res = expectStatus(await dev.api.put(`${envs()}/2`, { external_url: 'https://shop.example.com', tier: 'other', name: 'renamed' }), 200)
    expect([res.body.name, res.body.external_url, res.body.tier, res.body.updated_at]).toEqual(['production', 'https://shop.example.com', 'other', '2030-01-02T00:00:00.000Z'])
    const missing = await dev.api.put(`${envs()}/999`, { tier: 'other' })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('stops an environment without on_stop job at once, refuses a second stop, and deletes only stopped ones', async () => {
    const live = await dev.api.del(`${envs()}/3`)
    expect([live.status, live.body]).toEqual([403, { message: '403 Forbidden' }])
    const stopped = expectStatus(await dev.api.post(`${envs()}/3/stop`), 200)
    expect([stopped.body.state, stopped.body.auto_stop_at]).toEqual(['stopped', null])
    const again = await dev.api.post(`${envs()}/3/stop`)
    expect([again.status, again.body]).toEqual([400, { message: '400 Bad request - Attempted to stop the environment but failed to change the status' }])
    expect(expectStatus(await rep.api.get(envs(), { query: { states: 'stopped' } }), 200).body.map((e: { id: number }) => e.id)).toEqual([3])
    expect((await rep.api.del(`${envs()}/3`)).status).toBe(403)
    expectStatus(await dev.api.del(`${envs()}/3`), 204)
    expect((await dev.api.get(`${envs()}/3`)).status).toBe(404)
  })

  it('lets Reporters read and Developers write: guests and reporters are refused', async () => {
    expect((await guest.api.get(envs())).status).toBe(403)
    expect((await guest.api.get(`${envs()}/1`)).status).toBe(403)
    expect((await rep.api.post(envs(), { name: 'rep-made' })).status).toBe(403)
    expect((await rep.api.put(`${envs()}/1`, { tier: 'other' })).status).toBe(403)
    expect((await rep.api.post(`${envs()}/1/stop`)).status).toBe(403)
    expect((await api(server).get(envs())).status).toBe(401)
    const outsider = await createUser(server, 'outsider')
    expect((await outsider.api.get(envs())).status).toBe(404)
  })
})

describe('environment: in .gitlab-ci.yml', () => {
  it('checks the keyword and on_stop jobs with GitLab\'s messages', async () => {
    const lint = async (content: string) => expectStatus(await dev.api.post(`/projects/${id}/ci/lint`, { content }), 200).body.errors
    expect(await lint('a:\n  script: x\n  environment: {name: prod, action: deploy, deployment_tier: live, auto_stop_in: soon, color: red}\n')).toEqual([
      'jobs:a:environment config contains unknown keys: color',
      'jobs:a:environment action should be start, stop, prepare, verify, or access',
      'jobs:a:environment deployment tier must be one of production, staging, testing, development, or other',
      'jobs:a:environment auto stop in should be a duration',
    ])
    expect(await lint('a:\n  script: x\n  environment: {name: prod, on_stop: b}\n')).toEqual(['a job: on_stop job b is not defined'])
    expect(await lint('a:\n  script: x\n  environment: {name: prod, on_stop: b}\nb:\n  script: y\n  environment: prod\n'))
      .toEqual(['a job: on_stop job b needs to have action stop defined'])
    expect(await lint('a:\n  script: x\n  environment: {name: prod, on_stop: b}\nb:\n  script: y\n  environment: {name: other, action: stop}\n'))
      .toEqual(['a job: on_stop job b have different environment name'])
    expect(await lint('a:\n  script: x\n  environment: {name: review/$CI_COMMIT_REF_SLUG, on_stop: b}\nb:\n  script: y\n  when: manual\n  environment: {name: review/$CI_COMMIT_REF_SLUG, action: stop}\n')).toEqual([])
  })
})

describe('deployments', () => {
  it('records a deployment made outside GitLab CI, creating its environment, with iids never duplicated under concurrency', async () => {
    clock.set('2030-01-03T00:00:00.000Z')
    const res = expectStatus(await dev.api.post(deps(), { environment: 'review/app', sha, ref: branch, tag: false, status: 'running' }), 201)
    expect(res.body).toEqual({
      id: 1, iid: 1, ref: branch, sha, created_at: '2030-01-03T00:00:00.000Z', updated_at: '2030-01-03T00:00:00.000Z',
      user: { id: dev.id, username: 'dev', name: 'User dev', state: 'active', avatar_url: res.body.user.avatar_url, web_url: `${server.url}/dev` },
      environment: { id: 12, name: 'review/app', slug: res.body.environment.slug, external_url: null, created_at: '2030-01-03T00:00:00.000Z', updated_at: '2030-01-03T00:00:00.000Z' },
      deployable: null, status: 'running',
    })
    expect(Deployment.parse(res.body)).toEqual(res.body)
    const many = await Promise.all(Array.from({ length: 8 }, () => dev.api.post(deps(), { environment: 'staging', sha, ref: branch, tag: false, status: 'success' })))
    expect(many.map((r) => r.status)).toEqual(Array(8).fill(201))
    expect(many.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
  })

  it("answers GitLab's errors for an unknown commit or ref and the refused filters", async () => {
    const noSha = await dev.api.post(deps(), { environment: 'staging', sha: 'a'.repeat(40), ref: branch, tag: false, status: 'success' })
    expect([noSha.status, noSha.body]).toEqual([400, { message: { sha: ['The commit does not exist'] } }])
    const noRef = await dev.api.post(deps(), { environment: 'staging', sha, ref: 'nope', tag: false, status: 'success' })
    expect([noRef.status, noRef.body]).toEqual([400, { message: { ref: ['The branch or tag does not exist'] } }])
    const status = await dev.api.post(deps(), { environment: 'staging', sha, ref: branch, tag: false, status: 'blocked' })
    expect(status.status).toBe(400)
    const updated = await rep.api.get(deps(), { query: { updated_after: '2029-01-01T00:00:00Z' } })
    expect([updated.status, updated.body]).toEqual([400, { message: '400 Bad request - `updated_at` filter requires `updated_at` sort' }])
    const finished = await rep.api.get(deps(), { query: { order_by: 'finished_at', finished_after: '2029-01-01T00:00:00Z' } })
    expect([finished.status, finished.body]).toEqual([400, { message: '400 Bad request - `finished_at` filter must be combined with `success` status filter.' }])
  })

  it('lists with environment, status, order and sort; an environment shows its last successful deployment', async () => {
    const byEnv = expectStatus(await rep.api.get(deps(), { query: { environment: 'review/app' } }), 200).body
    expect(byEnv.map((d: { iid: number }) => d.iid)).toEqual([1])
    const desc = expectStatus(await rep.api.get(deps(), { query: { sort: 'desc', status: 'success', per_page: 2 } }), 200)
    expect([desc.body.map((d: { iid: number }) => d.iid), desc.headers.get('x-total')]).toEqual([[9, 8], '8'])
    const staging = expectStatus(await rep.api.get(envs(), { query: { name: 'staging' } }), 200).body[0]
    const one = expectStatus(await rep.api.get(`${envs()}/${staging.id}`), 200).body
    expect([one.project.path_with_namespace, one.last_deployment.iid, one.last_deployment.environment.name]).toEqual([projectPath, 9, 'staging'])
    expect(Environment.parse(one)).toEqual(one)
    const review = expectStatus(await rep.api.get(envs(), { query: { name: 'review/app' } }), 200).body[0]
    expect(expectStatus(await rep.api.get(`${envs()}/${review.id}`), 200).body.last_deployment).toBeNull()
  })

  it('updates the status of an API deployment along its state machine', async () => {
    clock.set('2030-01-04T00:00:00.000Z')
    const res = expectStatus(await dev.api.put(`${deps()}/1`, { status: 'success' }), 200)
    expect([res.body.status, res.body.updated_at]).toEqual(['success', '2030-01-04T00:00:00.000Z'])
    const back = await dev.api.put(`${deps()}/1`, { status: 'running' })
    expect([back.status, back.body]).toEqual([400, { message: { status: ['cannot transition via "run"'] } }])
    expect((await rep.api.put(`${deps()}/1`, { status: 'failed' })).status).toBe(403)
    expect(expectStatus(await rep.api.get(`${deps()}/1`), 200).body.status).toBe('success')
  })

  it('deletes a deployment for Maintainers, never a running one or the current one', async () => {
    const running = expectStatus(await dev.api.post(deps(), { environment: 'staging', sha, ref: branch, tag: false, status: 'running' }), 201).body
    expect((await dev.api.del(`${deps()}/${running.id}`)).status).toBe(403)
    const busy = await maint.api.del(`${deps()}/${running.id}`)
    expect([busy.status, busy.body]).toEqual([400, { message: 'Cannot destroy running deployment' }])
    const current = await maint.api.del(`${deps()}/9`)
    expect([current.status, current.body]).toEqual([400, { message: 'Deployment currently deployed to environment' }])
    expectStatus(await maint.api.del(`${deps()}/2`), 204)
    expect((await rep.api.get(`${deps()}/2`)).status).toBe(404)
    expect(expectStatus(await rep.api.get(`${deps()}/9/merge_requests`), 200).body).toEqual([])
  })

  it('stops stale environments: those untouched and undeployed since the date', async () => {
    const early = await dev.api.post(`${envs()}/stop_stale`, { before: '2030-01-01T00:00:00Z' })
    expect([early.status, early.body]).toEqual([400, { message: '400 Bad request - Invalid Date' }])
    clock.set('2030-02-01T00:00:00.000Z')
    expect((await rep.api.post(`${envs()}/stop_stale`, { before: '2030-01-03T12:00:00Z' })).status).toBe(403)
    const ok = expectStatus(await dev.api.post(`${envs()}/stop_stale`, { before: '2030-01-03T12:00:00Z' }), 200)
    expect(ok.body).toEqual({ message: 'Successfully requested stop for all stale environments' })
    const available = expectStatus(await rep.api.get(envs(), { query: { states: 'available' } }), 200).body.map((e: { name: string }) => e.name)
    // review/app and staging were deployed to on the 3rd or later; every other environment was untouched since the 2nd.
    expect(available).toEqual(['staging', 'review/app'])
  })
})
