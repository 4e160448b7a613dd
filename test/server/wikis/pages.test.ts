// The Wikis API: list, get, create, edit (a new title moves the page), delete, with exact bodies and the commits they make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WikiPage, WikiPageBasic } from '../../../src/contract/entities/wikis.js'
import { expectStatus } from '../../helpers/api.js'
import { wikiFixture, type WikiFixture } from './fixture.js'

let f: WikiFixture
const enc = encodeURIComponent

beforeAll(async () => {
  f = await wikiFixture()
})
afterAll(() => f.close())

describe('before the first page', () => {
  it('lists nothing and has no repository yet', async () => {
    expect(expectStatus(await f.guest.api.get(f.wikis()), 200).body).toEqual([])
    expect(f.history()).toEqual([])
  })
})

describe('POST /projects/:id/wikis', () => {
  it('creates a markdown page, answers 201 with it and commits as the acting user', async () => {
    const res = expectStatus(await f.developer.api.post(f.wikis(), { title: 'Getting started', content: '# Hello\n\nWelcome.' }), 201)
    expect(WikiPage.strict().parse(res.body)).toEqual({ format: 'markdown', slug: 'Getting-started', title: 'Getting started', content: '# Hello\n\nWelcome.' })
    expect(f.history()).toEqual(['dave created page: Getting started|Dave Developer|dave@example.com'])
    expect(f.files()).toEqual(['Getting-started.md'])
  })

  it('writes each format with GitLab\'s extension and keeps directories in the slug', async () => {
    for (const [title, format] of [['guides/Install Guide', 'rdoc'], ['guides/Deep/Notes', 'asciidoc'], ['Agenda', 'org']]) {
      expectStatus(await f.developer.api.post(f.wikis(), { title, content: `${format} text`, format }), 201)
    }
    expect(f.files()).toEqual(['Agenda.org', 'Getting-started.md', 'guides/Deep/Notes.asciidoc', 'guides/Install-Guide.rdoc'])
    const res = expectStatus(await f.guest.api.get(`${f.wikis()}/${enc('guides/Install-Guide')}`), 200)
    expect(res.body).toEqual({ format: 'rdoc', slug: 'guides/Install-Guide', title: 'Install Guide', content: 'rdoc text' })
  })

  it('turns whitespace, <, > and + into -, keeps case, and resolves .. inside the wiki', async () => {
    const res = expectStatus(await f.developer.api.post(f.wikis(), { title: ' a/../C++ <b> ', content: 'x' }), 201)
    expect(res.body).toEqual({ format: 'markdown', slug: 'C----b-', title: 'C b ', content: 'x' })
  })

  it('refuses a duplicate title ignoring case and format with GitLab\'s 400, and commits nothing', async () => {
    const before = f.history()
    const res = await f.developer.api.post(f.wikis(), { title: 'getting STARTED', content: 'again', format: 'rdoc' })
    expect([res.status, res.body]).toEqual([400, { message: { base: ['Duplicate page: A page with that title already exists in the file Getting-started.md'] } }])
    expect(f.history()).toEqual(before)
  })

  it('answers 400 for an unknown or read-only format, empty content, missing fields, and titles that leave the wiki', async () => {
    const before = f.history()
    const cases: [Record<string, unknown>, unknown][] = [
      [{ title: 'x', content: 'y', format: 'textile' }, { message: { format: ['does not have a valid value'] } }],
      [{ title: 'x', content: 'y', format: 'html' }, { message: { format: ['does not have a valid value'] } }],
      [{ title: 'x', content: '  ' }, { message: { content: ["can't be blank"] } }],
      [{ content: 'y' }, { message: '400 (Bad request) "title" not given' }],
      [{ title: 'x' }, { message: '400 (Bad request) "content" not given' }],
      [{ title: '../..', content: 'y' }, { message: { title: ['is invalid'] } }],
      [{ title: 'a\u0000b', content: 'y' }, { message: { title: ['is invalid'] } }],
      [{ title: '.git/config', content: 'y' }, { message: { title: ['is invalid'] } }],
      [{ title: '   ', content: 'y' }, { message: { title: ['is invalid'] } }],
    ]
    for (const [body, answer] of cases) {
      const res = await f.developer.api.post(f.wikis(), body)
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, answer])
    }
    expect(f.history()).toEqual(before)
  })
})

describe('GET /projects/:id/wikis', () => {
  it('lists format, slug and title sorted by path; with_content adds the content', async () => {
    const res = expectStatus(await f.guest.api.get(f.wikis()), 200)
    for (const page of res.body) WikiPageBasic.strict().parse(page)
    expect(res.body.map((p: any) => p.slug)).toEqual(['Agenda', 'C----b-', 'Getting-started', 'guides/Deep/Notes', 'guides/Install-Guide'])
    expect(res.body[0]).toEqual({ format: 'org', slug: 'Agenda', title: 'Agenda' })
    const full = expectStatus(await f.guest.api.get(f.wikis(), { query: { with_content: 'True' } }), 200)
    expect(full.body[0]).toEqual({ format: 'org', slug: 'Agenda', title: 'Agenda', content: 'org text' })
    expect(full.body.every((p: any) => typeof p.content === 'string')).toBe(true)
  })
})

describe('GET /projects/:id/wikis/:slug', () => {
  it('finds a page ignoring case and renders HTML when asked', async () => {
    expect(expectStatus(await f.guest.api.get(`${f.wikis()}/getting-started`), 200).body.slug).toBe('Getting-started')
    expect(expectStatus(await f.guest.api.get(`${f.wikis()}/${enc('getting started')}`), 200).body.slug).toBe('Getting-started')
    const html = expectStatus(await f.guest.api.get(`${f.wikis()}/Getting-started`, { query: { render_html: true } }), 200)
    expect(html.body).toEqual({ format: 'markdown', slug: 'Getting-started', title: 'Getting started', content: '<h1>Hello</h1>\n<p>Welcome.</p>\n' })
  })

  it('keeps raw HTML as text when rendering, and shows formats without a renderer preformatted', async () => {
    expectStatus(await f.developer.api.post(f.wikis(), { title: 'Unsafe', content: '<script>alert(1)</script> *x*' }), 201)
    const md = expectStatus(await f.guest.api.get(`${f.wikis()}/Unsafe`, { query: { render_html: 1 } }), 200)
    expect(md.body.content).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; <em>x</em></p>\n')
    const rdoc = expectStatus(await f.guest.api.get(`${f.wikis()}/${enc('guides/Install-Guide')}`, { query: { render_html: 'true' } }), 200)
    expect(rdoc.body.content).toBe('<pre>rdoc text</pre>')
    expectStatus(await f.maintainer.api.del(`${f.wikis()}/Unsafe`), 204)
  })

  it('reads an older version by commit id', async () => {
    const first = (await f.developer.api.post(f.wikis(), { title: 'Versioned', content: 'one' })).body
    expect(first.content).toBe('one')
    const sha = f.head()
    expectStatus(await f.developer.api.put(`${f.wikis()}/Versioned`, { content: 'two' }), 200)
    expect((await f.guest.api.get(`${f.wikis()}/Versioned`, { query: { version: sha } })).body.content).toBe('one')
    expect((await f.guest.api.get(`${f.wikis()}/Versioned`)).body.content).toBe('two')
    const missing = await f.guest.api.get(`${f.wikis()}/Versioned`, { query: { version: 'f'.repeat(40) } })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Wiki Page Not Found' }])
  })

  it('answers 404 Wiki Page Not Found for a missing slug and for .., / and NUL tricks', async () => {
    for (const slug of ['nope', enc('../Getting-started'), enc('/Getting-started'), enc('guides//Install-Guide'), enc('Getting-started\u0000'), enc('.git/HEAD'), 'guides']) {
      const res = await f.guest.api.get(`${f.wikis()}/${slug}`)
      expect([res.status, res.body], slug).toEqual([404, { message: '404 Wiki Page Not Found' }])
    }
  })
})

describe('PUT /projects/:id/wikis/:slug', () => {
  it('updates the content in place with GitLab\'s message', async () => {
    const res = expectStatus(await f.developer.api.put(`${f.wikis()}/Agenda`, { content: 'new agenda' }), 200)
    expect(res.body).toEqual({ format: 'org', slug: 'Agenda', title: 'Agenda', content: 'new agenda' })
    expect(f.history()[0]).toBe('dave updated page: Agenda|Dave Developer|dave@example.com')
  })

  it('moves the page when the title changes: a plain title stays in its directory, one with / is a path from the root', async () => {
    const moved = expectStatus(await f.developer.api.put(`${f.wikis()}/${enc('guides/Install-Guide')}`, { title: 'Setup Guide' }), 200)
    expect(moved.body).toEqual({ format: 'rdoc', slug: 'guides/Setup-Guide', title: 'Setup Guide', content: 'rdoc text' })
    expect(f.history()[0]).toBe('dave updated page: Setup Guide|Dave Developer|dave@example.com')
    const rooted = expectStatus(await f.developer.api.put(`${f.wikis()}/${enc('guides/Setup-Guide')}`, { title: '/Setup' }), 200)
    expect(rooted.body.slug).toBe('Setup')
    expect(f.files()).toEqual(['Agenda.org', 'C----b-.md', 'Getting-started.md', 'Setup.rdoc', 'Versioned.md', 'guides/Deep/Notes.asciidoc'])
  })

  it('changes the format by renaming the file', async () => {
    const res = expectStatus(await f.developer.api.put(`${f.wikis()}/Setup`, { format: 'markdown' }), 200)
    expect(res.body).toEqual({ format: 'markdown', slug: 'Setup', title: 'Setup', content: 'rdoc text' })
    expect(f.files()).toContain('Setup.md')
  })

  it('refuses a rename onto another page, no field at all, and a missing page, committing nothing', async () => {
    const before = f.history()
    const dup = await f.developer.api.put(`${f.wikis()}/Setup`, { title: 'AGENDA' })
    expect([dup.status, dup.body]).toEqual([400, { message: { base: ['Duplicate page: A page with that title already exists in the file Agenda.org'] } }])
    const none = await f.developer.api.put(`${f.wikis()}/Setup`, {})
    expect([none.status, none.body]).toEqual([400, { error: 'content, title, format are missing, at least one parameter must be provided' }])
    const missing = await f.developer.api.put(`${f.wikis()}/Nope`, { content: 'x' })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Wiki Page Not Found' }])
    const bad = await f.developer.api.put(`${f.wikis()}/Setup`, { content: '' })
    expect([bad.status, bad.body]).toEqual([400, { message: { content: ["can't be blank"] } }])
    expect(f.history()).toEqual(before)
  })
})

describe('DELETE /projects/:id/wikis/:slug', () => {
  it('needs a Maintainer: a Developer gets 403 and the page stays', async () => {
    const res = await f.developer.api.del(`${f.wikis()}/Agenda`)
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(f.files()).toContain('Agenda.org')
  })

  it('deletes with 204 and GitLab\'s message, then the page is gone', async () => {
    const res = await f.maintainer.api.del(`${f.wikis()}/agenda`)
    expect([res.status, res.text]).toEqual([204, ''])
    expect(f.history()[0]).toBe('mia deleted page: Agenda|Mia Maintainer|mia@example.com')
    expect((await f.guest.api.get(`${f.wikis()}/Agenda`)).status).toBe(404)
    expect((await f.maintainer.api.del(`${f.wikis()}/Agenda`)).body).toEqual({ message: '404 Wiki Page Not Found' })
  })
})

describe('concurrent and odd requests', () => {
  it('creates one page of two racing with the same title; the other gets the duplicate answer', async () => {
    const before = f.history().length
    const [a, b] = await Promise.all([
      f.developer.api.post(f.wikis(), { title: 'Race', content: 'a' }),
      f.maintainer.api.post(f.wikis(), { title: 'race', content: 'b' }),
    ])
    expect([a.status, b.status].sort()).toEqual([201, 400])
    expect(f.history().length).toBe(before + 1)
  })

  it('answers 4xx, never 500, to fields of the wrong type or size', async () => {
    const cases: Record<string, unknown>[] = [
      { title: ['a'], content: 'x' }, { title: 'a', content: { b: 1 } }, { title: 'x'.repeat(256), content: 'x' },
      { title: 'a', content: 'x', format: 7 }, { title: 'a/\\b', content: 'x' },
    ]
    for (const body of cases) {
      const res = await f.developer.api.post(f.wikis(), body)
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    const put = await f.developer.api.put(`${f.wikis()}/Getting-started`, { title: '/..' })
    expect([put.status, put.body]).toEqual([400, { message: { title: ['is invalid'] } }])
    const version = await f.guest.api.get(`${f.wikis()}/Getting-started`, { query: { version: 'not-a-sha' } })
    expect([version.status, version.body]).toEqual([404, { message: '404 Wiki Page Not Found' }])
  })
})
