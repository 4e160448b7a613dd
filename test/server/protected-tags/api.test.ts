// The protected_tags API (list, get, protect, unprotect; Maintainers only) and what it guards in the tags API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtectedTag } from '../../../src/contract/entities/protected-tags.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let mia: TestUser
let dave: TestUser
let rita: TestUser
let id: number

const rules = () => `/projects/${id}/protected_tags`
const enc = encodeURIComponent
const levels = (id: number, level: number, description: string) =>
  [{ id, access_level: level, access_level_description: description, deploy_key_id: null, user_id: null, group_id: null }]
const tagNames = async () => expectStatus(await root.get(`${repo(id)}/tags`), 200).body.map((t: { name: string }) => t.name).sort()

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  mia = await createUser(server, 'mia')
  dave = await createUser(server, 'dave')
  rita = await createUser(server, 'rita')
  id = (await createProject(alice.api, { name: 'tagged', initialize_with_readme: true })).id
  for (const [u, level] of [[mia, 40], [dave, 30], [rita, 20]] as const) {
    expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: u.id, access_level: level }), 201)
  }
})
afterAll(() => server.close())

describe('POST /projects/:id/protected_tags', () => {
  it('protects a name or wildcard, Maintainers only by default, and answers GitLab\'s entity', async () => {
    const res = expectStatus(await mia.api.post(rules(), { name: 'v*' }), 201)
    expect(res.body).toEqual({ name: 'v*', create_access_levels: levels(1, 40, 'Maintainers') })
    expect(ProtectedTag.parse(res.body)).toEqual(res.body)
    const devs = expectStatus(await mia.api.post(rules(), { name: 'dev-*', create_access_level: 30 }), 201)
    expect(devs.body).toEqual({ name: 'dev-*', create_access_levels: levels(2, 30, 'Developers + Maintainers') })
    const frozen = expectStatus(await mia.api.post(rules(), { name: 'frozen', allowed_to_create: [{ access_level: 0 }] }), 201)
    expect(frozen.body.create_access_levels).toEqual(levels(3, 0, 'No one'))
  })

  it('answers 422 "Name has already been taken" for a name already protected, and keeps the first rule', async () => {
    const res = await mia.api.post(rules(), { name: 'v*', create_access_level: 30 })
    expect([res.status, res.body]).toEqual([422, { message: ['Name has already been taken'] }])
    expect(expectStatus(await mia.api.get(`${rules()}/${enc('v*')}`), 200).body.create_access_levels[0].access_level).toBe(40)
  })

  it('refuses a missing name (400), a blank one (422) and a level GitLab does not know (400)', async () => {
    expect((await mia.api.post(rules(), {})).body).toEqual({ message: '400 (Bad request) "name" not given' })
    expect((await mia.api.post(rules(), { name: ' ' })).body).toEqual({ message: ["Name can't be blank"] })
    const bad = await mia.api.post(rules(), { name: 'x', create_access_level: 20 })
    expect([bad.status, bad.body]).toEqual([400, { message: { create_access_level: ['does not have a valid value'] } }])
  })
})

describe('GET and DELETE /projects/:id/protected_tags', () => {
  it('lists the rules (paginated) and gets one by its exact name', async () => {
    const list = expectStatus(await mia.api.get(rules(), { query: { per_page: 2 } }), 200)
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(['v*', 'dev-*'])
    expect(list.headers.get('x-total')).toBe('3')
    expect(expectStatus(await mia.api.get(`${rules()}/frozen`), 200).body).toEqual({ name: 'frozen', create_access_levels: levels(3, 0, 'No one') })
    const missing = await mia.api.get(`${rules()}/v1.0`)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }])
  })

  it('is for Maintainers: a Developer gets 403 on every route, a stranger to a private project 404', async () => {
    for (const res of [await dave.api.get(rules()), await dave.api.get(`${rules()}/frozen`), await dave.api.post(rules(), { name: 'd' }), await dave.api.del(`${rules()}/frozen`)]) {
      expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    }
    const stranger = await createUser(server, 'stranger')
    expect((await stranger.api.get(rules())).status).toBe(404)
  })

  it('unprotects with 204, then 404 for the same name', async () => {
    expectStatus(await mia.api.post(rules(), { name: 'gone' }), 201)
    expect((await mia.api.del(`${rules()}/gone`)).status).toBe(204)
    expect((await mia.api.del(`${rules()}/gone`)).status).toBe(404)
  })
})

describe('the tags API under protected tags', () => {
  const createTag = (as: Api, tag_name: string) => as.post(`${repo(id)}/tags`, { tag_name, ref: 'main' })
  const REFUSED = 'You are not allowed to create this tag as it is protected.'

  it('refuses a Developer a protected tag with the hook\'s message (400) and creates nothing', async () => {
    const res = await createTag(dave.api, 'v1.0')
    expect([res.status, res.body]).toEqual([400, { message: REFUSED }])
    expect(await tagNames()).not.toContain('v1.0')
  })

  it('lets a Developer create an unprotected tag, or one a rule opens to Developers; a Reporter none (403)', async () => {
    expectStatus(await createTag(dave.api, 'beta'), 201)
    expectStatus(await createTag(dave.api, 'dev-1'), 201)
    expect((await createTag(rita.api, 'rc')).status).toBe(403)
  })

  it('lets a Maintainer create a protected tag, and no one one whose level is No one (0), administrators included', async () => {
    expectStatus(await createTag(mia.api, 'v1.0'), 201)
    const res = await createTag(root, 'frozen')
    expect([res.status, res.body]).toEqual([400, { message: REFUSED }])
  })

  it('refuses a tag named as the default branch or like a commit id, as GitLab\'s tag checks do', async () => {
    const sameAsBranch = await createTag(mia.api, 'main')
    expect([sameAsBranch.status, sameAsBranch.body]).toEqual([400, { message: 'You cannot use default branch name to create a tag' }])
    const shaLike = await createTag(mia.api, 'a'.repeat(40))
    expect([shaLike.status, shaLike.body]).toEqual([400, { message: 'You cannot create a tag with a SHA-1 or SHA-256 tag name.' }])
  })

  it('deletes a protected tag only for a Maintainer (a Developer gets 403); unprotected ones go for Developers', async () => {
    const byDave = await dave.api.del(`${repo(id)}/tags/v1.0`)
    expect([byDave.status, byDave.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await tagNames()).toContain('v1.0')
    expect((await dave.api.del(`${repo(id)}/tags/beta`)).status).toBe(204)
    expect((await mia.api.del(`${repo(id)}/tags/v1.0`)).status).toBe(204)
    expect(await tagNames()).toEqual(['dev-1'])
  })

  it('refuses deleting a protected tag to a Maintainer who may not create it (the hook\'s 400)', async () => {
    expectStatus(await createTag(mia.api, 'release'), 201)
    expectStatus(await mia.api.post(rules(), { name: 'release', create_access_level: 0 }), 201)
    const res = await mia.api.del(`${repo(id)}/tags/release`)
    expect([res.status, res.body]).toEqual([400, { message: REFUSED }])
    expect(await tagNames()).toEqual(['dev-1', 'release'])
  })
})
