// The commit pages over a real server: a ref's paginated list and one commit's diff (unified and split), statuses,
// pipeline and comments; hostile messages, branch names, comments and status names stay text; private projects 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus, request } from '../../helpers/api.js'
import { commit, create, update } from '../../helpers/repository.js'
import { HOSTILE_BRANCH, signIn, webFixture, withoutOwnMarkup, XSS, type WebFixture } from './fixture.js'

let f: WebFixture
let aliceCookie: string
let bobCookie: string
let hostile: any

beforeAll(async () => {
  f = await webFixture()
  aliceCookie = await signIn(f.server, f.alice)
  bobCookie = await signIn(f.server, f.bob)
  hostile = await commit(f.alice.api, f.pub.id, {
    branch: HOSTILE_BRANCH, commit_message: `Change ${XSS}\n\nBody <b>bold</b>`,
    actions: [update('src/app.js', 'const a = 2\n<script>x</script>\n'), create('new.txt', 'one\n')],
  })
  const sha = hostile.id
  expectStatus(await f.alice.api.post(`/projects/${f.pub.id}/repository/commits/${sha}/comments`, { note: `Nice ${XSS}` }), 201)
  expectStatus(await f.alice.api.post(`/projects/${f.pub.id}/statuses/${sha}`, { state: 'success', name: `lint ${XSS}`, ref: HOSTILE_BRANCH }), 201)
}, 60_000)
afterAll(() => f?.server.close())

const get = (path: string, cookie?: string) => request(f.server, 'GET', path, { headers: cookie ? { Cookie: cookie } : {} })

function expectNoInjection(text: string) {
  expect(text).not.toMatch(/<script/i)
  expect(text).not.toMatch(/<img src=x/i)
  expect(withoutOwnMarkup(text)).not.toMatch(/<svg/i)
  expect(text).not.toContain('<b>')
}

describe('commits pages', () => {
  it('lists a ref\'s commits, the hostile branch and message as text', async () => {
    const res = await get(`/alice/demo/-/commits/${encodeURIComponent(HOSTILE_BRANCH)}`)
    expect(res.status).toBe(200)
    expectNoInjection(res.text)
    expect(res.text).toContain('<span id="commits-ref">x&quot;&gt;&lt;svg/onload=window.__xss=1&gt;</span>')
    expect(res.text).toContain(`<a href="${f.server.url}/alice/demo/-/commit/${hostile.id}"><strong>Change &lt;script&gt;window.__xss=1&lt;/script&gt;`)
    expect(res.text.match(/<li><a href="[^"]*\/-\/commit\//g)).toHaveLength(2)
    // The commit with a status has the pipeline the status made: its icon links to it; the time is relative, exact on hover.
    expect(res.text).toMatch(new RegExp(`</strong></a> <a href="[^"]+/-/pipelines/\\d+" class="ci-icon ci-icon-success" title="Pipeline #\\d+: success"><svg class="icon icon-success"[^>]*>`))
    expect(res.text).toMatch(/authored <time datetime="[0-9T:.-]+Z" title="[0-9-]{10} [0-9:]{8} UTC">(just now|\d+ \w+ ago)<\/time>/)
  })

  it('paginates twenty to a page', async () => {
    for (let i = 0; i < 21; i++) await commit(f.alice.api, f.pub.id, { branch: 'feature/nested', commit_message: `c${i}`, actions: [create(`f${i}.txt`, 'x')] })
    const first = await get('/alice/demo/-/commits/feature/nested')
    expect(first.text.match(/<li><a href="[^"]*\/-\/commit\//g)).toHaveLength(20)
    expect(first.text).toContain(`<a href="${f.server.url}/alice/demo/-/commits/feature/nested?page=2" rel="next">Next</a>`)
    const second = await get('/alice/demo/-/commits/feature/nested?page=2')
    expect(second.text.match(/<li><a href="[^"]*\/-\/commit\//g)).toHaveLength(2)
    expect(second.text).toContain('<span>Page 2 of 2</span>')
  }, 60_000)

  it('shows one commit: message, unified diff, status and comment, all escaped', async () => {
    const res = await get(`/alice/demo/-/commit/${hostile.id}`, aliceCookie)
    expect(res.status).toBe(200)
    expectNoInjection(res.text)
    expect(res.text).toContain('<h2 id="commit-title">Change &lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</h2>')
    expect(res.text).toContain('<pre id="commit-message">Body &lt;b&gt;bold&lt;/b&gt;</pre>')
    expect(res.text).toContain('<tr class="diff-add"><td class="ln"></td><td class="ln">2</td><td><pre>+&lt;script&gt;x&lt;/script&gt;</pre></td></tr>')
    expect(res.text).toContain('<strong class="diff-name">new.txt</strong>')
    expect(res.text).toContain('lint &lt;script&gt;window.__xss=1&lt;/script&gt;')
    expect(res.text).toMatch(/<div class="note"><strong>@alice<\/strong>.*Nice &lt;script&gt;/s)
    expect(res.text).toContain('<div class="bar" id="diff-view"><strong>Unified</strong>')
  })

  it('splits the diff with ?view=parallel, removed lines beside added ones', async () => {
    const res = await get(`/alice/demo/-/commit/${hostile.id}?view=parallel`)
    expect(res.status).toBe(200)
    expect(res.text).toContain('<table class="diff diff-parallel">')
    expect(res.text).toMatch(/<tr><td class="ln">1<\/td><td class="diff-del"><pre>const a = &quot;&lt;\/script&gt;.*?<\/pre><\/td><td class="ln">1<\/td><td class="diff-add"><pre>const a = 2<\/pre><\/td><\/tr>/)
    expect(res.text).toContain('<strong>Split</strong>')
    expectNoInjection(res.text)
  })

  it('answers 404 pages for a private project to outsiders, an unknown commit and an unknown ref', async () => {
    const priv = await get('/alice/secret/-/commits/main', bobCookie)
    expect(priv.status).toBe(404)
    expect((await get('/alice/secret/-/commits/main')).status).toBe(404)
    expect((await get('/alice/demo/-/commit/0123456789abcdef0123456789abcdef01234567')).status).toBe(404)
    expect((await get('/alice/demo/-/commits/no-such-ref')).status).toBe(404)
    expect((await get('/alice/demo/-/commit/not-a-sha')).status).toBe(404)
    expect((await get('/alice/demo/-/commits/main?page=abc')).status).toBe(200)
  })
})
