// Every web_url the API answers opens a page (issue 13): a world seeded through the API, every GET endpoint that
// answers a page link called, and each link read as its owner, signed in with the session cookie.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { request } from '../../helpers/api.js'
import { collectWebUrls, urlShape, type Walk } from './collect-urls.js'
import { signIn } from './fixture.js'
import { seedWorld, type World } from './world.js'

let w: World
let walk: Walk
let cookie: string

beforeAll(async () => {
  w = await seedWorld()
  cookie = await signIn(w.server, w.alice)
  walk = await collectWebUrls(w)
}, 180_000)
afterAll(() => w?.server.close())

it('walks the contract: the endpoints that answer links are called with the world filling their parameters', () => {
  // Every one is reached: /job (a running job's token only) is left out by the walk itself.
  expect(walk.skipped.sort()).toEqual([])
  console.log(`${walk.called.length} calls; these answered an empty list: ${[...new Set(walk.empty)].join(', ')}`)
  expect(walk.called.length).toBeGreaterThan(120)
})

it('opens a page for every web_url, target_url and UI link the API answers', async () => {
  const failed: string[] = []
  for (const url of walk.urls) {
    const res = await request(w.server, 'GET', url.slice(w.server.url.length), { headers: { Cookie: cookie } })
    if (res.status !== 200 || res.headers.get('content-type') !== 'text/html; charset=utf-8') failed.push(`${res.status} ${url}`)
  }
  const shapes = [...new Set([...walk.urls].map((u) => urlShape(w, u)))].sort()
  console.log(`web_url shapes covered (${shapes.length}, from ${walk.urls.size} URLs):\n  ${shapes.join('\n  ')}`)
  expect(failed).toEqual([])
  expect(shapes.length).toBeGreaterThan(15)
}, 120_000)

it('opens the public ones to an anonymous visitor too, and none of the private or internal project', async () => {
  const wrong: string[] = []
  for (const url of walk.urls) {
    const path = url.slice(w.server.url.length)
    const res = await request(w.server, 'GET', path)
    // Internal needs a signed-in user, as the API has it.
    const hidden = /^\/(alice\/secret|team\/sub\/inner)(\/|$)/.test(path)
    // An edit page (a release's edit_url) asks an anonymous visitor to sign in, as GitLab's do.
    const shown = /\/-\/releases\/[^?]+\/edit$/.test(path) ? 303 : 200
    if (res.status !== (hidden ? 404 : shown)) wrong.push(`${res.status} ${path}`)
  }
  expect(wrong).toEqual([])
})

it('serves every raw_url as the file itself', async () => {
  expect(walk.raw.size).toBeGreaterThan(3)
  for (const url of walk.raw) {
    const res = await request(w.server, 'GET', url.slice(w.server.url.length), { headers: { Cookie: cookie } })
    expect([url, res.status, res.headers.get('content-type')]).toEqual([url, 200, 'text/plain; charset=utf-8'])
  }
})

it('shows a milestone with its issues and merge requests, a group milestone, and hides what the viewer may not see', async () => {
  const page = (path: string, as = cookie) => request(w.server, 'GET', path, { headers: as ? { Cookie: as } : {} })
  const one = await page('/alice/demo/-/milestones/1')
  expect(one.status).toBe(200)
  expect(one.text).toContain('<h2 id="milestone-title">M1 &lt;script&gt;window.__xss=1&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; {{7*7}}')
  expect(one.text).toContain(`<a href="${w.server.url}/alice/demo/-/issues/${w.issue.iid}">Issue &lt;script&gt;`)
  expect(one.text).toContain(`<a href="${w.server.url}/alice/demo/-/merge_requests/${w.mr.iid}">MR &lt;script&gt;`)
  const list = await page('/alice/demo/-/milestones')
  expect(list.text).toContain(`<a href="${w.server.url}/alice/demo/-/milestones/1"><strong>M1 &lt;script&gt;`)
  expect((await page('/groups/team/-/milestones')).text).toContain(`<a href="${w.server.url}/groups/team/-/milestones/1"><strong>G1 &lt;script&gt;`)
  expect((await page('/groups/team/-/milestones/1')).text).toContain('<h2 id="milestone-title">G1 &lt;script&gt;')
  expect((await page('/alice/demo/-/milestones/99')).status).toBe(404)
  expect((await page('/groups/team/-/milestones/99')).status).toBe(404)
  expect((await page('/alice/secret/-/milestones', '')).status).toBe(404)
  expect((await page('/alice/secret/-/milestones')).status).toBe(200)
})

it('shows a comparison of two commits with its commits and diff, and answers 404 to a range it cannot read', async () => {
  const as = w.alice.api
  const made = await as.post(`/projects/${w.pub.id}/repository/commits`, {
    branch: 'compare-me', start_branch: 'main', commit_message: 'Compare <b>me</b>', actions: [{ action: 'create', file_path: 'compare.txt', content: 'new\n' }],
  })
  expect(made.status).toBe(201)
  const compare = await as.get(`/projects/${w.pub.id}/repository/compare`, { query: { from: 'main', to: 'compare-me' } })
  const page = await request(w.server, 'GET', compare.body.web_url.slice(w.server.url.length), { headers: { Cookie: cookie } })
  expect(page.status).toBe(200)
  expect(page.text).toContain('Compare &lt;b&gt;me&lt;/b&gt;')
  expect(page.text).toContain('compare.txt')
  expect(page.text).toContain('1 commits, 1 files changed')
  expect((await request(w.server, 'GET', '/alice/demo/-/compare/%zz...main', { headers: { Cookie: cookie } })).status).toBe(404)
  expect((await request(w.server, 'GET', '/alice/demo/-/compare/nope...main', { headers: { Cookie: cookie } })).status).toBe(200)
})
