// The group page: description rendered and escaped, the subgroups and projects the viewer may see, private groups
// and projects hidden from outsiders (the HTML 404 for a private group itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGroup } from '../../helpers/api.js'
import { ESCAPED_XSS, getPage, injected, pagesFixture, type PagesFixture } from './wiki-snippet-fixture.js'

let f: PagesFixture
beforeAll(async () => { f = await pagesFixture() }, 60_000)
afterAll(() => f?.server.close())

describe('group pages', () => {
  it('opens the web_url the API returns: description, public subgroups and projects, nothing private, for anonymous viewers', async () => {
    expect(f.group.web_url).toBe(`${f.server.url}/groups/team`)
    const res = await getPage(f, '/groups/team')
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(res.text).toContain('<h1 id="group-name">Team</h1>')
    expect(res.text).toContain(`<div class="markdown" id="description"><p>Team ${ESCAPED_XSS}</p>\n</div>`)
    expect(res.text).toContain(`<h2>Subgroups</h2><ul class="list" id="subgroups"><li><a href="${f.server.url}/groups/team/sub"><strong>Sub</strong></a>\n` +
      '<span class="label">public</span><div class="muted">open subgroup</div></li></ul>')
    expect(res.text).toContain(`<h2>Projects</h2><ul class="list" id="projects"><li><a href="${f.server.url}/team/tool"><strong>Team / tool</strong></a>\n` +
      `<span class="label">public</span><div class="muted">Tool ${ESCAPED_XSS}</div></li></ul>`)
    for (const hidden of ['Hidden', '/team/inner']) expect(res.text).not.toContain(hidden)
    expect((await getPage(f, '/groups/team', f.bobCookie)).text).not.toContain('/team/inner')
    expect(injected(res.text)).toEqual([])
  })

  it('shows members the private subgroup and project', async () => {
    const { text } = await getPage(f, '/groups/team', f.aliceCookie)
    expect(text).toContain(`<a href="${f.server.url}/groups/team/hidden"><strong>Hidden</strong></a>`)
    expect(text).toContain(`<a href="${f.server.url}/team/inner"><strong>Team / inner</strong></a>`)
  })

  it('opens a subgroup by its full path, linking its parent', async () => {
    const { status, text } = await getPage(f, '/groups/team/sub')
    expect(status).toBe(200)
    expect(text).toContain(`<h1 id="group-name">Team / Sub</h1>\n<p class="muted"><span class="label">public</span> team/sub <a href="${f.server.url}/groups/team">Parent group</a></p>`)
    expect(text).toContain('<h2>Projects</h2><p class="muted">This group has no projects you can see.</p>')
  })

  it('answers the HTML 404 for a private group to outsiders and for unknown groups', async () => {
    for (const cookie of [undefined, f.bobCookie]) {
      const res = await getPage(f, '/groups/team/hidden', cookie)
      expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8'])
      expect(res.text).toContain('<h1>404: Page not found</h1>')
    }
    expect((await getPage(f, '/groups/team/hidden', f.aliceCookie)).status).toBe(200)
    expect((await getPage(f, '/groups/nothing-here')).status).toBe(404)
    // An id is no group's path: `/groups/<id>` opens nothing.
    expect((await getPage(f, `/groups/${f.group.id}`)).status).toBe(404)
  })

  it('takes a top-level group\'s /<path> to /groups/<path>, as GitLab does', async () => {
    const res = await getPage(f, '/team')
    expect([res.status, res.headers.get('location')]).toEqual([303, `${f.server.url}/groups/team`])
    const secret = await createGroup(f.alice.api, { name: 'Closed', path: 'closed', visibility: 'private' })
    expect((await getPage(f, '/closed')).status).toBe(404)
    expect((await getPage(f, '/closed', f.aliceCookie)).headers.get('location')).toBe(secret.web_url)
  })
})
