// Markdown that cannot stall the server (issue 21): a long text is rendered once and its render kept (views read it
// back, whatever Host they name), and of a text over the limit only the first 100,000 characters are rendered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, rawRequest, request, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { stmt } from '../../src/server/store/db.js'

let server: TestServer
let alice: TestUser
let projectId: number

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  projectId = (await createProject(alice.api, { name: 'Demo', visibility: 'public' })).id
})
afterAll(() => server.close())

/** A description of about 60,000 characters: over what is kept in memory only, under the limit. */
const long = (words: string) => `# ${words}\n\n` + `Some **bold** text about #1 by @alice, ${words}.\n\n`.repeat(1200)

async function issueWith(description: string): Promise<string> {
  const issue = expectStatus(await alice.api.post(`/projects/${projectId}/issues`, { title: 'Long', description }), 201).body
  return `/alice/demo/-/issues/${issue.iid}`
}

const keptRenders = () => (stmt(server.app.db, 'SELECT COUNT(*) AS n FROM markdown_cache').get() as { n: number }).n
const view = async (path: string) => expectStatus(await request(server, 'GET', path), 200).text

describe('a long description', () => {
  it('is rendered on the first view only: later views show the kept render', async () => {
    const page = await issueWith(long('render once'))
    const before = keptRenders()
    const first = await view(page)
    expect(first).toContain('<p>Some <strong>bold</strong> text about <a href="' + server.url + '/alice/demo/-/issues/1" class="gfm-reference">#1</a>')
    expect(keptRenders()).toBe(before + 1)
    // Views that rendered again would show the text; views that read the kept render show what it now says.
    stmt(server.app.db, "UPDATE markdown_cache SET html = '<p id=\"kept\">the kept render</p>' WHERE id = (SELECT MAX(id) FROM markdown_cache)").run()
    for (let i = 0; i < 3; i++) expect(await view(page)).toContain('<p id="kept">the kept render</p>')
    expect(keptRenders()).toBe(before + 1)
  })

  it('is not rendered again for a client that names another Host, which still gets links to the host it named', async () => {
    const page = await issueWith(long('any host'))
    await view(page)
    const before = keptRenders()
    const other = await rawRequest(server, { path: page, headers: { Host: 'collab.example.test:8080' } })
    expect(other.text).toContain('<a href="http://collab.example.test:8080/alice/demo/-/issues/1" class="gfm-reference">#1</a>')
    expect(other.text).toContain('<a href="http://collab.example.test:8080/alice" class="gfm-reference">@alice</a>')
    expect(keptRenders()).toBe(before)
  })

  it('is rendered again once its text changes', async () => {
    const page = await issueWith(long('before the edit'))
    await view(page)
    const before = keptRenders()
    expectStatus(await alice.api.put(`/projects/${projectId}/issues/${page.split('/').pop()}`, { description: long('after the edit') }), 200)
    expect(await view(page)).toContain('<h1>after the edit</h1>')
    expect(keptRenders()).toBe(before + 1)
  })
})

describe('a text over the limit', () => {
  // Close to 1 MB (the API takes up to 1,000,000 characters) of references, markup and raw HTML, with a last line of its own.
  const line = 'See #1 and **this** <script>alert(1)</script> @alice\n'
  const huge = line.repeat(Math.floor(998_000 / line.length)) + 'The last line.\n'
  const notice = '<p class="markdown-truncated"><em>The text is longer than 100,000 characters and has been visually truncated.</em></p>'

  it('is rendered only as far as the limit, with a notice, once', async () => {
    expect(huge.length).toBeGreaterThan(100_000)
    const page = await issueWith(huge)
    const before = keptRenders()
    const text = await view(page)
    expect(text).toContain(`${notice}\n<p>See <a href="${server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a> and <strong>this</strong> &lt;script&gt;`)
    expect(text).not.toContain('The last line.')
    // The page carries about the limit's worth of rendered text, not the whole megabyte.
    expect(text.length).toBeLessThan(600_000)
    expect(keptRenders()).toBe(before + 1)
    await view(page)
    expect(keptRenders()).toBe(before + 1)
  })

  it('is cut the same way by POST /markdown, which keeps no preview', async () => {
    const before = keptRenders()
    const res = expectStatus(await alice.api.post('/markdown', { text: huge, gfm: true, project: 'alice/demo' }), 201)
    expect(res.body.html.startsWith(`${notice}\n<p>See <a href="${server.url}/alice/demo/-/issues/1"`)).toBe(true)
    expect(res.body.html).not.toContain('The last line.')
    expectStatus(await alice.api.post('/markdown', { text: long('a preview'), gfm: true, project: 'alice/demo' }), 201)
    expect(keptRenders()).toBe(before)
  })
})
