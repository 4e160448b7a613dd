// Pipeline trigger tokens: CRUD for Maintainers (the token in full for its owner only), and POST …/trigger/pipeline
// with a trigger token (a `trigger` pipeline as the owner) or a running job's token (a `pipeline`-source one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Trigger } from '../../src/contract/endpoints/pipeline-triggers.js'
import { createCoordinator } from '../../src/server/ci/coordinator.js'
import { api, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { ciProject, startCiServer } from '../helpers/ci.js'
import { fixedClock, type TestServer } from '../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let maintainer: TestUser
let other: TestUser
let developer: TestUser
let stranger: TestUser
let project: { id: number; path_with_namespace: string }
let triggers: string

const CONFIG = 'job:\n  script: [echo hi]\n'

beforeAll(async () => {
  server = await startCiServer({ clock: fixedClock(NOW) })
  maintainer = await createUser(server, 'tmaintainer')
  other = await createUser(server, 'tother')
  developer = await createUser(server, 'tdeveloper')
  stranger = await createUser(server, 'tstranger')
  const made = await ciProject(server, 'triggered', CONFIG)
  project = made.project
  for (const [user, level] of [[maintainer, 40], [other, 40], [developer, 30]] as const) {
    expectStatus(await made.root.post(`/projects/${project.id}/members`, { user_id: user.id, access_level: level }), 201)
  }
  triggers = `/projects/${project.id}/triggers`
})
afterAll(() => server.close())

const userBasic = (u: TestUser) => ({ id: u.id, username: u.username, name: `User ${u.username}`, state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${u.id}/identicon.svg`, web_url: `${server.url}/${u.username}` })

describe('trigger tokens', () => {
  let id: number
  let token: string

  it('creates a token (201) shown in full to its owner', async () => {
    const res = expectStatus(await maintainer.api.post(triggers, { description: 'deploy hook' }), 201)
    Trigger.strict().parse(res.body)
    id = res.body.id
    token = res.body.token
    expect(token).toMatch(/^glptt-[0-9a-f]{40}$/)
    expect(res.body).toEqual({
      id, token, description: 'deploy hook', created_at: NOW, updated_at: NOW, last_used: null, expires_at: null, owner: userBasic(maintainer),
    })
    expect(expectStatus(await maintainer.api.get(`${triggers}/${id}`), 200).body).toEqual(res.body)
    expect(expectStatus(await maintainer.api.get(triggers), 200).body).toEqual([res.body])
  })

  it('shows other Maintainers the first four characters after the prefix', async () => {
    const seen = expectStatus(await other.api.get(triggers), 200).body
    expect(seen.map((t: { token: string }) => t.token)).toEqual([token.slice(6, 10)])
    expect(expectStatus(await other.api.get(`${triggers}/${id}`), 200).body.token).toBe(token.slice(6, 10))
  })

  it('lets only the owner change the description', async () => {
    const refused = await other.api.put(`${triggers}/${id}`, { description: 'mine now' })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden - The current user is not authorized to update the pipeline trigger token' }])
    expect(expectStatus(await maintainer.api.put(`${triggers}/${id}`, { description: 'deploys' }), 200).body.description).toBe('deploys')
  })

  it('answers 404 Trigger Not Found for a trigger of no such id, and deletes (204)', async () => {
    const made = expectStatus(await other.api.post(triggers, { description: 'temporary' }), 201).body
    expect((await maintainer.api.del(`${triggers}/${made.id}`)).status).toBe(204)
    for (const res of [await maintainer.api.get(`${triggers}/${made.id}`), await maintainer.api.del(`${triggers}/${made.id}`), await maintainer.api.put(`${triggers}/${made.id}`, { description: 'x' })]) {
      expect([res.status, res.body]).toEqual([404, { message: '404 Trigger Not Found' }])
    }
  })

  it('refuses Developers (403), hides the project from strangers (404), wants a description (400)', async () => {
    for (const res of [await developer.api.get(triggers), await developer.api.post(triggers, { description: 'd' }), await developer.api.get(`${triggers}/${id}`)]) {
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    const hidden = await stranger.api.get(triggers)
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }])
    const missing = await maintainer.api.post(triggers, {})
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "description" not given' }])
  })

  it('runs a trigger pipeline as the owner from a form with variables[KEY]=value, and records last_used', async () => {
    const res = expectStatus(await api(server).request('POST', `/projects/${project.id}/trigger/pipeline`, {
      form: { token, ref: 'master', 'variables[DEPLOY_TO]': 'staging', 'variables[EMPTY]': '' },
    }), 201)
    expect(res.body).toMatchObject({ project_id: project.id, ref: 'master', source: 'trigger', status: 'pending', user: userBasic(maintainer) })
    const vars = expectStatus(await maintainer.api.get(`/projects/${project.id}/pipelines/${res.body.id}/variables`), 200).body
    expect(vars).toEqual([
      { key: 'DEPLOY_TO', value: 'staging', variable_type: 'env_var' },
      { key: 'EMPTY', value: '', variable_type: 'env_var' },
      { key: 'TRIGGER_PAYLOAD', value: JSON.stringify({ ref: 'master', id: String(project.id), variables: { DEPLOY_TO: 'staging', EMPTY: '' } }), variable_type: 'file' },
    ])
    expect(expectStatus(await maintainer.api.get(`${triggers}/${id}`), 200).body.last_used).toBe(NOW)
  })

  it('takes JSON with variables as an object, and the project by path', async () => {
    const path = encodeURIComponent(project.path_with_namespace)
    const res = expectStatus(await api(server).post(`/projects/${path}/trigger/pipeline`, { token, ref: 'master', variables: { A: '1' } }), 201)
    expect(res.body.source).toBe('trigger')
  })

  it('takes the ref in the path and the token and variables in the query (the webhook URL)', async () => {
    const res = expectStatus(await api(server).request('POST', `/projects/${project.id}/ref/master/trigger/pipeline`, {
      query: `token=${token}&variables[FROM]=hook`,
    }), 201)
    expect([res.body.source, res.body.ref]).toEqual(['trigger', 'master'])
    const vars = expectStatus(await maintainer.api.get(`/projects/${project.id}/pipelines/${res.body.id}/variables`), 200).body
    expect(vars.map((v: { key: string; value: string }) => [v.key, v.value])).toEqual([
      ['FROM', 'hook'], ['TRIGGER_PAYLOAD', JSON.stringify({ ref: 'master', id: String(project.id), variables: { FROM: 'hook' } })],
    ])
    const unknown = await api(server).request('POST', `/projects/${project.id}/ref/nope/trigger/pipeline`, { query: `token=${token}` })
    expect([unknown.status, unknown.body]).toEqual([400, { message: { base: ['Reference not found'] } }])
  })

  it('answers 404 for a wrong token or another project, 400 for a missing or unknown ref and bad variables', async () => {
    const other = await ciProject(server, 'elsewhere', CONFIG)
    const answers = await Promise.all([
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token: 'glptt-nope', ref: 'master' }),
      api(server).post(`/projects/${other.project.id}/trigger/pipeline`, { token, ref: 'master' }),
      api(server).post(`/projects/999999/trigger/pipeline`, { token, ref: 'master' }),
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token }),
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token, ref: 'no-such-branch' }),
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token, ref: 'master', variables: { N: 1 } }),
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token, ref: 'master', variables: ['x'] }),
      api(server).post(`/projects/${project.id}/trigger/pipeline`, { token, ref: 'master', variables: { 'BAD-KEY': 'v' } }),
    ])
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [404, { message: '404 Not Found' }],
      [404, { message: '404 Not Found' }],
      [404, { message: '404 Not Found' }],
      [400, { message: '400 (Bad request) "ref" not given' }],
      [400, { message: { base: ['Reference not found'] } }],
      [400, { message: 'variables needs to be a map of key-valued strings' }],
      [400, { message: 'variables needs to be a map of key-valued strings' }],
      [400, { message: { base: ["Variables key can contain only letters, digits and '_'."] } }],
    ])
  })

  it('refuses a trigger whose owner may no longer run pipelines on the ref, or at all (400)', async () => {
    const made = expectStatus(await other.api.post(triggers, { description: 'leaving' }), 201).body
    const run = () => api(server).post(`/projects/${project.id}/trigger/pipeline`, { token: made.token, ref: 'master' })
    expectStatus(await maintainer.api.put(`/projects/${project.id}/members/${other.id}`, { access_level: 30 }), 200)
    const developer = await run()
    expect([developer.status, developer.body]).toEqual([400, { message: { base: [
      "You do not have sufficient permission to run a pipeline on 'master'. Please select a different branch or contact your administrator for assistance.",
    ] } }])
    expectStatus(await maintainer.api.put(`/projects/${project.id}/members/${other.id}`, { access_level: 20 }), 200)
    const reporter = await run()
    expect([reporter.status, reporter.body]).toEqual([400, { message: { base: ['Insufficient permissions to create a new pipeline'] } }])
  })
})

describe('job tokens', () => {
  it("runs a `pipeline`-source pipeline as the job's user while the job runs, where its project is allowed, then 404", async () => {
    const upstream = await ciProject(server, 'upstream', CONFIG)
    const bare = await ciProject(server, 'no-config', null, { 'README.md': 'x' })
    const coordinator = createCoordinator(server.app)
    await server.app.tasks.idle()
    // Take jobs until one of the upstream project's; the others stay claimed, which nothing here minds.
    let job = await coordinator.requestJob({ id: 't', concurrency: 1 })
    while (job && job.job_info.project_id !== upstream.project.id) job = await coordinator.requestJob({ id: 't', concurrency: 1 })
    expect(job).not.toBeNull()
    // GitLab 17's inbound job token scope: another project's job token runs nothing here until this project allows it.
    const refused = await api(server).post(`/projects/${project.id}/trigger/pipeline`, { token: job!.token, ref: 'master', variables: { UP: 'stream' } })
    expect([refused.status, refused.body]).toEqual([404, { message: '404 Not Found' }])
    for (const target of [project.id, bare.project.id]) {
      expectStatus(await upstream.root.post(`/projects/${target}/job_token_scope/allowlist`, { target_project_id: upstream.project.id }), 201)
    }
    const res = expectStatus(await api(server).post(`/projects/${project.id}/trigger/pipeline`, { token: job!.token, ref: 'master', variables: { UP: 'stream' } }), 201)
    expect(res.body).toMatchObject({ project_id: project.id, source: 'pipeline', user: { username: 'root' } })
    const vars = expectStatus(await maintainer.api.get(`/projects/${project.id}/pipelines/${res.body.id}/variables`), 200).body
    expect(vars.map((v: { key: string }) => v.key)).toEqual(['TRIGGER_PAYLOAD', 'UP'])
    const noConfig = await api(server).post(`/projects/${bare.project.id}/trigger/pipeline`, { token: job!.token, ref: 'master' })
    expect([noConfig.status, noConfig.body]).toEqual([400, { message: { base: ['Missing .gitlab-ci.yml file'] } }])
    await coordinator.updateJob(job!.id, job!.token, { state: 'success' })
    const after = await api(server).post(`/projects/${project.id}/trigger/pipeline`, { token: job!.token, ref: 'master' })
    expect([after.status, after.body]).toEqual([404, { message: '404 Not Found' }])
  })
})
