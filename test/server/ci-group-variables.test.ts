// Group CI/CD variables (Maintainers and Owners of the group) and instance ones (administrators): CRUD, the project
// variables' validation, environment scopes, and the refusals GitLab answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InstanceVariable } from '../../src/contract/endpoints/ci-group-variables.js'
import { CiVariable } from '../../src/contract/entities/jobs.js'
import { api, createGroup, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let owner: TestUser
let maintainer: TestUser
let developer: TestUser
let stranger: TestUser
let vars: string

const variable = (over: Record<string, unknown>) => ({
  variable_type: 'env_var', key: 'KEY', value: 'value', protected: false, masked: false, raw: false, environment_scope: '*', description: null, ...over,
})
const { environment_scope: _scope, ...instanceDefaults } = variable({})
const instanceVariable = (over: Record<string, unknown>) => ({ ...instanceDefaults, ...over })

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  owner = await createUser(server, 'gowner')
  maintainer = await createUser(server, 'gmaintainer')
  developer = await createUser(server, 'gdeveloper')
  stranger = await createUser(server, 'gstranger')
  const group = await createGroup(owner.api, { name: 'Platform', path: 'platform' })
  expectStatus(await owner.api.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 }), 201)
  expectStatus(await owner.api.post(`/groups/${group.id}/members`, { user_id: developer.id, access_level: 30 }), 201)
  vars = `/groups/${group.id}/variables`
})
afterAll(() => server.close())

describe('group variables', () => {
  it('creates a variable (201) with defaults and reads it back in the list and alone, by id or path', async () => {
    const res = expectStatus(await maintainer.api.post(vars, { key: 'REGISTRY', value: 'registry.example' }), 201)
    CiVariable.strict().parse(res.body)
    expect(res.body).toEqual(variable({ key: 'REGISTRY', value: 'registry.example' }))
    expect(expectStatus(await maintainer.api.get(`${vars}/REGISTRY`), 200).body).toEqual(res.body)
    expect(expectStatus(await owner.api.get('/groups/platform/variables'), 200).body).toEqual([res.body])
  })

  it('takes every field from a form, as python-gitlab sends it', async () => {
    const res = expectStatus(await owner.api.request('POST', vars, {
      form: { key: 'KUBECONFIG', value: 'abcdefgh12345678', variable_type: 'file', protected: 'true', masked: 'True', environment_scope: 'production', description: 'cluster' },
    }), 201)
    expect(res.body).toEqual(variable({
      key: 'KUBECONFIG', value: 'abcdefgh12345678', variable_type: 'file', protected: true, masked: true, environment_scope: 'production', description: 'cluster',
    }))
  })

  it('updates in place without renaming (200), keeps one key per scope and picks one with filter[environment_scope]', async () => {
    expect(expectStatus(await maintainer.api.put(`${vars}/REGISTRY`, { value: 'r2.example', key: 'OTHER', raw: true }), 200).body)
      .toEqual(variable({ key: 'REGISTRY', value: 'r2.example', raw: true }))
    expectStatus(await maintainer.api.post(vars, { key: 'KUBECONFIG', value: 'staging-config', environment_scope: 'staging' }), 201)
    const ambiguous = await maintainer.api.get(`${vars}/KUBECONFIG`)
    expect([ambiguous.status, ambiguous.body]).toEqual([409, { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" }])
    const staging = expectStatus(await maintainer.api.get(`${vars}/KUBECONFIG`, { query: 'filter[environment_scope]=staging' }), 200)
    expect(staging.body.value).toBe('staging-config')
    expect((await maintainer.api.del(`${vars}/KUBECONFIG`, { query: 'filter[environment_scope]=staging' })).status).toBe(204)
    expect(expectStatus(await maintainer.api.get(`${vars}/KUBECONFIG`), 200).body.environment_scope).toBe('production')
  })

  it('deletes a variable (204), then it is 404 GroupVariable Not Found', async () => {
    expectStatus(await maintainer.api.post(vars, { key: 'TEMP', value: 't' }), 201)
    expect((await maintainer.api.del(`${vars}/TEMP`)).status).toBe(204)
    for (const res of [await maintainer.api.get(`${vars}/TEMP`), await maintainer.api.del(`${vars}/TEMP`), await maintainer.api.put(`${vars}/TEMP`, { value: 'x' })]) {
      expect([res.status, res.body]).toEqual([404, { message: '404 GroupVariable Not Found' }])
    }
  })

  it('validates as project variables do: a taken key, a bad key, an unmaskable value, a missing value, a bad type', async () => {
    const answers = await Promise.all([
      maintainer.api.post(vars, { key: 'REGISTRY', value: 'again' }),
      maintainer.api.post(vars, { key: 'NO-DASHES', value: 'v' }),
      maintainer.api.post(vars, { key: 'MASKED', value: 'short', masked: true }),
      maintainer.api.post(vars, { key: 'X' }),
      maintainer.api.post(vars, { key: 'X', value: 'v', variable_type: 'secret' }),
      maintainer.api.put(`${vars}/REGISTRY`, { masked: true, value: 'has a space' }),
    ])
    expect(answers.map((r) => [r.status, r.body])).toEqual([
      [400, { message: { key: ['(REGISTRY) has already been taken'] } }],
      [400, { message: { key: ["can contain only letters, digits and '_'."] } }],
      [400, { message: { value: ['is invalid'] } }],
      [400, { message: '400 (Bad request) "value" not given' }],
      [400, { message: { variable_type: ['does not have a valid value'] } }],
      [400, { message: { value: ['is invalid'] } }],
    ])
  })

  it('refuses Developers (403), hides a private group from strangers (404) and asks for credentials (401)', async () => {
    for (const res of [await developer.api.get(vars), await developer.api.post(vars, { key: 'D', value: 'd' }), await developer.api.del(`${vars}/REGISTRY`)]) {
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    const hidden = await stranger.api.get(vars)
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Group Not Found' }])
    const anonymous = await api(server).get(vars)
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expectStatus(await api(server, server.rootToken).get(vars), 200)
  })
})

describe('instance variables', () => {
  const root = () => api(server, server.rootToken)

  it('creates, lists, reads, updates and deletes them, without environment_scope', async () => {
    const res = expectStatus(await root().post('/admin/ci/variables', { key: 'GLOBAL', value: 'everywhere', description: 'all projects' }), 201)
    InstanceVariable.strict().parse(res.body)
    expect(res.body).toEqual(instanceVariable({ key: 'GLOBAL', value: 'everywhere', description: 'all projects' }))
    expect(expectStatus(await root().get('/admin/ci/variables'), 200).body).toEqual([res.body])
    expect(expectStatus(await root().get('/admin/ci/variables/GLOBAL'), 200).body).toEqual(res.body)
    const updated = expectStatus(await root().request('PUT', '/admin/ci/variables/GLOBAL', { form: { value: 'abcdefgh12345678', masked: 'true', protected: 'true', environment_scope: 'prod' } }), 200)
    expect(updated.body).toEqual(instanceVariable({ key: 'GLOBAL', value: 'abcdefgh12345678', masked: true, protected: true, description: 'all projects' }))
    expectStatus(await root().post('/admin/ci/variables', { key: 'TEMP', value: 't' }), 201)
    expect((await root().del('/admin/ci/variables/TEMP')).status).toBe(204)
    const gone = await root().get('/admin/ci/variables/TEMP')
    expect([gone.status, gone.body]).toEqual([404, { message: '404 InstanceVariable Not Found' }])
  })

  it('validates as project variables do, one key per instance', async () => {
    const taken = await root().post('/admin/ci/variables', { key: 'GLOBAL', value: 'again' })
    expect([taken.status, taken.body]).toEqual([400, { message: { key: ['(GLOBAL) has already been taken'] } }])
    const unmaskable = await root().put('/admin/ci/variables/GLOBAL', { value: 'short' })
    expect([unmaskable.status, unmaskable.body]).toEqual([400, { message: { value: ['is invalid'] } }])
    const badKey = await root().post('/admin/ci/variables', { key: 'a.b', value: 'v' })
    expect([badKey.status, badKey.body]).toEqual([400, { message: { key: ["can contain only letters, digits and '_'."] } }])
  })

  it('answers 403 to users who are not administrators, 401 without credentials', async () => {
    for (const res of [await owner.api.get('/admin/ci/variables'), await owner.api.post('/admin/ci/variables', { key: 'K', value: 'v' }), await owner.api.get('/admin/ci/variables/GLOBAL')]) {
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    expect((await api(server).get('/admin/ci/variables')).status).toBe(401)
  })
})
