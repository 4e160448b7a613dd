// PUT /users/:id and the state changes block, unblock, ban, unban, activate and deactivate.
import { describe, expect, it } from 'vitest'
import { api, createUser, request, type Api, type TestUser } from '../../helpers/api.js'
import { adminFixture, answer, NOW } from './fixture.js'

const f = adminFixture()

describe('PUT /users/:id', () => {
  it('changes profile fields, admin and the username, and the personal namespace follows', async () => {
    const u = await createUser(f.server, 'carol')
    const res = await f.root.put(`/users/${u.id}`, { name: 'Carol C', username: 'carol2', bio: 'hi', admin: true, external: true, projects_limit: 3, note: 'n' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: u.id, username: 'carol2', name: 'Carol C', bio: 'hi', is_admin: true, external: true, projects_limit: 3, note: 'n', web_url: `${f.server.url}/carol2` })
    const ns = await f.root.get('/namespaces/carol2')
    expect([ns.status, ns.body.name, ns.body.full_path]).toEqual([200, 'Carol C', 'carol2'])
  })

  it('sets a new password that then signs in', async () => {
    const u = await createUser(f.server, 'dave')
    expect((await f.root.put(`/users/${u.id}`, { password: 'a-new-password-9' })).status).toBe(200)
    const grant = await request(f.server, 'POST', '/oauth/token', { json: { grant_type: 'password', username: 'dave', password: 'a-new-password-9' } })
    expect(grant.status).toBe(200)
  })

  it.each([
    [{ email: 'bob@example.com' }, 409, '{"message":"Email has already been taken"}'],
    [{ username: 'BOB' }, 409, '{"message":"Username has already been taken"}'],
    [{ password: 'short' }, 400, '{"message":{"password":["is too short (minimum is 8 characters)"]}}'],
    [{ email: 'nope' }, 400, '{"message":{"email":["is invalid"]}}'],
    [{ projects_limit: 'x' }, 400, '{"message":{"projects_limit":["is invalid"]}}'],
  ])('refuses %j', async (body, status, text) => {
    expect(answer(await f.root.put(`/users/${f.alice.id}`, body))).toEqual([status, text])
  })

  it('answers 404 for an unknown user and 403 for a non-administrator', async () => {
    expect(answer(await f.root.put('/users/9999', { name: 'x' }))).toEqual([404, '{"message":"404 User Not Found"}'])
    expect(answer(await f.alice.api.put(`/users/${f.bob.id}`, { name: 'x' }))).toEqual([403, '{"message":"403 Forbidden"}'])
  })
})

describe('block and unblock', () => {
  it('blocks a user, whose token stops working at once, and unblocks them', async () => {
    const u = await createUser(f.server, 'erin')
    expect((await u.api.get('/user')).status).toBe(200)
    expect(answer(await f.root.post(`/users/${u.id}/block`))).toEqual([201, 'true'])
    expect(answer(await u.api.get('/user'))).toEqual([403, '{"message":"403 Forbidden - Your account has been blocked."}'])
    expect((await f.root.get(`/users/${u.id}`)).body.state).toBe('blocked')
    expect(answer(await f.root.post(`/users/${u.id}/block`))).toEqual([201, 'null'])
    expect(answer(await f.root.post(`/users/${u.id}/activate`))).toEqual([403, '{"message":"403 Forbidden - A blocked user must be unblocked to be activated"}'])
    expect(answer(await f.root.post(`/users/${u.id}/unblock`))).toEqual([201, 'true'])
    expect((await u.api.get('/user')).status).toBe(200)
    expect(answer(await f.root.post(`/users/${u.id}/unblock`))).toEqual([201, 'false'])
  })

  it('refuses to block the caller and answers 404 and 403 as GitLab', async () => {
    const me = (await f.root.get('/user')).body.id
    expect(answer(await f.root.post(`/users/${me}/block`))).toEqual([403, '{"message":"403 Forbidden - The API initiating user cannot be blocked by the API"}'])
    expect(answer(await f.root.post('/users/9999/block'))).toEqual([404, '{"message":"404 User Not Found"}'])
    expect(answer(await f.alice.api.post(`/users/${f.bob.id}/block`))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.root.post('/users/abc/block'))).toEqual([400, '{"message":{"id":["is invalid"]}}'])
  })
})

describe('ban and unban', () => {
  it('bans an active user, whose token answers as a blocked one, and unbans them', async () => {
    const u = await createUser(f.server, 'frank')
    expect(answer(await f.root.post(`/users/${u.id}/ban`))).toEqual([201, 'true'])
    expect(answer(await u.api.get('/user'))).toEqual([403, '{"message":"403 Forbidden - Your account has been blocked."}'])
    expect(answer(await f.root.post(`/users/${u.id}/ban`))).toEqual([403, '{"message":"You cannot ban banned users."}'])
    expect(answer(await f.root.post(`/users/${u.id}/block`))).toEqual([201, 'null'])
    expect((await f.root.get(`/users/${u.id}`)).body.state).toBe('banned')
    expect(answer(await f.root.post(`/users/${u.id}/unban`))).toEqual([201, 'true'])
    expect(answer(await f.root.post(`/users/${u.id}/unban`))).toEqual([403, '{"message":"You cannot unban active users."}'])
    expect((await u.api.get('/user')).status).toBe(200)
  })
})

describe('deactivate and activate', () => {
  it('deactivates a user without recent activity and activates them again', async () => {
    const u = await createUser(f.server, 'gina')
    expect(answer(await f.root.post(`/users/${u.id}/deactivate`))).toEqual([201, 'true'])
    expect((await u.api.get('/user')).status).toBe(403)
    expect(answer(await f.root.post(`/users/${u.id}/unblock`))).toEqual([403, '{"message":"403 Forbidden - Deactivated users cannot be unblocked by the API"}'])
    expect(answer(await f.root.post(`/users/${u.id}/activate`))).toEqual([201, 'true'])
    expect((await u.api.get('/user')).status).toBe(200)
  })

  it('refuses to deactivate a blocked user', async () => {
    const u = await createUser(f.server, 'hank')
    await f.root.post(`/users/${u.id}/block`)
    expect(answer(await f.root.post(`/users/${u.id}/deactivate`))).toEqual([403, '{"message":"Error occurred. A blocked user cannot be deactivated"}'])
  })
})

describe('a blocked or banned user over git', () => {
  // GitLab's sign-in for git (personal_access_token_check) takes no token of a user who may not log in: git is
  // challenged as for a wrong token, on a public project too.
  it('can no longer fetch or push with their token', async () => {
    for (const [name, action] of [['ian', 'block'], ['ivy', 'ban']]) {
      const u = await createUser(f.server, name)
      await u.api.post('/projects', { name: 'mine', visibility: 'public', initialize_with_readme: true })
      const refs = (service: string) => fetch(`${f.server.url}/${name}/mine.git/info/refs?service=${service}`, {
        headers: { Authorization: `Basic ${Buffer.from(`oauth2:${u.token}`).toString('base64')}` },
      }).then(async (r) => ({ status: r.status, text: await r.text(), challenge: r.headers.get('www-authenticate') }))
      expect((await refs('git-upload-pack')).status).toBe(200)
      await f.root.post(`/users/${u.id}/${action}`)
      for (const service of ['git-upload-pack', 'git-receive-pack']) {
        expect([name, service, await refs(service)])
          .toEqual([name, service, { status: 401, text: 'HTTP Basic: Access denied', challenge: 'Basic realm="collab"' }])
      }
    }
  })
})

describe('PUT /users/:id profile emails and appearance', () => {
  it('sets public and commit emails among the verified ones, pronouns and appearance', async () => {
    const u = await createUser(f.server, 'jo')
    await f.root.post(`/users/${u.id}/emails`, { email: 'jo@public.example', skip_confirmation: true })
    await u.api.post('/user/emails', { email: 'jo@unconfirmed.example' })
    const res = await f.root.put(`/users/${u.id}`, { public_email: 'jo@public.example', commit_email: 'jo@example.com', pronouns: 'they/them', theme_id: 2, color_scheme_id: 3 })
    expect([res.status, res.body.public_email, res.body.commit_email, res.body.pronouns, res.body.theme_id, res.body.color_scheme_id])
      .toEqual([200, 'jo@public.example', 'jo@example.com', 'they/them', 2, 3])
    expect((await f.bob.api.get(`/users/${u.id}`)).body.public_email).toBe('jo@public.example')
    expect(answer(await f.root.put(`/users/${u.id}`, { public_email: 'jo@unconfirmed.example', commit_email: 'bob@example.com' })))
      .toEqual([400, '{"message":{"public_email":["is not an email you own"],"commit_email":["is not an email you own"]}}'])
    expect((await f.root.put(`/users/${u.id}`, { public_email: '' })).body.public_email).toBe(null)
  })
})

describe('POST /users profile attributes', () => {
  it('takes pronouns, appearance and the primary email as public and commit email', async () => {
    const res = await f.root.post('/users', {
      username: 'kai', email: 'kai@example.com', name: 'Kai', password: 'kai-password-1',
      pronouns: 'she/her', theme_id: 4, color_scheme_id: 2, public_email: 'kai@example.com', commit_email: 'kai@example.com',
    })
    expect([res.status, res.body.pronouns, res.body.theme_id, res.body.color_scheme_id, res.body.public_email, res.body.commit_email])
      .toEqual([201, 'she/her', 4, 2, 'kai@example.com', 'kai@example.com'])
    expect(answer(await f.root.post('/users', { username: 'kay', email: 'kay@example.com', name: 'Kay', password: 'kay-password-1', public_email: 'other@example.com' })))
      .toEqual([400, '{"message":{"public_email":["is not an email you own"]}}'])
  })
})
