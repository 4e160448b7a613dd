// The wiki pages: home and the list, nested slugs, markdown with references, other formats as source, hostile
// titles and content escaped, a private project's wiki and a disabled wiki answering the HTML 404.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ESCAPED_XSS, getPage, injected, pagesFixture, type PagesFixture } from './wiki-snippet-fixture.js'

let f: PagesFixture
beforeAll(async () => { f = await pagesFixture() }, 60_000)
afterAll(() => f?.server.close())

describe('wiki pages', () => {
  it('opens the home page from /-/wikis, as GitLab does', async () => {
    const res = await getPage(f, '/alice/demo/-/wikis')
    expect([res.status, res.headers.get('location')]).toEqual([303, `${f.server.url}/alice/demo/-/wikis/home`])
  })

  it('renders a markdown page: references as links, task lists, raw HTML as text, the page list beside it', async () => {
    const res = await getPage(f, '/alice/demo/-/wikis/home')
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(res.text).toContain('<h1 id="wiki-title">home</h1>')
    expect(res.text).toContain(`<div class="markdown" id="wiki-content"><h1>Welcome</h1>\n<p>${ESCAPED_XSS}</p>\n` +
      `<p>See <a href="${f.server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a> and <a href="${f.server.url}/alice" class="gfm-reference">@alice</a>.</p>`)
    expect(res.text).toContain('<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled checked> done</li>')
    expect(res.text).toContain(`<li><a href="${f.server.url}/alice/demo/-/wikis/home" class="badge">home</a>`)
    expect(res.text).toContain(`<a href="${f.server.url}/alice/demo/-/wikis/pages">All pages</a>`)
    expect(injected(res.text)).toEqual([])
  })

  it('reads an older version of a page with ?version_id, as GitLab\'s history links do', async () => {
    const wiki = (path = '') => `/projects/${f.pub.id}/wikis${path}`
    expectStatus(await f.alice.api.post(wiki(), { title: 'Versioned', content: 'one' }), 201)
    const head = execFileSync('git', ['--git-dir', join(f.server.dataDir, 'repositories', `${f.pub.id}.wiki.git`), 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
    expectStatus(await f.alice.api.put(wiki('/Versioned'), { content: 'two' }), 200)
    const content = async (query: string) => /<div class="markdown" id="wiki-content">(.*)\n<\/div>/.exec((await getPage(f, `/alice/demo/-/wikis/Versioned${query}`)).text)?.[1]
    expect([await content(''), await content(`?version_id=${head}`), await content('?version_id=not-a-sha')]).toEqual(['<p>two</p>', '<p>one</p>', '<p>two</p>'])
    expect((await getPage(f, `/alice/demo/-/wikis/Versioned?version_id=${'f'.repeat(40)}`)).status).toBe(404)
  })

  it('reads a page whose slug has a slash', async () => {
    const res = await getPage(f, '/alice/demo/-/wikis/docs/setup')
    expect(res.status).toBe(200)
    expect(res.text).toContain('<h1 id="wiki-title">setup</h1>\n<p class="muted"><span id="wiki-slug">docs/setup</span> · markdown</p>')
    expect(res.text).toContain('<div class="markdown" id="wiki-content"><p>Setup <em>steps</em></p>\n</div>')
  })

  it('shows an AsciiDoc page as its escaped source, and says so', async () => {
    const res = await getPage(f, '/alice/demo/-/wikis/guide')
    expect(res.text).toContain('<p class="muted" id="wiki-source-note">This page is written in asciidoc; it is shown as its source.</p>')
    expect(res.text).toContain(`<pre id="wiki-content">= Guide\n\n${ESCAPED_XSS}\n</pre>`)
    expect(injected(res.text)).toEqual([])
  })

  it('lists every page with hostile titles and slugs escaped, and each link opens its page', async () => {
    const res = await getPage(f, '/alice/demo/-/wikis/pages')
    expect(res.status).toBe(200)
    expect(injected(res.text)).toEqual([])
    const links = [...res.text.matchAll(/<li><a href="([^"]+)">/g)].map((m) => m[1].replace(f.server.url, ''))
    expect(links).toHaveLength(5)
    expect(links[0]).toBe('/alice/demo/-/wikis/Evil--script-window.__xss%3D1-/script--img-src%3Dx-onerror%3D%22window.__xss%3D1%22-')
    for (const link of links) expect([link, (await getPage(f, link)).status]).toEqual([link, 200])
  })

  it('answers the HTML 404 for an unknown page, a private project\'s wiki to outsiders and a disabled wiki', async () => {
    expect((await getPage(f, '/alice/demo/-/wikis/no-such-page')).status).toBe(404)
    for (const cookie of [undefined, f.bobCookie]) {
      const res = await getPage(f, '/alice/secret/-/wikis/home', cookie)
      expect(res.status).toBe(404)
      expect(res.text).toContain('<h1>404: Page not found</h1>')
      expect(res.text).not.toContain('private wiki')
    }
    expect((await getPage(f, '/alice/secret/-/wikis/home', f.aliceCookie)).text).toContain('<div class="markdown" id="wiki-content"><p>private wiki</p>')
    expectStatus(await f.alice.api.put(`/projects/${f.pub.id}`, { wiki_enabled: false }), 200)
    expect((await getPage(f, '/alice/demo/-/wikis/home')).status).toBe(404)
    expectStatus(await f.alice.api.put(`/projects/${f.pub.id}`, { wiki_enabled: true }), 200)
  })

  it('lists the pages at /-/wikis when there is no home page', async () => {
    expectStatus(await f.alice.api.post('/projects', { name: 'nowiki', visibility: 'public' }), 201)
    const res = await getPage(f, '/alice/nowiki/-/wikis')
    expect(res.status).toBe(200)
    expect(res.text).toContain('<h2>Wiki pages</h2><p class="muted" id="wiki-empty">This wiki has no pages yet.</p>')
  })
})
