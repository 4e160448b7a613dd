// The snippet pages: files highlighted and escaped (names too), raw links that serve text that cannot run, notes,
// personal snippets at /-/snippets/<id>, and private snippets answering the HTML 404 to those who may not read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ESCAPED_XSS, getPage, HOSTILE_NAME, injected, pagesFixture, type PagesFixture } from './wiki-snippet-fixture.js'

let f: PagesFixture
beforeAll(async () => { f = await pagesFixture() }, 60_000)
afterAll(() => f?.server.close())

describe('project snippets', () => {
  it('opens the web_url the API returns, with the title, description, files and notes escaped', async () => {
    const { body } = await f.alice.api.get(`/projects/${f.pub.id}/snippets/${f.snippet.id}`)
    const res = await getPage(f, body.web_url.replace(f.server.url, ''))
    expect(res.status).toBe(200)
    expect(res.text).toContain(`<h1 id="snippet-title">Snip ${ESCAPED_XSS}</h1>`)
    expect(res.text).toContain(`<div class="markdown" id="snippet-description"><p>About ${ESCAPED_XSS} <a href="${f.server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a></p>`)
    expect(res.text).toContain('<span class="hljs-keyword">const</span> a = <span class="hljs-string">&quot;&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;&quot;</span>')
    expect(res.text).toContain('<strong class="file-name">&lt;img src=x onerror=window.__xss=1&gt;.txt</strong>')
    expect(res.text).toContain(`<div class="markdown"><p>A note ${ESCAPED_XSS}</p>`)
    expect(injected(res.text)).toEqual([])
  })

  it('links each file to the raw URL the API gives, which serves the file as sandboxed text', async () => {
    const { body } = await f.alice.api.get(`/projects/${f.pub.id}/snippets/${f.snippet.id}`)
    const page = await getPage(f, `/alice/demo/-/snippets/${f.snippet.id}`)
    for (const file of body.files) expect(page.text).toContain(`<a href="${file.raw_url}" class="raw-link">Open raw</a>`)
    const raw = await getPage(f, body.files[1].raw_url.replace(f.server.url, ''))
    expect([raw.status, raw.headers.get('content-type'), raw.headers.get('content-security-policy')])
      .toEqual([200, 'text/plain; charset=utf-8', "default-src 'none'; sandbox"])
    expect(raw.text).toBe('<script>window.__xss=1</script><img src=x onerror="window.__xss=1">\n')
    expect((await getPage(f, body.raw_url.replace(f.server.url, ''))).text).toBe('const a = "</script><script>window.__xss=1</script>"\n')
    expect((await getPage(f, `/alice/demo/-/snippets/${f.snippet.id}/raw/main/missing.txt`)).status).toBe(404)
    expect((await getPage(f, `/alice/demo/-/snippets/${f.snippet.id}/raw/other/app.js`)).status).toBe(404)
    expect(body.files[1].path).toBe(HOSTILE_NAME)
  })

  it('hides a private snippet, and every snippet of a private project, from outsiders', async () => {
    const path = `/alice/demo/-/snippets/${f.privateSnippet.id}`
    for (const cookie of [undefined, f.bobCookie]) {
      for (const p of [path, `${path}/raw`]) {
        const res = await getPage(f, p, cookie)
        expect([p, res.status]).toEqual([p, 404])
        expect(res.text).not.toContain('Members only')
      }
    }
    expect((await getPage(f, path, f.aliceCookie)).text).toContain('<h1 id="snippet-title">Members only</h1>')
    // A project snippet is only found under its own project.
    expect((await getPage(f, `/alice/secret/-/snippets/${f.snippet.id}`, f.aliceCookie)).status).toBe(404)
    expect((await getPage(f, '/alice/demo/-/snippets/999999')).status).toBe(404)
  })
})

describe('the project\'s snippet list', () => {
  it('lists the snippets the viewer may read, titles escaped, each linking to its page', async () => {
    const anonymous = await getPage(f, '/alice/demo/-/snippets')
    expect(anonymous.status).toBe(200)
    expect(anonymous.text).toContain(`<ul class="list" id="snippets"><li><a href="${f.server.url}/alice/demo/-/snippets/${f.snippet.id}"><strong>Snip ${ESCAPED_XSS}</strong></a>`)
    expect(anonymous.text).not.toContain('Members only')
    expect(injected(anonymous.text)).toEqual([])
    const member = await getPage(f, '/alice/demo/-/snippets', f.aliceCookie)
    expect(member.text.match(/<li><a href=/g)).toHaveLength(2)
    expect(member.text).toContain(`<strong>Members only</strong></a> <span class="label">private</span>\n<span class="muted">$${f.privateSnippet.id} by @alice</span>`)
    expect((await getPage(f, '/alice/secret/-/snippets', f.bobCookie)).status).toBe(404)
  })
})

describe('personal snippets', () => {
  it('opens /-/snippets/<id> with its files and raw links', async () => {
    const { body } = await f.alice.api.get(`/snippets/${f.personal.id}`)
    expect(body.web_url).toBe(`${f.server.url}/-/snippets/${f.personal.id}`)
    const res = await getPage(f, `/-/snippets/${f.personal.id}`)
    expect(res.status).toBe(200)
    expect(res.text).toContain('<h1 id="snippet-title">Mine</h1>')
    expect(res.text).toContain(`<strong class="file-name">notes.md</strong><a href="${body.files[0].raw_url}" class="raw-link">Open raw</a>`)
    expect(res.text).not.toContain('<h2>Comments</h2>')
    expect((await getPage(f, `/-/snippets/${f.personal.id}/raw`)).text).toBe('# hi\n')
    expect((await getPage(f, `/-/snippets/${f.personal.id}/raw/main/notes.md`)).text).toBe('# hi\n')
  })

  it('answers the HTML 404 for a private personal snippet to others, and for a project snippet at the personal path', async () => {
    for (const cookie of [undefined, f.bobCookie]) expect((await getPage(f, `/-/snippets/${f.personalPrivate.id}`, cookie)).status).toBe(404)
    expect((await getPage(f, `/-/snippets/${f.personalPrivate.id}`, f.aliceCookie)).status).toBe(200)
    const res = await getPage(f, `/-/snippets/${f.snippet.id}`)
    expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
  })
})
