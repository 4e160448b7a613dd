// The user page at `/<username>`: name, bio and details escaped, the personal projects the viewer may see; private
// profiles and blocked users; single-segment paths that are nobody's answer the HTML 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, expectStatus } from '../../helpers/api.js'
import { ESCAPED_XSS, getPage, injected, pagesFixture, type PagesFixture } from './wiki-snippet-fixture.js'

let f: PagesFixture
beforeAll(async () => { f = await pagesFixture() }, 60_000)
afterAll(() => f?.server.close())

const root = () => api(f.server, f.server.rootToken)

describe('user pages', () => {
  it('opens the web_url the API returns: name, bio, details, public projects only for outsiders', async () => {
    const { body } = await f.bob.api.get(`/users/${f.alice.id}`)
    expect(body.web_url).toBe(`${f.server.url}/alice`)
    const res = await getPage(f, '/alice')
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(res.text).toMatch(/<h1 id="user-name">Alice &lt;b&gt;A&lt;\/b&gt;<\/h1><p class="muted" id="user-username">@alice · member since <time datetime="[0-9T:.-]+Z" title="[0-9-]{10} [0-9:]{8} UTC">[^<]+<\/time><\/p>/)
    expect(res.text).toContain(`<p id="user-bio">Bio ${ESCAPED_XSS}</p><ul class="list" id="user-details"><li><span class="muted">Location:</span> Lyon &lt;i&gt;x&lt;/i&gt;</li></ul>`)
    expect(res.text).toContain(`<h2>Personal projects</h2><ul class="list" id="projects"><li><a href="${f.server.url}/alice/demo">`)
    expect(res.text).not.toContain('/alice/secret')
    expect(res.text).not.toContain('javascript:')
    expect((await getPage(f, '/alice', f.bobCookie)).text).not.toContain('/alice/secret')
    expect((await getPage(f, '/alice', f.aliceCookie)).text).toContain(`<a href="${f.server.url}/alice/secret">`)
    expect(injected(res.text)).toEqual([])
  })

  it('shows a user with nothing to show', async () => {
    const { text } = await getPage(f, '/bob/')
    expect(text).toContain('<h2>Personal projects</h2><p class="muted">No personal projects you can see.</p>')
    expect(text).not.toContain('user-details')
  })

  it('answers the HTML 404 for a single segment that is no user and no group', async () => {
    for (const path of ['/nobody', '/12', `/${f.alice.id}`, '/-', '/a%3Cb']) {
      const res = await getPage(f, path)
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8'])
    }
    expect((await request404('/api')).status).toBe(404)
    expect((await request404('/alice.git')).status).toBe(404)
  })

  it('keeps a private profile private, except to its owner', async () => {
    expectStatus(await root().put(`/users/${f.bob.id}`, { private_profile: true, bio: 'bob bio' }), 200)
    const res = await getPage(f, '/bob')
    expect(res.text).toContain('<p id="user-private">This user has a private profile.</p>')
    expect(res.text).not.toContain('bob bio')
    expect((await getPage(f, '/bob', f.bobCookie)).text).toContain('<p id="user-bio">bob bio</p>')
  })

  it('says a blocked user is blocked and lists nothing of theirs', async () => {
    expectStatus(await root().post(`/users/${f.alice.id}/block`), 201)
    const res = await getPage(f, '/alice')
    expect(res.text).toContain('<p id="user-blocked">This user is blocked.</p>')
    expect(res.text).not.toContain('/alice/demo')
  })
})

/** The API's own paths keep their JSON answers. */
const request404 = (path: string) => getPage(f, path).then((r) => {
  expect(r.headers.get('content-type')).not.toContain('text/html')
  return r
})
