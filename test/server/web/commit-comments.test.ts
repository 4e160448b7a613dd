// The commit page's comment form over a real server: shown to signed-in viewers, refused without the CSRF token,
// and through the service of POST …/repository/commits/:sha/comments; hostile comments render as text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from '../../helpers/api.js'
import { formToken, signIn, webFixture, type WebFixture } from './fixture.js'

let f: WebFixture
let aliceCookie: string
let bobCookie: string
let sha: string
let secretSha: string

beforeAll(async () => {
  f = await webFixture()
  aliceCookie = await signIn(f.server, f.alice)
  bobCookie = await signIn(f.server, f.bob)
  sha = (await f.alice.api.get(`/projects/${f.pub.id}/repository/commits/main`)).body.id
  await f.alice.api.post(`/projects/${f.priv.id}/repository/commits`, { branch: 'main', commit_message: 'secret', actions: [{ action: 'create', file_path: 's.txt', content: 's' }] })
  secretSha = (await f.alice.api.get(`/projects/${f.priv.id}/repository/commits/main`)).body.id
  expect(secretSha).toMatch(/^[0-9a-f]{40}$/)
}, 60_000)
afterAll(() => f?.server.close())

const get = (path: string, cookie?: string) => request(f.server, 'GET', path, { headers: cookie ? { Cookie: cookie } : {} })
const post = (path: string, form: Record<string, string>, cookie?: string) =>
  request(f.server, 'POST', path, { form, headers: cookie ? { Cookie: cookie } : {} })
const comments = async () => (await f.alice.api.get(`/projects/${f.pub.id}/repository/commits/${sha}/comments`)).body as any[]

describe('commit comment form', () => {
  it('is shown to a signed-in viewer, posting to the commit\'s comments; an anonymous one is asked to sign in', async () => {
    const page = (await get(`/alice/demo/-/commit/${sha}`, bobCookie)).text
    expect(page).toContain(`<form method="post" action="${f.server.url}/alice/demo/-/commit/${sha}/comments" id="comment-form">`)
    expect(page).toContain('<textarea name="note" required')
    const anonymous = (await get(`/alice/demo/-/commit/${sha}`)).text
    expect(anonymous).not.toContain('comment-form')
    expect(anonymous).toContain(`<p><a href="${f.server.url}/users/sign_in">Sign in</a> to comment.</p>`)
  })

  it('refuses a form without the CSRF token, with a wrong one, or from nobody; nothing is written', async () => {
    const token = formToken((await get(`/alice/demo/-/commit/${sha}`, aliceCookie)).text)
    for (const [form, cookie] of [[{ note: 'x' }, aliceCookie], [{ note: 'x', authenticity_token: 'nope' }, aliceCookie],
      [{ note: 'x', authenticity_token: token }, undefined], [{ note: 'x', authenticity_token: token }, bobCookie]] as const) {
      expect((await post(`/alice/demo/-/commit/${sha}/comments`, form, cookie)).status).toBe(422)
    }
    expect(await comments()).toEqual([])
  })

  it('adds the comment through the commit comments service and shows it rendered, hostile markup as text', async () => {
    const token = formToken((await get(`/alice/demo/-/commit/${sha.slice(0, 8)}`, bobCookie)).text)
    const note = 'Nice **work** <script>window.__xss=1</script>'
    const res = await post(`/alice/demo/-/commit/${sha.slice(0, 8)}/comments`, { note, authenticity_token: token }, bobCookie)
    expect([res.status, res.headers.get('location')]).toEqual([303, `${f.server.url}/alice/demo/-/commit/${sha}#comments`])
    const list = await comments()
    expect(list.map((c) => [c.note, c.author.username, c.path, c.line])).toEqual([[note, 'bob', null, null]])
    const page = (await get(`/alice/demo/-/commit/${sha}`)).text
    expect(page).toContain('<p>Nice <strong>work</strong> &lt;script&gt;window.__xss=1&lt;/script&gt;</p>')
    expect(page).not.toContain('<script>')
    // An empty comment writes nothing.
    expect((await post(`/alice/demo/-/commit/${sha}/comments`, { note: '  ', authenticity_token: token }, bobCookie)).status).toBe(303)
    expect(await comments()).toHaveLength(1)
  })

  it('answers 404 to an outsider commenting on the private project, and to an unknown commit', async () => {
    const token = formToken((await get(`/alice/demo/-/commit/${sha}`, bobCookie)).text)
    const res = await post(`/alice/secret/-/commit/${secretSha}/comments`, { note: 'peek', authenticity_token: token }, bobCookie)
    expect(res.status).toBe(404)
    expect(res.text).toContain('404: Page not found')
    expect((await f.alice.api.get(`/projects/${f.priv.id}/repository/commits/${secretSha}/comments`)).body).toEqual([])
    expect((await post(`/alice/demo/-/commit/${'0'.repeat(40)}/comments`, { note: 'x', authenticity_token: token }, bobCookie)).status).toBe(404)
  })
})
