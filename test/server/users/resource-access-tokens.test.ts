// Project and group access tokens: bot users and their membership, who may grant what, rotation, revocation, expiry;
// and rotating one's own personal access token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ResourceAccessToken, ResourceAccessTokenWithToken } from '../../../src/contract/entities/resource-access-tokens.js'
import { User } from '../../../src/contract/entities/users.js'
import { api, createGroup, createProject, createUser, expectStatus, movableClock, type Api, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
const clock = movableClock(NOW)
let server: TestServer
let root: Api
let owner: TestUser
let maintainer: TestUser
let developer: TestUser
let project: any
let group: any

beforeAll(async () => {
  server = await startTestServer({ clock })
  root = api(server, server.rootToken)
  owner = await createUser(server, 'owner')
  maintainer = await createUser(server, 'maint')
  developer = await createUser(server, 'dev')
  project = await createProject(owner.api, { name: 'app', visibility: 'private' })
  expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 }), 201)
  expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 }), 201)
  group = await createGroup(owner.api, { name: 'Team', path: 'team', visibility: 'private' })
  expectStatus(await owner.api.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 }), 201)
})
afterAll(() => server.close())

const tokensOf = (p: { id: number }) => `/projects/${p.id}/access_tokens`

describe('project access tokens', () => {
  let created: any

  it('creates a bot user, a Maintainer of the project by default, whose token expires in a year and works at once', async () => {
    const res = expectStatus(await maintainer.api.post(tokensOf(project), { name: 'deploy', scopes: ['api'], description: 'for CD' }), 201)
    created = ResourceAccessTokenWithToken.strict().parse(res.body)
    expect(created).toEqual({
      id: created.id, name: 'deploy', revoked: false, created_at: NOW, description: 'for CD', scopes: ['api'], user_id: created.user_id,
      last_used_at: null, active: true, expires_at: '2025-01-01', access_level: 40, resource_type: 'project', resource_id: project.id,
      token: created.token,
    })
    expect(created.token).toMatch(/^glpat-/)
    const bot = User.parse(expectStatus(await root.get(`/users/${created.user_id}`), 200).body)
    expect(bot.username).toMatch(new RegExp(`^project_${project.id}_bot_[0-9a-f]{32}$`))
    expect(bot).toMatchObject({ name: 'deploy', bot: true, state: 'active' })
    expect((await root.get(`/users/${owner.id}`)).body.bot).toBe(false)
    const named = (query: Record<string, string>) => root.get('/users', { query: { search: 'bot', per_page: 100, ...query } })
    expect((await named({})).body.map((u: any) => u.id)).toContain(bot.id)
    expect((await named({ without_project_bots: 'true' })).body.map((u: any) => u.id)).not.toContain(bot.id)
    const member = expectStatus(await owner.api.get(`/projects/${project.id}/members/${created.user_id}`), 200).body
    expect(member.access_level).toBe(40)
    const asBot = api(server, created.token)
    expect(expectStatus(await asBot.get('/user'), 200).body.username).toBe(bot.username)
    expect(expectStatus(await asBot.get(`/projects/${project.id}`), 200).body.id).toBe(project.id)
  })

  it('lists and reads the tokens for Maintainers, never with their secret', async () => {
    const list = expectStatus(await maintainer.api.get(tokensOf(project)), 200)
    const { token: _secret, ...shown } = created
    // Its last use is the bot's requests above.
    expect(list.body).toEqual([{ ...shown, last_used_at: NOW }])
    ResourceAccessToken.strict().parse(list.body[0])
    const one = expectStatus(await owner.api.get(`${tokensOf(project)}/${created.id}`), 200)
    expect(one.body).toEqual(list.body[0])
    expect((await owner.api.get(`${tokensOf(project)}/${owner.id + 1000}`)).text).toBe('{"message":"404 project Access Token Not Found"}')
  })

  it('refuses Developers, grants above the creator, unknown scopes and a lifetime past a year', async () => {
    expect((await developer.api.get(tokensOf(project))).status).toBe(401)
    const dev = await developer.api.post(tokensOf(project), { name: 'x', scopes: ['api'] })
    expect([dev.status, dev.body]).toEqual([400, { message: '400 Bad request - User does not have permission to create project access token' }])
    const above = await maintainer.api.post(tokensOf(project), { name: 'x', scopes: ['api'], access_level: 50 })
    expect([above.status, above.body]).toEqual([400, { message: '400 Bad request - Access level of the token contains permissions not held by the creating user' }])
    const scope = await maintainer.api.post(tokensOf(project), { name: 'x', scopes: ['api', 'sudo'] })
    expect([scope.status, scope.body]).toEqual([400, { message: { scopes: ['does not have a valid value'] } }])
    const level = await maintainer.api.post(tokensOf(project), { name: 'x', scopes: ['api'], access_level: 45 })
    expect([level.status, level.body]).toEqual([400, { message: { access_level: ['does not have a valid value'] } }])
    const blank = await maintainer.api.post(tokensOf(project), { name: ' ', scopes: ['api'] })
    expect([blank.status, blank.body]).toEqual([400, { message: "400 Bad request - Name can't be blank" }])
    const late = await maintainer.api.post(tokensOf(project), { name: 'x', scopes: ['api'], expires_at: '2025-01-02' })
    expect([late.status, late.body]).toEqual([400, { message: '400 Bad request - Expires at must be before 2025-01-01' }])
    // The owner may grant Owner; a read_repository token of a Reporter bot reads no API.
    const ownerLevel = expectStatus(await owner.api.post(tokensOf(project), { name: 'o', scopes: ['api'], access_level: 50, expires_at: '2024-06-01' }), 201)
    expect(ownerLevel.body).toMatchObject({ access_level: 50, expires_at: '2024-06-01' })
    // Not even an Owner-level bot makes bots.
    const byBot = await api(server, ownerLevel.body.token).post(tokensOf(project), { name: 'again', scopes: ['api'] })
    expect(byBot.body).toEqual({ message: '400 Bad request - User does not have permission to create project access token' })
    const reader = expectStatus(await owner.api.post(tokensOf(project), { name: 'r', scopes: ['read_repository'], access_level: 20 }), 201)
    expect((await api(server, reader.body.token).get(`/projects/${project.id}`)).status).toBe(403)
  })

  it('rotates: a new secret that lives a week, the old one revoked and refused', async () => {
    const res = expectStatus(await maintainer.api.post(`${tokensOf(project)}/${created.id}/rotate`), 200)
    const rotated = ResourceAccessTokenWithToken.strict().parse(res.body)
    expect(rotated).toEqual({ ...created, id: rotated.id, token: rotated.token, expires_at: '2024-01-09' })
    expect(rotated.id).not.toBe(created.id)
    expect(rotated.token).not.toBe(created.token)
    expect((await api(server, created.token).get('/user')).status).toBe(401)
    expect(expectStatus(await api(server, rotated.token).get('/user'), 200).body.id).toBe(created.user_id)
    const old = expectStatus(await owner.api.get(`${tokensOf(project)}/${created.id}`), 200).body
    expect(old).toMatchObject({ revoked: true, active: false })
    const again = await maintainer.api.post(`${tokensOf(project)}/${created.id}/rotate`)
    expect([again.status, again.body]).toEqual([400, { message: '400 Bad request - Token already revoked' }])
    // A Developer learns nothing; the administrator learns that a token does not exist.
    expect((await developer.api.post(`${tokensOf(project)}/${rotated.id}/rotate`)).status).toBe(401)
    expect((await root.post(`${tokensOf(project)}/999999/rotate`)).status).toBe(404)
    // A Maintainer may not rotate the Owner-level token.
    const ownerToken = (await owner.api.get(tokensOf(project), { query: { search: 'o', state: 'active' } })).body.find((t: any) => t.access_level === 50)
    const higher = await maintainer.api.post(`${tokensOf(project)}/${ownerToken.id}/rotate`)
    expect([higher.status, higher.body]).toEqual([400, { message: '400 Bad request - Not eligible to rotate tokens with permissions not held by the user' }])
    const inactive = (await owner.api.get(tokensOf(project), { query: { state: 'inactive' } })).body
    expect(inactive.map((t: any) => t.id)).toEqual([created.id])
    created = rotated
  })

  it('revokes: the token is refused and the bot user and its membership are gone', async () => {
    const dev = await developer.api.del(`${tokensOf(project)}/${created.id}`)
    expect([dev.status, dev.body]).toEqual([400, { message: `400 Bad request - User dev cannot delete deploy` }])
    expectStatus(await maintainer.api.del(`${tokensOf(project)}/${created.id}`), 204)
    expect((await api(server, created.token).get('/user')).status).toBe(401)
    expect((await root.get(`/users/${created.user_id}`)).status).toBe(404)
    expect((await owner.api.get(`/projects/${project.id}/members/${created.user_id}`)).status).toBe(404)
    expect((await owner.api.get(`${tokensOf(project)}/${created.id}`)).status).toBe(404)
  })

  it('refuses a token once its expiry day has passed', async () => {
    const t = expectStatus(await owner.api.post(tokensOf(project), { name: 'short', scopes: ['read_api'], expires_at: '2024-01-03' }), 201).body
    expectStatus(await api(server, t.token).get(`/projects/${project.id}`), 200)
    clock.set('2024-01-04T00:00:01Z')
    try {
      const res = await api(server, t.token).get(`/projects/${project.id}`)
      expect([res.status, res.body.error]).toEqual([401, 'invalid_token'])
      expect((await owner.api.get(`${tokensOf(project)}/${t.id}`)).body.active).toBe(false)
    } finally {
      clock.set(NOW)
    }
  })
})

describe('group access tokens', () => {
  it('are for owners; the bot reaches the group and the projects under it', async () => {
    const inner = await createProject(owner.api, { name: 'inner', namespace_id: group.id, visibility: 'private' })
    expect((await maintainer.api.get(`/groups/${group.id}/access_tokens`)).status).toBe(401)
    const denied = await maintainer.api.post(`/groups/${group.id}/access_tokens`, { name: 'g', scopes: ['api'] })
    expect(denied.body).toEqual({ message: '400 Bad request - User does not have permission to create group access token' })
    const t = expectStatus(await owner.api.post(`/groups/${group.id}/access_tokens`, { name: 'g', scopes: ['read_api'], access_level: 20 }), 201).body
    expect(t).toMatchObject({ resource_type: 'group', resource_id: group.id, access_level: 20 })
    expect((await root.get(`/users/${t.user_id}`)).body.username).toMatch(new RegExp(`^group_${group.id}_bot_`))
    expect(expectStatus(await api(server, t.token).get(`/projects/${inner.id}`), 200).body.id).toBe(inner.id)
    const listed = expectStatus(await owner.api.get(`/groups/${group.id}/access_tokens`), 200).body
    expect(listed.map((x: any) => x.id)).toEqual([t.id])
    expectStatus(await owner.api.del(`/groups/${group.id}/access_tokens/${t.id}`), 204)
    expect((await api(server, t.token).get(`/projects/${inner.id}`)).status).toBe(401)
  })
})

describe('a deleted project or group', () => {
  it('takes its bots out of service: their tokens are refused and they are blocked', async () => {
    const doomed = await createProject(owner.api, { name: 'doomed' })
    const t = expectStatus(await owner.api.post(tokensOf(doomed), { name: 'd', scopes: ['read_api'] }), 201).body
    expectStatus(await api(server, t.token).get('/user'), 200)
    expectStatus(await owner.api.del(`/projects/${doomed.id}`), 202)
    expect((await api(server, t.token).get('/user')).status).toBe(401)
    expect((await root.get(`/users/${t.user_id}`)).body.state).toBe('blocked')
  })
})

describe('POST /personal_access_tokens/self/rotate', () => {
  it('answers the successor with its secret; the token used is revoked', async () => {
    const user = await createUser(server, 'rotator')
    const before = expectStatus(await user.api.get('/personal_access_tokens/self'), 200).body
    const res = expectStatus(await user.api.post('/personal_access_tokens/self/rotate', { expires_at: '2024-02-01' }), 200)
    expect(res.body).toEqual({ ...before, id: res.body.id, expires_at: '2024-02-01', last_used_at: null, token: res.body.token })
    expect((await user.api.get('/user')).status).toBe(401)
    expect(expectStatus(await api(server, res.body.token).get('/user'), 200).body.id).toBe(user.id)
  })

  it('POST /personal_access_tokens/:id/rotate rotates one\'s own token, or anyone\'s for administrators', async () => {
    const user = await createUser(server, 'rotator2')
    const self = expectStatus(await user.api.get('/personal_access_tokens/self'), 200).body
    expect((await developer.api.post(`/personal_access_tokens/${self.id}/rotate`)).status).toBe(401)
    expect((await developer.api.post('/personal_access_tokens/999999/rotate')).status).toBe(401)
    expect((await root.post('/personal_access_tokens/999999/rotate')).text).toBe('{"message":"404 Not Found"}')
    const res = expectStatus(await root.post(`/personal_access_tokens/${self.id}/rotate`), 200)
    expect(res.body).toMatchObject({ name: self.name, user_id: user.id, expires_at: '2024-01-09', revoked: false })
    expect((await user.api.get('/user')).status).toBe(401)
    const again = expectStatus(await api(server, res.body.token).post(`/personal_access_tokens/${res.body.id}/rotate`, { expires_at: '2024-05-01' }), 200)
    expect(again.body.expires_at).toBe('2024-05-01')
  })
})
