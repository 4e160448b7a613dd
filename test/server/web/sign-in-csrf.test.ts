// Login CSRF (issue 21): a foreign page must not be able to sign a visitor's browser into the attacker's account, and
// no form of ours may be posted from a foreign page even with a token it learnt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { signInForm } from '../../helpers/web-sign-in.js'
import { formToken } from './fixture.js'

let server: TestServer
let mallory: TestUser
let issueUrl: string

beforeAll(async () => {
  server = await startTestServer()
  mallory = await createUser(server, 'mallory')
  const project = await createProject(mallory.api, { name: 'Trap', visibility: 'public' })
  const issue = expectStatus(await mallory.api.post(`/projects/${project.id}/issues`, { title: 'Bait' }), 201).body
  issueUrl = `/mallory/trap/-/issues/${issue.iid}`
})
afterAll(() => server.close())

const BROWSER = { Accept: 'text/html,application/xhtml+xml' }
const FOREIGN = { ...BROWSER, Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' }
const credentials = () => ({ 'user[login]': 'mallory', 'user[password]': mallory.password })

const postSignIn = (form: Record<string, string>, headers: Record<string, string>) =>
  request(server, 'POST', '/users/sign_in', { form, headers })

/** A refused post: 422, and no session cookie for the browser. */
function expectRefused(res: Awaited<ReturnType<typeof request>>) {
  expect([res.status, res.headers.get('set-cookie')]).toEqual([422, null])
  expect(res.text).toContain('The form has expired.')
}

describe('POST /users/sign_in from a foreign page', () => {
  it('signs nobody in when the foreign form carries no token', async () => {
    expectRefused(await postSignIn(credentials(), FOREIGN))
  })

  it('signs nobody in without a token even when the client names no origin (an old browser)', async () => {
    expectRefused(await postSignIn(credentials(), BROWSER))
    expectRefused(await postSignIn(credentials(), {}))
  })

  it("refuses the attacker's own form token in the visitor's browser (the cookie holds another)", async () => {
    const attacker = await signInForm(server)
    const victim = await signInForm(server)
    expectRefused(await postSignIn({ ...credentials(), authenticity_token: attacker.token }, { ...BROWSER, Cookie: victim.cookie }))
  })

  it('refuses a matching token and cookie when the browser says the post came from another site', async () => {
    const { cookie, token } = await signInForm(server)
    const form = { ...credentials(), authenticity_token: token }
    expectRefused(await postSignIn(form, { ...BROWSER, Cookie: cookie, Origin: 'http://evil.example' }))
    expectRefused(await postSignIn(form, { ...BROWSER, Cookie: cookie, Origin: 'null' }))
    expectRefused(await postSignIn(form, { ...BROWSER, Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' }))
    expectRefused(await postSignIn(form, { ...BROWSER, Cookie: cookie, 'Sec-Fetch-Site': 'same-site' }))
  })

  it('refuses, without a 500, a token as long as ours in characters but not in bytes', async () => {
    const { cookie, token } = await signInForm(server)
    expectRefused(await postSignIn({ ...credentials(), authenticity_token: 'é'.repeat(token.length) }, { ...BROWSER, Cookie: cookie }))
  })
})

describe('the sign-in form', () => {
  it('gives the browser a token kept in a cookie sent only to the sign-in path, and keeps it across views', async () => {
    const first = await request(server, 'GET', '/users/sign_in')
    const setCookie = first.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(/^_service_sign_in=[A-Za-z0-9_-]{43}; Path=\/users\/sign_in; HttpOnly; SameSite=Lax$/)
    const cookie = setCookie.split(';')[0]
    expect(formToken(first.text)).toBe(cookie.split('=')[1])
    const again = await request(server, 'GET', '/users/sign_in', { headers: { Cookie: cookie } })
    expect([formToken(again.text), again.headers.get('set-cookie')]).toEqual([cookie.split('=')[1], null])
  })

  it('signs in when posted from our own page with its token', async () => {
    const { cookie, token } = await signInForm(server)
    const res = await postSignIn({ ...credentials(), authenticity_token: token }, {
      ...BROWSER, Cookie: cookie, Origin: server.url, 'Sec-Fetch-Site': 'same-origin',
    })
    expect([res.status, res.headers.get('location')]).toEqual([302, `${server.url}/`])
    expect(res.headers.get('set-cookie')).toMatch(/^_service_session=/)
  })

  it("believes the browser's Sec-Fetch-Site over an Origin that a Host-rewriting proxy makes differ", async () => {
    const { cookie, token } = await signInForm(server)
    const res = await postSignIn({ ...credentials(), authenticity_token: token }, {
      ...BROWSER, Cookie: cookie, Origin: 'https://collab.example.test', 'Sec-Fetch-Site': 'same-origin',
    })
    expect(res.status).toBe(302)
  })
})

describe('the forms of a signed-in browser', () => {
  async function session() {
    const { cookie, token } = await signInForm(server)
    const res = await postSignIn({ ...credentials(), authenticity_token: token }, { Cookie: cookie })
    const session = (res.headers.get('set-cookie') ?? '').split(';')[0]
    return { cookie: session, token: formToken((await request(server, 'GET', issueUrl, { headers: { Cookie: session } })).text) }
  }
  const notes = async () => (await mallory.api.get(`/projects/mallory%2Ftrap/issues/1/notes`)).body.length

  it('refuses a comment or a sign-out posted from a foreign page, even with the session token', async () => {
    const { cookie, token } = await session()
    const before = await notes()
    const comment = await request(server, 'POST', `${issueUrl}/notes`, { form: { 'note[note]': 'forged', authenticity_token: token }, headers: { ...FOREIGN, Cookie: cookie } })
    expect(comment.status).toBe(422)
    const out = await request(server, 'POST', '/users/sign_out', { form: { authenticity_token: token }, headers: { ...FOREIGN, Cookie: cookie } })
    expect(out.status).toBe(422)
    expect(await notes()).toBe(before)
    expect((await request(server, 'GET', '/', { headers: { Cookie: cookie } })).text).toContain('@mallory')
  })

  it('takes the same posts from our own pages', async () => {
    const { cookie, token } = await session()
    const own = { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', Cookie: cookie }
    const before = await notes()
    expect((await request(server, 'POST', `${issueUrl}/notes`, { form: { 'note[note]': 'mine', authenticity_token: token }, headers: own })).status).toBe(303)
    expect(await notes()).toBe(before + 1)
    expect((await request(server, 'POST', '/users/sign_out', { form: { authenticity_token: token }, headers: own })).status).toBe(303)
  })
})
