// The protected_branches API: list, get (wildcards and slashes URL-encoded), protect, PATCH, unprotect, the legacy routes; Maintainers only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtectedBranch } from '../../../src/contract/entities/protected-branches.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let mia: TestUser
let dave: TestUser
let id: number

const rules = (projectId = id) => `/projects/${projectId}/protected_branches`
const enc = encodeURIComponent

const push = (id: number, level: number, description: string) =>
  [{ id, access_level: level, access_level_description: description, deploy_key_id: null, user_id: null, group_id: null }]
const merge = (id: number, level: number, description: string) =>
  [{ id, access_level: level, access_level_description: description, user_id: null, group_id: null }]
const MASTER = {
  id: 1, name: 'main', push_access_levels: push(1, 40, 'Maintainers'), merge_access_levels: merge(1, 40, 'Maintainers'),
  unprotect_access_levels: [], allow_force_push: false, code_owner_approval_required: false,
}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  mia = await createUser(server, 'mia', { name: 'Mia Maintainer' })
  dave = await createUser(server, 'dave', { name: 'Dave Developer' })
  // initialize_with_readme makes main, which default_branch_protection (2) protects as rule 1.
  const p = await createProject(alice.api, { name: 'guarded', initialize_with_readme: true })
  id = p.id
  expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: mia.id, access_level: 40 }), 201)
  expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: dave.id, access_level: 30 }), 201)
  await commit(alice.api, id, { branch: 'feature/login', start_branch: 'main', commit_message: 'Login', actions: [create('l.txt', 'l\n')] })
})
afterAll(() => server.close())

describe('GET /projects/:id/protected_branches', () => {
  it('lists the rules with their access levels, paginated', async () => {
    const res = expectStatus(await mia.api.get(rules()), 200)
    for (const r of res.body) ProtectedBranch.strict().parse(r)
    expect(res.body).toEqual([MASTER])
    expect([res.headers.get('x-total'), res.headers.get('x-page'), res.headers.get('x-per-page')]).toEqual(['1', '1', '20'])
  })

  it('answers 403 to a Developer and 404 to a stranger, reads included', async () => {
    expect((await dave.api.get(rules())).body).toEqual({ message: '403 Forbidden' })
    expect((await dave.api.get(rules())).status).toBe(403)
    const stranger = await createUser(server, 'stranger')
    const res = await stranger.api.get(rules())
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

describe('POST /projects/:id/protected_branches', () => {
  it('protects a wildcard with the given levels and answers 201 with the rule, which reads back by its URL-encoded name', async () => {
    const res = expectStatus(await mia.api.post(rules(), { name: 'release/*', push_access_level: 30, merge_access_level: 0, allow_force_push: true }), 201)
    const expected = {
      id: 2, name: 'release/*', push_access_levels: push(2, 30, 'Developers + Maintainers'), merge_access_levels: merge(2, 0, 'No one'),
      unprotect_access_levels: [], allow_force_push: true, code_owner_approval_required: false,
    }
    expect(res.body).toEqual(expected)
    expect(expectStatus(await mia.api.get(`${rules()}/${enc('release/*')}`), 200).body).toEqual(expected)
    expect(expectStatus(await mia.api.get(rules()), 200).body).toEqual([MASTER, expected])
  })

  it('defaults both levels to Maintainers and takes unprotect_access_level and code_owner_approval_required', async () => {
    const res = expectStatus(await alice.api.post(rules(), { name: 'stable', unprotect_access_level: 40, code_owner_approval_required: 'true' }), 201)
    expect(res.body).toEqual({
      id: 3, name: 'stable', push_access_levels: push(3, 40, 'Maintainers'), merge_access_levels: merge(3, 40, 'Maintainers'),
      unprotect_access_levels: merge(3, 40, 'Maintainers'), allow_force_push: false, code_owner_approval_required: true,
    })
  })

  it('takes allowed_to_push / allowed_to_merge lists (JSON or form), the widest level counting', async () => {
    const json = expectStatus(await mia.api.post(rules(), { name: 'json-*', allowed_to_push: [{ access_level: 40 }, { access_level: 30 }], allowed_to_merge: [{ access_level: 0 }] }), 201)
    expect([json.body.push_access_levels[0].access_level, json.body.merge_access_levels[0].access_level]).toEqual([30, 0])
    const form = expectStatus(await mia.api.request('POST', rules(), { form: 'name=form-branch&allowed_to_push[][access_level]=30&merge_access_level=30' }), 201)
    expect([form.body.push_access_levels[0].access_level, form.body.merge_access_levels[0].access_level]).toEqual([30, 30])
    const bad = await mia.api.post(rules(), { name: 'bad', allowed_to_push: [{ access_level: 10 }] })
    expect(bad.status).toBe(400)
    for (const name of ['json-*', 'form-branch']) expectStatus(await mia.api.del(`${rules()}/${enc(name)}`), 204)
  })

  it("answers 409 Protected branch '<name>' already exists, and changes nothing", async () => {
    const res = await mia.api.post(rules(), { name: 'main', push_access_level: 30 })
    expect([res.status, res.body]).toEqual([409, { message: "Protected branch 'main' already exists" }])
    expect((await mia.api.get(`${rules()}/main`)).body).toEqual(MASTER)
  })

  it('refuses a missing name, an unknown level and a Developer', async () => {
    const missing = await mia.api.post(rules(), { push_access_level: 30 })
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "name" not given' }])
    const level = await mia.api.post(rules(), { name: 'x', push_access_level: 20 })
    expect([level.status, level.body]).toEqual([400, { message: { push_access_level: ['does not have a valid value'] } }])
    const developer = await dave.api.post(rules(), { name: 'mine' })
    expect([developer.status, developer.body]).toEqual([403, { message: '403 Forbidden' }])
    expect((await mia.api.get(`${rules()}/x`)).status).toBe(404)
    expect((await mia.api.get(`${rules()}/mine`)).status).toBe(404)
  })
})

describe('GET, PATCH and DELETE /projects/:id/protected_branches/:name', () => {
  it('answers 404 Not found for a name without a rule, even one a wildcard covers', async () => {
    const res = await mia.api.get(`${rules()}/${enc('release/1.0')}`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('PATCH changes allow_force_push and the levels, and reads back', async () => {
    expectStatus(await mia.api.post(rules(), { name: 'patch-me' }), 201)
    const res = expectStatus(await mia.api.request('PATCH', `${rules()}/patch-me`, { json: { allow_force_push: true, merge_access_level: 30 } }), 200)
    expect(res.body).toMatchObject({ name: 'patch-me', allow_force_push: true, merge_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }] })
    expect((await mia.api.get(`${rules()}/patch-me`)).body).toEqual(res.body)
    expect((await dave.api.request('PATCH', `${rules()}/patch-me`, { json: { allow_force_push: false } })).status).toBe(403)
  })

  it('DELETE answers 204 and the rule is gone; a second DELETE answers 404', async () => {
    expectStatus(await mia.api.post(rules(), { name: 'hot*fix' }), 201)
    expect((await dave.api.del(`${rules()}/${enc('hot*fix')}`)).status).toBe(403)
    const res = await mia.api.del(`${rules()}/${enc('hot*fix')}`)
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await mia.api.get(`${rules()}/${enc('hot*fix')}`)).status).toBe(404)
    const again = await mia.api.del(`${rules()}/${enc('hot*fix')}`)
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }])
  })
})

describe('unprotect_access_level', () => {
  it('lets only whom it names remove the rule: Administrators (60) keep Maintainers and owners out', async () => {
    expectStatus(await mia.api.post(rules(), { name: 'locked', unprotect_access_level: 60 }), 201)
    for (const who of [mia, alice]) {
      const res = await who.api.del(`${rules()}/locked`)
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    expect((await mia.api.get(`${rules()}/locked`)).status).toBe(200)
    expectStatus(await api(server, server.rootToken).del(`${rules()}/locked`), 204)
  })
})

describe('the legacy PUT /repository/branches/:branch/protect and /unprotect', () => {
  it('protects an existing branch with developers_can_push/merge and answers the branch record', async () => {
    const res = expectStatus(await mia.api.put(`${repo(id)}/branches/${enc('feature/login')}/protect`, { developers_can_push: true }), 200)
    expect(res.body).toMatchObject({ name: 'feature/login', protected: true, developers_can_push: true, developers_can_merge: false, can_push: true })
    const rule = expectStatus(await mia.api.get(`${rules()}/${enc('feature/login')}`), 200).body
    expect([rule.push_access_levels[0].access_level, rule.merge_access_levels[0].access_level]).toEqual([30, 40])
    // Again with only developers_can_merge: the push level stays.
    const again = expectStatus(await mia.api.put(`${repo(id)}/branches/${enc('feature/login')}/protect`, { developers_can_merge: true }), 200)
    expect(again.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true })
  })

  it('unprotects it, answering the branch record', async () => {
    const res = expectStatus(await mia.api.put(`${repo(id)}/branches/${enc('feature/login')}/unprotect`), 200)
    expect(res.body).toMatchObject({ name: 'feature/login', protected: false, developers_can_push: false, developers_can_merge: false })
    expect((await mia.api.get(`${rules()}/${enc('feature/login')}`)).status).toBe(404)
  })

  it('answers 404 Branch Not Found for a missing branch and 403 to a Developer', async () => {
    const missing = await mia.api.put(`${repo(id)}/branches/nope/protect`)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Branch Not Found' }])
    expect((await dave.api.put(`${repo(id)}/branches/main/unprotect`)).status).toBe(403)
    expect((await mia.api.get(`${rules()}/main`)).status).toBe(200)
  })
})

