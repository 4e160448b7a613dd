// The web pages over a real server: status, escaping of hostile content, the CSP, CSRF refusals and private projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from '../../helpers/api.js'
import { postSignIn } from '../../helpers/web-sign-in.js'
import { formToken, HOSTILE_BRANCH, HOSTILE_FILE, signIn, webFixture, withoutOwnMarkup, type WebFixture } from './fixture.js'

let f: WebFixture
let aliceCookie: string
let bobCookie: string

beforeAll(async () => {
  f = await webFixture()
  aliceCookie = await signIn(f.server, f.alice)
  bobCookie = await signIn(f.server, f.bob)
}, 60_000)
afterAll(() => f?.server.close())

const get = (path: string, cookie?: string) => request(f.server, 'GET', path, { headers: cookie ? { Cookie: cookie } : {} })
const post = (path: string, form: Record<string, string>, cookie?: string) =>
  request(f.server, 'POST', path, { form, headers: cookie ? { Cookie: cookie } : {} })

/** No markup the data brought survives: every hostile piece shows up escaped, never as a tag or attribute. */
function expectNoInjection(html: string) {
  expect(withoutOwnMarkup(html)).not.toMatch(/<script/i)
  expect(html).not.toMatch(/<img src=x/i)
  expect(withoutOwnMarkup(html)).not.toMatch(/<svg/i)
  expect(html).not.toMatch(/href="javascript:/i)
  expect(html).not.toContain('<b>')
  expect(html).not.toContain('<i>')
}

describe('every page', () => {
  const pages = () => [
    '/', '/users/sign_in', '/alice/demo', '/alice/demo/-/tree/main', '/alice/demo/-/tree/main/src', '/alice/demo/-/blob/main/src/app.js',
    '/alice/demo/-/issues', `/alice/demo/-/issues/${f.issue.iid}`, '/alice/demo/-/tree/feature/nested/src',
    `/alice/demo/-/tree/${encodeURIComponent(HOSTILE_BRANCH)}`, `/alice/demo/-/blob/main/${encodeURIComponent(HOSTILE_FILE)}`,
  ]

  it('answers 200 with HTML, the strict CSP and no injected markup, signed in or not', async () => {
    for (const path of pages()) {
      for (const cookie of [undefined, aliceCookie]) {
        const res = await get(path, cookie)
        expect([path, res.status]).toEqual([path, path === '/users/sign_in' && cookie ? 303 : 200])
        if (res.status !== 200) continue
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
        // The project page runs the pages' own script (its Copy button), and only it.
        expect([path, res.headers.get('content-security-policy')]).toEqual([path,
          `default-src 'none'; ${path === '/alice/demo' ? "script-src 'self'; connect-src 'self'; " : ''}style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`])
        expectNoInjection(res.text)
      }
    }
  })

  it('serves the stylesheet under its hash, cached for good; another hash is a 404 page', async () => {
    const page = await get('/')
    const href = /<link rel="stylesheet" href="[^"]*(\/-\/collab\/style-[0-9a-f]{16}\.css)">/.exec(page.text)![1]
    const css = await get(href)
    expect([css.status, css.headers.get('content-type'), css.headers.get('cache-control')]).toEqual([200, 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'])
    expect((await get('/-/collab/style-0000000000000000.css')).status).toBe(404)
  })
})

describe('content', () => {
  it('lists the projects the viewer can see, and searches them', async () => {
    expect((await get('/')).text).toContain('/alice/demo"')
    expect((await get('/')).text).not.toContain('/alice/secret"')
    expect((await get('/', aliceCookie)).text).toContain('/alice/secret"')
    expect((await get('/?search=nothing-like-it', aliceCookie)).text).toContain('No projects match.')
    expect((await get('/?search=secr', aliceCookie)).text).not.toContain('/alice/demo"')
  })

  it('shows the project: clone URL, last commit, escaped description, rendered README, file tree with icons, ref switcher with the hostile branch escaped', async () => {
    const { text } = await get('/alice/demo')
    const clone = `${f.server.url}/alice/demo.git`
    expect(text).toContain(`<label for="clone-http">Clone with HTTP</label><input id="clone-http" readonly value="${clone}">`)
    expect(text).toContain(`data-copy="${clone}" data-copy-field="clone-http">`)
    const head = (await f.alice.api.get(`/projects/${f.pub.id}/repository/commits/main`)).body
    expect(text).toMatch(new RegExp(`<div class="last-commit" id="last-commit"><a href="[^"]+/-/commit/${head.id}"><strong>[^<]+</strong></a>\n`
      + `<span class="muted">${head.author_name} authored <time datetime="${new Date(head.authored_date).toISOString()}" title="[0-9-]{10} [0-9:]{8} UTC">[^<]+ ago</time></span>`))
    expect(text).toMatch(/<td class="tree-icon"><svg class="icon icon-folder" [^>]*aria-hidden="true"[^>]*>.*?<\/svg><span class="sr-only">Folder<\/span><\/td><td><a [^>]*>src<\/a>/)
    expect(text).toContain('<p id="description">Demo &lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</p>')
    expect(text).toContain('<h1>Demo readme</h1>')
    expect(text).toContain(`<a href="${f.server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a>`)
    expect(text).toContain(`<a href="${f.server.url}/alice/demo/-/tree/main/src">src</a>`)
    expect(text).toContain('<li><a href="' + f.server.url + '/alice/demo/-/tree/x%22%3E%3Csvg/onload%3Dwindow.__xss%3D1%3E">x&quot;&gt;&lt;svg/onload=window.__xss=1&gt;</a></li>')
    expect(text).toContain('&lt;img src=x onerror=window.__xss=1&gt;.txt</a>')
  })

  it('lists tags in the switcher and reads a tag\'s tree', async () => {
    const { text, status } = await get('/alice/demo/-/tree/v1.0/src')
    expect(status).toBe(200)
    expect(text).toContain('<strong id="current-ref">v1.0</strong>')
    expect(text).toContain(`Tags<ul><li><a href="${f.server.url}/alice/demo/-/tree/v1.0/src">v1.0</a></li></ul>`)
  })

  it('shows an empty repository and hides the issues of a project without them', async () => {
    await f.alice.api.post('/projects', { name: 'empty', visibility: 'public', issues_enabled: false })
    const res = await get('/alice/empty')
    expect(res.status).toBe(200)
    expect(res.text).toContain('<p class="muted">The repository is empty.</p>')
    expect(res.text).not.toContain('/alice/empty/-/issues')
    expect((await get('/alice/empty/-/issues')).status).toBe(404)
  })

  it('resolves a branch with a slash in tree paths', async () => {
    const { text } = await get('/alice/demo/-/tree/feature/nested/src')
    expect(text).toContain('<strong id="current-ref">feature/nested</strong>')
    expect(text).toContain(`<a href="${f.server.url}/alice/demo/-/blob/feature/nested/src/app.js">app.js</a>`)
  })

  it('highlights a blob with line anchors and a raw link; raw is plain text that cannot run', async () => {
    const { text } = await get('/alice/demo/-/blob/main/src/app.js')
    expect(text).toContain('<a id="L1" href="#L1">1</a>\n<a id="L2" href="#L2">2</a>\n')
    expect(text).toContain('<span class="hljs-keyword">const</span>')
    expect(text).toContain('&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;')
    expect(text).toContain(`<a href="${f.server.url}/alice/demo/-/raw/main/src/app.js" id="raw-link">`)
    const raw = await get('/alice/demo/-/raw/main/src/app.js')
    expect([raw.status, raw.headers.get('content-type'), raw.headers.get('content-security-policy')]).toEqual([200, 'text/plain; charset=utf-8', "default-src 'none'; sandbox"])
    expect(raw.text).toBe('const a = "</script><script>window.__xss=1</script>"\nfunction f() { return 1 }\n')
    expect((await get('/alice/demo/-/blob/main/bin/blob.bin')).text).toContain('Binary file (8 bytes)')
    expect((await get('/alice/demo/-/raw/main/bin/blob.bin')).headers.get('content-type')).toBe('application/octet-stream')
  })

  it('renders the issue: references, task lists, tables, labels, system notes, time tracking, all escaped', async () => {
    await f.alice.api.post(`/projects/${f.pub.id}/issues/${f.issue.iid}/add_spent_time`, { duration: '1h30m' })
    const { text, status } = await get(`/alice/demo/-/issues/${f.issue.iid}`)
    expect(status).toBe(200)
    expect(text).toContain('<h1 id="issue-title">Broken &lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</h1>')
    expect(text).toContain(`<a href="${f.server.url}/alice/demo/-/merge_requests/3" class="gfm-reference">!3</a>`)
    expect(text).toContain(`<a href="${f.server.url}/alice" class="gfm-reference">@alice</a>`)
    expect(text).toContain('<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled> todo item</li>')
    expect(text).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked> done item')
    expect(text).toContain('<td>&lt;b&gt;1&lt;/b&gt;</td>')
    expect(text).toContain('[click](javascript:window.__xss=1)')
    expect(text).toContain('<span class="label">&lt;i&gt;ui&lt;/i&gt;</span>')
    expect(text).toContain('Spent: 1h 30m')
    expect(text).toContain('added 1h 30m of time spent')
  })

  it('filters and paginates the issue list', async () => {
    const all = await get('/alice/demo/-/issues')
    expect(all.text.match(/<li><span class="state-opened">/g)).toHaveLength(2)
    expect((await get('/alice/demo/-/issues?label_name=bug')).text).not.toContain('Second issue')
    expect((await get('/alice/demo/-/issues?search=Second')).text).toContain('Second issue')
    expect((await get('/alice/demo/-/issues?search=Second')).text).not.toContain('Broken')
    expect((await get('/alice/demo/-/issues?assignee_username=nobody-at-all')).text).toContain('No issues match.')
    expect((await get('/alice/demo/-/issues?state=closed')).text).toContain('No issues match.')
    expect((await get('/alice/demo/-/issues?milestone_title=None')).text.match(/class="state-opened"/g)).toHaveLength(2)
  })
})

describe('private projects and unknown paths', () => {
  it.each(['/alice/secret', '/alice/secret/-/issues', '/alice/secret/-/issues/1', '/alice/secret/-/tree/main', '/alice/secret/-/raw/main/README.md'])(
    '%s is the same HTML 404 to outsiders as an unknown project', async (path) => {
      for (const cookie of [undefined, bobCookie]) {
        const unknown = await get('/alice/no-such-project', cookie)
        const res = await get(path, cookie)
        expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
        expect(res.text).toBe(unknown.text)
      }
      expect((await get('/alice/secret/-/issues/1', aliceCookie)).status).toBe(200)
    })

  it('answers an HTML 404 to unknown web paths and keeps the JSON 404 of the API', async () => {
    for (const path of ['/nope', '/alice/demo/-/nope', '/alice/demo/-/issues/999', '/alice/demo/-/blob/main/missing.txt', '/alice/demo/-/tree/no-such-ref']) {
      const res = await get(path)
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 404, 'text/html; charset=utf-8'])
      expect(res.text).toContain('404: Page not found')
    }
    const api = await get('/api/v4/nope')
    expect([api.status, api.text]).toEqual([404, '{"error":"404 Not Found"}'])
    // Reserved top-level paths are never projects: their other methods still answer 405.
    const oauth = await get('/oauth/token')
    expect([oauth.status, oauth.headers.get('allow')]).toEqual([405, 'POST'])
  })

  it.each([
    '/alice/demo/-/blob/main/%E0%A4%A', '/alice/demo/-/tree/%00', '/alice/demo/-/issues?page=-1&state[]=x&label_name[]=a&search[x]=1',
    '/alice/demo/-/issues?page=99999999999999999999', '/alice/demo/-/blob/main/../../etc/passwd', '/alice/demo/-/raw/main/', '/?search[]=a',
    `/alice/demo/-/issues/${'9'.repeat(30)}`, '/a/b/c/d/e/f/-/issues',
  ])('answers odd input %s with a page, never a 500', async (path) => {
    const res = await get(path, aliceCookie)
    expect(res.status).toBeLessThan(500)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })

  it('answers HEAD like GET without a body', async () => {
    const res = await request(f.server, 'HEAD', '/alice/demo/-/issues')
    expect([res.status, res.text, res.headers.get('content-type')]).toEqual([200, '', 'text/html; charset=utf-8'])
  })

  it('leaves git smart HTTP alone', async () => {
    const res = await get('/alice/demo.git/info/refs?service=git-upload-pack')
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement')
  })
})

describe('forms', () => {
  const issueUrl = () => `/alice/demo/-/issues/${f.issue.iid}`
  const notesCount = async () => (await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}/notes`)).body.length

  it('refuses a form without the CSRF token, with a wrong one, or from nobody; nothing changes', async () => {
    const before = await notesCount()
    const token = formToken((await get(issueUrl(), aliceCookie)).text)
    for (const [form, cookie] of [[{ 'note[note]': 'x' }, aliceCookie], [{ 'note[note]': 'x', authenticity_token: 'wrong' }, aliceCookie],
      [{ 'note[note]': 'x', authenticity_token: token }, undefined], [{ 'note[note]': 'x', authenticity_token: token }, bobCookie]] as const) {
      const res = await post(`${issueUrl()}/notes`, form, cookie)
      expect(res.status).toBe(422)
    }
    const close = await post(`${issueUrl()}/close`, {}, aliceCookie)
    expect(close.status).toBe(422)
    expect(await notesCount()).toBe(before)
    expect((await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}`)).body.state).toBe('opened')
  })

  it('comments, closes and reopens through the services, then redirects back to the issue', async () => {
    const token = formToken((await get(issueUrl(), aliceCookie)).text)
    const res = await post(`${issueUrl()}/notes`, { 'note[note]': 'Looks **bad** <script>window.__xss=1</script>', authenticity_token: token }, aliceCookie)
    expect([res.status, res.headers.get('location')]).toEqual([303, `${f.server.url}${issueUrl()}`])
    const notes = (await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}/notes`)).body
    expect(notes[0].body).toBe('Looks **bad** <script>window.__xss=1</script>')
    expect((await get(issueUrl())).text).toContain('Looks <strong>bad</strong> &lt;script&gt;window.__xss=1&lt;/script&gt;')
    expect((await post(`${issueUrl()}/close`, { authenticity_token: token }, aliceCookie)).status).toBe(303)
    expect((await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}`)).body.state).toBe('closed')
    expect((await get(issueUrl())).text).toContain('<span class="badge state-closed" id="issue-state">Closed</span>')
    expect((await post(`${issueUrl()}/reopen`, { authenticity_token: token }, aliceCookie)).status).toBe(303)
    expect((await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}`)).body.state).toBe('opened')
  })

  it('a guest of a public project may comment but the close form is refused by the same policy as the API', async () => {
    const token = formToken((await get(issueUrl(), bobCookie)).text)
    expect((await post(`${issueUrl()}/notes`, { 'note[note]': 'from bob', authenticity_token: token }, bobCookie)).status).toBe(303)
    expect((await post(`${issueUrl()}/close`, { authenticity_token: token }, bobCookie)).status).toBe(404)
    expect((await f.alice.api.get(`/projects/${f.pub.id}/issues/${f.issue.iid}`)).body.state).toBe('opened')
  })

  it('sends a browser back to the sign-in page on a wrong password; API clients keep the JSON 401', async () => {
    const form = { 'user[login]': 'alice', 'user[password]': 'wrong' }
    const browser = await postSignIn(f.server, form, { headers: { Accept: 'text/html,application/xhtml+xml' } })
    expect([browser.status, browser.headers.get('location'), browser.headers.get('set-cookie')]).toEqual([303, `${f.server.url}/users/sign_in?failed=1`, null])
    expect((await get('/users/sign_in?failed=1')).text).toContain('<p class="flash" id="sign-in-error">Invalid login or password.</p>')
    expect((await get('/users/sign_in')).text).not.toContain('sign-in-error')
    const client = await postSignIn(f.server, form)
    expect([client.status, client.text]).toEqual([401, '{"message":"Invalid login or password."}'])
  })

  it('signs out only with the token', async () => {
    const cookie = await signIn(f.server, f.bob)
    expect((await post('/users/sign_out', {}, cookie)).status).toBe(422)
    expect((await get('/', cookie)).text).toContain('@bob')
    const token = formToken((await get('/', cookie)).text)
    const out = await post('/users/sign_out', { authenticity_token: token }, cookie)
    expect([out.status, out.headers.get('location')]).toEqual([303, `${f.server.url}/users/sign_in`])
    expect((await get('/', cookie)).text).not.toContain('@bob')
  })
})

describe('pagination', () => {
  it('pages the issue list by 20, keeping the filters in the links', async () => {
    for (let i = 0; i < 21; i++) await f.alice.api.post(`/projects/${f.pub.id}/issues`, { title: `Paged ${i}`, labels: 'paged' })
    const first = await get('/alice/demo/-/issues?label_name=paged')
    expect(first.text.match(/<li><span class="state-opened">/g)).toHaveLength(20)
    expect(first.text).toContain(`<a href="${f.server.url}/alice/demo/-/issues?state=opened&amp;label_name=paged&amp;page=2" rel="next">Next</a>`)
    expect(first.text).toContain('<span>Page 1 of 2</span>')
    const second = await get('/alice/demo/-/issues?label_name=paged&page=2')
    expect(second.text.match(/<li><span class="state-opened">/g)).toHaveLength(1)
    expect(second.text).toContain('>Paged 0</strong>')
  })
})
