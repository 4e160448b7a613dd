// Project CI/CD variables: CRUD for Maintainers, GitLab's key and masked-value rules, environment scopes and the filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CiVariable } from '../../../../src/contract/entities/jobs.js'
import { expectStatus } from '../../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, type CiWorld } from './fixture.js'

let server: TestServer
let w: CiWorld
let vars: string

const variable = (over: Record<string, unknown>) => ({
  variable_type: 'env_var', key: 'KEY', value: 'value', protected: false, masked: false, raw: false, environment_scope: '*', description: null, ...over,
})

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  vars = `/projects/${w.project.id}/variables`
})
afterAll(() => server.close())

describe('create, read, update, delete', () => {
  it('creates a variable (201) with defaults, and reads it back in the list and alone', async () => {
    const res = expectStatus(await w.maintainer.api.post(vars, { key: 'DEPLOY_USER', value: 'deployer' }), 201)
    CiVariable.strict().parse(res.body)
    expect(res.body).toEqual(variable({ key: 'DEPLOY_USER', value: 'deployer' }))
    expect(expectStatus(await w.maintainer.api.get(`${vars}/DEPLOY_USER`), 200).body).toEqual(res.body)
    expect(expectStatus(await w.maintainer.api.get(vars), 200).body).toEqual([res.body])
  })

  it('takes every field from a form as python-gitlab sends it', async () => {
    const res = expectStatus(await w.maintainer.api.request('POST', vars, {
      form: { key: 'TOKEN_FILE', value: 'abcdefgh12345678', variable_type: 'file', protected: 'True', masked: 'true', environment_scope: 'production', description: 'for deploys' },
    }), 201)
    expect(res.body).toEqual(variable({
      key: 'TOKEN_FILE', value: 'abcdefgh12345678', variable_type: 'file', protected: true, masked: true, environment_scope: 'production', description: 'for deploys',
    }))
  })

  it('updates a variable in place (200) without renaming it', async () => {
    const res = expectStatus(await w.maintainer.api.put(`${vars}/DEPLOY_USER`, { value: 'robot', protected: true, key: 'OTHER' }), 200)
    expect(res.body).toEqual(variable({ key: 'DEPLOY_USER', value: 'robot', protected: true }))
    expect(expectStatus(await w.maintainer.api.get(`${vars}/DEPLOY_USER`), 200).body.value).toBe('robot')
  })

  it('deletes a variable (204), then it is 404', async () => {
    expectStatus(await w.maintainer.api.post(vars, { key: 'TEMP', value: 't' }), 201)
    expect((await w.maintainer.api.del(`${vars}/TEMP`)).status).toBe(204)
    for (const res of [await w.maintainer.api.get(`${vars}/TEMP`), await w.maintainer.api.del(`${vars}/TEMP`), await w.maintainer.api.put(`${vars}/TEMP`, { value: 'x' })]) {
      expect([res.status, res.body]).toEqual([404, { message: '404 Variable Not Found' }])
    }
  })
})

describe('environment scopes', () => {
  it('keeps one key per scope, picks one with filter[environment_scope], and answers 409 when several match', async () => {
    expectStatus(await w.maintainer.api.post(vars, { key: 'URL', value: 'staging.example', environment_scope: 'staging' }), 201)
    expectStatus(await w.maintainer.api.post(vars, { key: 'URL', value: 'prod.example', environment_scope: 'production' }), 201)
    const ambiguous = await w.maintainer.api.get(`${vars}/URL`)
    expect([ambiguous.status, ambiguous.body]).toEqual([409, { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" }])
    const prod = expectStatus(await w.maintainer.api.get(`${vars}/URL`, { query: 'filter[environment_scope]=production' }), 200)
    expect(prod.body.value).toBe('prod.example')
    expectStatus(await w.maintainer.api.put(`${vars}/URL`, { value: 'new.staging' }, { query: 'filter[environment_scope]=staging' }), 200)
    expect((await w.maintainer.api.del(`${vars}/URL`, { query: 'filter[environment_scope]=production' })).status).toBe(204)
    expect(expectStatus(await w.maintainer.api.get(`${vars}/URL`), 200).body).toEqual(variable({ key: 'URL', value: 'new.staging', environment_scope: 'staging' }))
  })
})

describe('refusals', () => {
  it('answers 400 with the model errors for a taken key, a bad key and an unmaskable value', async () => {
    const taken = await w.maintainer.api.post(vars, { key: 'DEPLOY_USER', value: 'again' })
    expect([taken.status, taken.body]).toEqual([400, { message: { key: ['(DEPLOY_USER) has already been taken'] } }])
    const badKey = await w.maintainer.api.post(vars, { key: 'NO-DASHES', value: 'v' })
    expect([badKey.status, badKey.body]).toEqual([400, { message: { key: ["can contain only letters, digits and '_'."] } }])
    for (const value of ['short', 'has a space in it', 'line\nbreak-in-it', 'quote"character']) {
      const res = await w.maintainer.api.post(vars, { key: 'MASKED', value, masked: true })
      expect([value, res.status, res.body]).toEqual([value, 400, { message: { value: ['is invalid'] } }])
    }
    // Raw masked values may hold any non-space character.
    expectStatus(await w.maintainer.api.post(vars, { key: 'MASKED', value: 'quote"character', masked: true, raw: true }), 201)
    const unmask = await w.maintainer.api.put(`${vars}/DEPLOY_USER`, { masked: true, value: 'tiny' })
    expect([unmask.status, unmask.body]).toEqual([400, { message: { value: ['is invalid'] } }])
  })

  it("answers 400 for a missing key or value and an unknown variable_type", async () => {
    const noValue = await w.maintainer.api.post(vars, { key: 'X' })
    expect([noValue.status, noValue.body]).toEqual([400, { message: '400 (Bad request) "value" not given' }])
    const badType = await w.maintainer.api.post(vars, { key: 'X', value: 'v', variable_type: 'secret' })
    expect([badType.status, badType.body]).toEqual([400, { message: { variable_type: ['does not have a valid value'] } }])
  })

  it('refuses Developers (403) and hides the project from strangers (404)', async () => {
    for (const call of [() => w.developer.api.get(vars), () => w.developer.api.post(vars, { key: 'D', value: 'd' }), () => w.developer.api.get(`${vars}/DEPLOY_USER`)]) {
      const res = await call()
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    const stranger = await w.stranger.api.get(vars)
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }])
    expectStatus(await w.owner.api.get(vars), 200)
  })
})
