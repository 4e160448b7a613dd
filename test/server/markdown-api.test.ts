// POST /markdown: the web pages' renderer, GitLab references resolved in a visible project, authentication required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, type TestUser } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  await createProject(alice.api, { name: 'demo', visibility: 'public' })
  await createProject(alice.api, { name: 'secret', visibility: 'private' })
})
afterAll(() => server.close())

describe('POST /markdown', () => {
  it('renders markdown with raw HTML escaped, answering 201', async () => {
    const res = await alice.api.post('/markdown', { text: '# Hi\n\n*there* <script>x</script>' })
    expect(res.status).toBe(201)
    expect(res.text).toBe('{"html":"<h1>Hi</h1>\\n<p><em>there</em> &lt;script&gt;x&lt;/script&gt;</p>\\n"}')
  })

  it('links references in the project with gfm, and leaves them as text without', async () => {
    const gfm = await bob.api.post('/markdown', { text: 'See #1 and !2, @alice', gfm: true, project: 'alice/demo' })
    expect(gfm.body.html).toBe(`<p>See <a href="${server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a> and `
      + `<a href="${server.url}/alice/demo/-/merge_requests/2" class="gfm-reference">!2</a>, `
      + `<a href="${server.url}/alice" class="gfm-reference">@alice</a></p>\n`)
    const plain = await bob.api.post('/markdown', { text: 'See #1', project: 'alice/demo' })
    expect(plain.body.html).toBe('<p>See #1</p>\n')
  })

  it('renders task lists as the web pages do', async () => {
    const res = await alice.api.post('/markdown', { text: '- [x] done\n- [ ] todo', gfm: 'true' })
    expect(res.body.html).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled checked> done')
  })

  it('answers 404 for a project the caller cannot see', async () => {
    const res = await bob.api.post('/markdown', { text: '#1', gfm: true, project: 'alice/secret' })
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 Project Not Found"}')
  })

  it('answers 400 without text and 401 without credentials', async () => {
    const missing = await alice.api.post('/markdown', { gfm: true })
    expect(missing.status).toBe(400)
    expect(missing.text).toBe('{"message":"400 (Bad request) \\"text\\" not given"}')
    expect((await api(server).post('/markdown', { text: 'x' })).status).toBe(401)
  })
})
