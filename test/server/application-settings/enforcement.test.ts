// Settings that change what collab does: each test changes one and sees the behaviour change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, request } from '../../helpers/api.js'
import { ROOT_PASSWORD } from '../../helpers/server.js'
import { settingsFixture, type SettingsFixture } from '../../helpers/settings.js'
import { postSignIn } from '../../helpers/web-sign-in.js'
import { gitOverHttpAllowed } from '../../../src/server/services/instance/application-settings.js'
import { callerFromGitPassword } from '../../../src/server/services/users/auth.js'

const START = '2024-01-02T03:04:05.000Z'
let clock: SettingsFixture['clock']
let server: SettingsFixture['server']
let root: SettingsFixture['root']
let alice: SettingsFixture['alice']
let set: SettingsFixture['set']

beforeEach(async () => {
  ;({ clock, server, root, alice, set } = await settingsFixture(START))
})
afterEach(() => server.close())

describe('default_project_visibility', () => {
  it('is the visibility of a project created without one', async () => {
    expect((await createProject(alice.api, { name: 'before' })).visibility).toBe('private')
    await set({ default_project_visibility: 'internal' })
    expect((await createProject(alice.api, { name: 'after' })).visibility).toBe('internal')
    expect((await createProject(alice.api, { name: 'chosen', visibility: 'public' })).visibility).toBe('public')
  })
})

describe('restricted_visibility_levels', () => {
  const refusal = { message: { visibility_level: ['Public visibility has been restricted by your GitLab administrator'] } }

  it('refuses a non-administrator creating a project at a restricted level, and creates nothing', async () => {
    await set({ restricted_visibility_levels: ['public'] })
    expect(await alice.api.post('/projects', { name: 'open', visibility: 'public' })).toMatchObject({ status: 400, body: refusal })
    expect((await alice.api.get('/projects', { query: { owned: true } })).body).toEqual([])
    expect((await createProject(alice.api, { name: 'inner', visibility: 'internal' })).visibility).toBe('internal')
  })

  it('refuses the default visibility too when it is restricted', async () => {
    await set({ restricted_visibility_levels: ['private'] })
    const res = await alice.api.post('/projects', { name: 'hidden' })
    expect(res).toMatchObject({ status: 400, body: { message: { visibility_level: ['Private visibility has been restricted by your GitLab administrator'] } } })
  })

  it('refuses switching an existing project to a restricted level, and leaves it as it was', async () => {
    const p = await createProject(alice.api, { name: 'demo', visibility: 'private' })
    await set({ restricted_visibility_levels: ['public'] })
    expect(await alice.api.put(`/projects/${p.id}`, { visibility: 'public' })).toMatchObject({ status: 400, body: refusal })
    expect((await alice.api.get(`/projects/${p.id}`)).body.visibility).toBe('private')
    expect((await alice.api.put(`/projects/${p.id}`, { visibility: 'internal' })).body.visibility).toBe('internal')
  })

  it('lets an administrator use any level', async () => {
    await set({ restricted_visibility_levels: ['public', 'internal'] })
    const p = await createProject(root, { name: 'admins', visibility: 'public' })
    expect(p.visibility).toBe('public')
    expect(expectStatus(await root.put(`/projects/${p.id}`, { visibility: 'internal' }), 200).body.visibility).toBe('internal')
  })

  it('hides user profiles from anonymous callers when the public level is restricted', async () => {
    const anonymous = api(server)
    expectStatus(await anonymous.get(`/users/${alice.id}`), 200)
    expect(expectStatus(await anonymous.get('/users', { query: { username: 'alice' } }), 200).body).toHaveLength(1)
    await set({ restricted_visibility_levels: ['public'] })
    expect(await anonymous.get(`/users/${alice.id}`)).toMatchObject({ status: 404, body: { message: '404 User Not Found' } })
    expect(await anonymous.get('/users', { query: { username: 'alice' } })).toMatchObject({ status: 403, body: { message: '403 Forbidden - Not authorized to access /api/v4/users' } })
    expectStatus(await alice.api.get(`/users/${alice.id}`), 200)
  })

  it('gives a fork the closest allowed level below the one it would have, as GitLab does', async () => {
    const source = await createProject(root, { name: 'upstream', visibility: 'public' })
    await set({ restricted_visibility_levels: ['public'] })
    const fork = expectStatus(await alice.api.post(`/projects/${source.id}/fork`, {}), 201).body
    expect(fork.visibility).toBe('internal')
    await set({ restricted_visibility_levels: ['public', 'internal'] })
    const other = expectStatus(await alice.api.post(`/projects/${source.id}/fork`, { path: 'second', name: 'second' }), 201).body
    expect(other.visibility).toBe('private')
  })
})

describe('default_group_visibility and restricted levels for groups', () => {
  it('is the visibility of a group created without one; a restricted level is refused to non-administrators', async () => {
    await set({ default_group_visibility: 'internal', restricted_visibility_levels: ['public'] })
    expect((await createGroup(alice.api, { name: 'team', path: 'team' })).visibility).toBe('internal')
    expect(await alice.api.post('/groups', { name: 'open', path: 'open', visibility: 'public' })).toMatchObject({
      status: 400, body: { message: 'Failed to save group {:visibility_level=>["Public visibility has been restricted by your GitLab administrator"]}' },
    })
    expect((await createGroup(root, { name: 'open', path: 'open', visibility: 'public' })).visibility).toBe('public')
  })
})

describe('default_projects_limit', () => {
  it("is a new user's projects_limit; users created before keep theirs", async () => {
    await set({ default_projects_limit: 2 })
    const bob = await createUser(server, 'bob')
    expect(expectStatus(await root.get(`/users/${bob.id}`), 200).body.projects_limit).toBe(2)
    expect(expectStatus(await root.get(`/users/${alice.id}`), 200).body.projects_limit).toBe(100000)
    const carol = expectStatus(await root.post('/users', { username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'carol-password', projects_limit: 7 }), 201).body
    expect(carol.projects_limit).toBe(7)
  })

  it('refuses a personal project beyond the limit with limit_reached; group projects do not count', async () => {
    await set({ default_projects_limit: 1 })
    const bob = await createUser(server, 'bob')
    expect((await bob.api.get('/user')).body.can_create_project).toBe(true)
    await createProject(bob.api, { name: 'first' })
    // GitLab's can_create_project is projects_limit_left > 0: the one allowed personal project is used up.
    expect((await bob.api.get('/user')).body.can_create_project).toBe(false)
    expect((await root.get(`/users/${bob.id}`)).body.can_create_project).toBe(false)
    expect(await bob.api.post('/projects', { name: 'second' })).toMatchObject({
      status: 400, body: { message: { limit_reached: ['Your project limit is 1 projects! Please contact your administrator to increase it'] } },
    })
    const group = await createGroup(bob.api, { name: 'team', path: 'team' })
    expect((await createProject(bob.api, { name: 'shared', namespace_id: group.id })).namespace.full_path).toBe('team')
  })

  it('refuses any personal project, and forks into the personal namespace, with a limit of 0', async () => {
    await set({ default_projects_limit: 0 })
    const bob = await createUser(server, 'bob')
    const message = { limit_reached: ['Personal project creation is not allowed. Please contact your administrator with questions'] }
    expect(await bob.api.post('/projects', { name: 'none' })).toMatchObject({ status: 400, body: { message } })
    const source = await createProject(root, { name: 'upstream', visibility: 'public' })
    expect(await bob.api.post(`/projects/${source.id}/fork`, {})).toMatchObject({ status: 400, body: { message } })
  })
})

describe('user_default_external', () => {
  it('makes new users external unless the administrator says otherwise', async () => {
    await set({ user_default_external: true })
    const bob = await createUser(server, 'bob')
    expect(expectStatus(await root.get(`/users/${bob.id}`), 200).body.external).toBe(true)
    const carol = expectStatus(await root.post('/users', { username: 'carol', email: 'carol@example.com', name: 'Carol', password: 'carol-password', external: false }), 201).body
    expect(carol.external).toBe(false)
    expect(expectStatus(await root.get(`/users/${alice.id}`), 200).body.external).toBe(false)
  })
})

const signIn = (login: string, password: string) =>
  postSignIn(server, { 'user[login]': login, 'user[password]': password })

describe('session_expire_delay', () => {
  it('is the life of the next session cookie, in minutes', async () => {
    await set({ session_expire_delay: 90 })
    const res = await signIn('alice', alice.password)
    expect(res.status).toBe(302)
    expect(res.headers.get('set-cookie')).toContain('Expires=Tue, 02 Jan 2024 04:34:05 GMT')
    const cookie = res.headers.get('set-cookie')!.split(';')[0]
    clock.advance(89 * 60_000)
    expect((await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(200)
    clock.advance(2 * 60_000)
    expect((await request(server, 'GET', '/api/v4/user', { headers: { Cookie: cookie } })).status).toBe(401)
  })
})

describe('password_authentication_enabled_for_web', () => {
  const grant = (username: string, password: string) =>
    request(server, 'POST', '/oauth/token', { form: { grant_type: 'password', username, password } })

  it('turns off the OAuth password grant (invalid_grant) and the web sign-in, and back on', async () => {
    expect((await grant('root', ROOT_PASSWORD)).status).toBe(200)
    await set({ password_authentication_enabled_for_web: false })
    expect(await grant('root', ROOT_PASSWORD)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    const refused = await signIn('alice', alice.password)
    expect(refused).toMatchObject({ status: 401, body: { message: 'Invalid login or password.' } })
    expect(refused.headers.get('set-cookie')).toBeNull()
    await set({ signin_enabled: true })
    expect((await grant('root', ROOT_PASSWORD)).status).toBe(200)
    expect((await signIn('alice', alice.password)).status).toBe(302)
  })

  it('leaves tokens working', async () => {
    await set({ password_authentication_enabled_for_web: false })
    expect(expectStatus(await alice.api.get('/user'), 200).body.username).toBe('alice')
  })
})

describe('password_authentication_enabled_for_git', () => {
  it('lets git over HTTP sign in with an account password only while it is on', async () => {
    expect((await callerFromGitPassword(server.app, 'alice', alice.password))?.user?.username).toBe('alice')
    expect(await callerFromGitPassword(server.app, 'alice', 'wrong')).toBeNull()
    await set({ password_authentication_enabled_for_git: false })
    await expect(callerFromGitPassword(server.app, 'alice', alice.password)).rejects.toThrow(/You must use a personal access token/)
    expect(await callerFromGitPassword(server.app, 'alice', 'wrong')).toBeNull()
  })
})

describe('enabled_git_access_protocol', () => {
  it('turns git over HTTP off when it is ssh alone', async () => {
    expect(gitOverHttpAllowed(server.app)).toBe(true)
    await set({ enabled_git_access_protocol: 'ssh' })
    expect(gitOverHttpAllowed(server.app)).toBe(false)
    await set({ enabled_git_access_protocol: 'http' })
    expect(gitOverHttpAllowed(server.app)).toBe(true)
  })
})

describe('max_attachment_size', () => {
  function multipart(fields: Record<string, string>, file: { name: string; size: number }) {
    const boundary = '----collab-test-boundary'
    const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="blob.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
    const body = Buffer.concat([Buffer.from(parts.join('') + head), Buffer.alloc(file.size, 0x61), Buffer.from(`\r\n--${boundary}--\r\n`)])
    return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'PRIVATE-TOKEN': alice.token } }
  }

  it('answers 413 to an upload above it, and takes the same upload once the limit is raised', async () => {
    await set({ max_attachment_size: 1 })
    const big = multipart({ name: 'upload' }, { name: 'avatar', size: 1.5 * 1024 * 1024 })
    const refused = await request(server, 'POST', '/api/v4/projects', big)
    expect(refused).toMatchObject({ status: 413, body: { message: '413 Request Entity Too Large' } })
    await set({ max_attachment_size: 2 })
    expect((await request(server, 'POST', '/api/v4/projects', big)).status).toBe(201)
  })
})
