// The Releases API and its links (GitLab's lib/api/releases.rb, lib/api/release/links.rb): exact answers and errors, who
// may do what, permalinks and asset redirects, the Release Hook, and a deleted tag taking its release along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Release, ReleaseLink } from '../../../src/contract/entities/releases.js'
import { createCoordinator } from '../../../src/server/ci/coordinator.js'
import { api, createUser, expectStatus, movableClock, request, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { startReceiver, type Receiver } from '../hooks/receiver.js'
import { formToken, signIn } from '../web/fixture.js'

const clock = movableClock('2030-01-10T12:00:00.000Z')
let server: TestServer
let rx: Receiver
let root: Api
let dev: TestUser
let reporter: TestUser
let guest: TestUser
let id: number
let sha: string
let web: string
const rel = (tag = '') => `/projects/${id}/releases${tag ? `/${encodeURIComponent(tag)}` : ''}`

beforeAll(async () => {
  rx = await startReceiver()
  server = await startCiServer({ clock })
  dev = await createUser(server, 'rdev')
  reporter = await createUser(server, 'rreporter')
  guest = await createUser(server, 'rguest')
  const made = await ciProject(server, 'app', 'job:\n  script: [echo hi]\n', { 'README.md': 'app\n' })
  root = made.root
  id = made.project.id
  sha = made.sha
  web = made.project.web_url
  for (const [u, level] of [[dev, 30], [reporter, 20], [guest, 10]] as const) {
    expectStatus(await root.post(`/projects/${id}/members`, { user_id: u.id, access_level: level }), 201)
  }
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  expectStatus(await root.post(`/projects/${id}/milestones`, { title: 'v1.0', due_date: '2030-02-01' }), 201)
})
afterAll(async () => {
  await server.close()
  await rx.close()
})

describe('POST /projects/:id/releases', () => {
  it('creates the tag from ref with tag_message, then the release with its milestones and links, as GitLab answers it', async () => {
    const res = expectStatus(await dev.api.post(rel(), {
      tag_name: 'v1.0', ref: 'master', tag_message: 'Version 1.0', name: 'First', description: 'Fixes #1',
      milestones: ['v1.0'], assets: { links: [{ name: 'binary', url: 'https://example.com/bin', direct_asset_path: '/bin/app', link_type: 'package' }] },
    }), 201)
    const link = res.body.assets.links[0]
    const milestone = expectStatus(await root.get(`/projects/${id}/milestones`), 200).body[0]
    expect(res.body).toEqual({
      name: 'First', tag_name: 'v1.0', description: 'Fixes #1', created_at: '2030-01-10T12:00:00.000Z', released_at: '2030-01-10T12:00:00.000Z',
      upcoming_release: false, author: expect.objectContaining({ id: dev.id, username: 'rdev' }), commit: expect.objectContaining({ id: sha }),
      milestones: [{ ...milestone, issue_stats: { total: 0, closed: 0 } }],
      commit_path: `/root/app/-/commit/${sha}`, tag_path: '/root/app/-/tags/v1.0',
      assets: {
        count: 5,
        sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((format) => ({ format, url: `${web}/-/archive/v1.0/app-v1.0.${format}` })),
        links: [{ id: link.id, name: 'binary', url: 'https://example.com/bin', direct_asset_url: `${web}/-/releases/v1.0/downloads/bin/app`, link_type: 'package', external: true }],
      },
      evidences: [],
      _links: {
        closed_issues_url: `${web}/-/issues?release_tag=v1.0&scope=all&state=closed`,
        closed_merge_requests_url: `${web}/-/merge_requests?release_tag=v1.0&scope=all&state=closed`,
        edit_url: `${web}/-/releases/v1.0/edit`,
        merged_merge_requests_url: `${web}/-/merge_requests?release_tag=v1.0&scope=all&state=merged`,
        opened_issues_url: `${web}/-/issues?release_tag=v1.0&scope=all&state=opened`,
        opened_merge_requests_url: `${web}/-/merge_requests?release_tag=v1.0&scope=all&state=opened`,
        self: `${web}/-/releases/v1.0`,
      },
    })
    expect(Release.strict().parse(res.body)).toBeTruthy()
    // The tag is annotated, and the tags API shows its release.
    const tag = expectStatus(await root.get(`/projects/${id}/repository/tags/v1.0`), 200).body
    expect([tag.message, tag.target === sha, tag.release]).toEqual(['Version 1.0', false, { tag_name: 'v1.0', description: 'Fixes #1' }])
  })

  it('answers GitLab\'s errors: no tag_name, no ref for a new tag, a bad ref, a taken tag, unknown milestones, bad links', async () => {
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{}, 400, { message: '400 (Bad request) "tag_name" not given' }],
      [{ tag_name: 'v9' }, 422, { message: 'Ref is not specified' }],
      [{ tag_name: 'v9', ref: 'nope' }, 400, { message: 'Target nope is invalid' }],
      [{ tag_name: 'v1.0' }, 409, { message: 'Release already exists' }],
      [{ tag_name: 'v9', ref: 'master', milestones: ['v1.0', 'v7', 'v8'] }, 400, { message: 'Milestone(s) not found: v7, v8' }],
      [{ tag_name: 'v9', ref: 'master', milestones: ['v1.0'], milestone_ids: [1] }, 400,
        { error: 'milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time' }],
      [{ tag_name: 'v9', ref: 'master', assets: { links: [{ name: 'a', url: 'https://x.test/1' }, { name: 'a', url: 'ssh://x.test/2' }] } }, 400,
        { message: 'Validation failed: Links url is blocked: Only allowed schemes are http, https, ftp, Links have duplicate values (a)' }],
    ]
    for (const [body, status, answer] of cases) {
      const res = await dev.api.post(rel(), body)
      expect([res.status, res.body]).toEqual([status, answer])
    }
    // Nothing of the refused ones was made, not even their tags.
    expect((await root.get(`/projects/${id}/repository/tags/v9`)).status).toBe(404)
  })

  it('is for Developers: a Reporter gets 403, a protected tag needs who may create it, a stranger sees no project', async () => {
    const refused = await reporter.api.post(rel(), { tag_name: 'r1', ref: 'master' })
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    expectStatus(await root.post(`/projects/${id}/protected_tags`, { name: 'prod-*' }), 201)
    const prot = await dev.api.post(rel(), { tag_name: 'prod-1', ref: 'master' })
    expect([prot.status, prot.body]).toEqual([403, { message: 'You are not allowed to create this tag as it is protected.' }])
    expectStatus(await root.post(rel(), { tag_name: 'prod-1', ref: 'master' }), 201)
    // Nor may the Developer change or delete the release of a protected tag.
    expect((await dev.api.put(rel('prod-1'), { name: 'x' })).status).toBe(403)
    expect((await dev.api.del(rel('prod-1'))).status).toBe(403)
    expect(expectStatus(await dev.api.get(rel('prod-1')), 200).body._links.edit_url).toBeUndefined()
    expect((await api(server).post(rel(), { tag_name: 'a1', ref: 'master' })).status).toBe(401)
    expect((await (await createUser(server, 'rstranger')).api.post(rel(), { tag_name: 'a1', ref: 'master' })).status).toBe(404)
  })
})

describe('reading releases', () => {
  it('lists newest released first (or by created_at, asc), paginated, and renders notes with include_html_description', async () => {
    clock.set('2030-01-11T00:00:00.000Z')
    expectStatus(await dev.api.post(rel(), { tag_name: 'v0.9', ref: 'master', released_at: '2029-12-01T00:00:00Z' }), 201)
    const tags = async (query: Record<string, string | number | boolean>) =>
      expectStatus(await dev.api.get(rel(), { query }), 200).body.map((r: any) => r.tag_name)
    expect(await tags({})).toEqual(['prod-1', 'v1.0', 'v0.9'])
    expect(await tags({ order_by: 'created_at' })).toEqual(['v0.9', 'prod-1', 'v1.0'])
    expect(await tags({ sort: 'asc' })).toEqual(['v0.9', 'v1.0', 'prod-1'])
    const page = expectStatus(await dev.api.get(rel(), { query: { per_page: 1, page: 2 } }), 200)
    expect([page.body.map((r: any) => r.tag_name), page.headers.get('x-total')]).toEqual([['v1.0'], '3'])
    const issue = expectStatus(await root.post(`/projects/${id}/issues`, { title: 'Bug' }), 201).body
    const html = expectStatus(await dev.api.get(rel('v1.0'), { query: { include_html_description: true } }), 200).body.description_html
    expect(html).toContain(`href="${issue.web_url}"`)
    expect(expectStatus(await dev.api.get(rel('v1.0')), 200).body.description_html).toBeUndefined()
  })

  it('shows a Guest of a private project the list without code (no commit, paths, sources; a neutral name), and no single release', async () => {
    const [first] = expectStatus(await guest.api.get(rel(), { query: { per_page: 1 } }), 200).body
    const own = expectStatus(await root.get(rel('prod-1')), 200).body
    expect(first).toEqual({
      name: expect.stringMatching(/^Release-\d+$/), tag_name: 'prod-1', description: null, created_at: own.created_at, released_at: own.released_at,
      upcoming_release: false, author: own.author, assets: { count: 0, links: [] }, _links: { ...own._links, edit_url: undefined },
    })
    expect((await guest.api.get(rel('prod-1'))).status).toBe(403)
    expect((await api(server).get(rel())).status).toBe(404)
    const missing = await dev.api.get(rel('v404'))
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not Found' }])
  })

  it('redirects permalink/latest (and what follows it) to the latest release, for the API and the web', async () => {
    const latest = await dev.api.get(`${rel()}/permalink/latest`, { query: { include_html_description: true, order_by: 'x' } })
    expect([latest.status, latest.headers.get('location')]).toEqual([302, `${server.api}/projects/${id}/releases/prod-1?include_html_description=true`])
    const links = await dev.api.get(`${rel()}/permalink/latest/assets/links`)
    expect(links.headers.get('location')).toBe(`${server.api}/projects/${id}/releases/prod-1/assets/links`)
  })
})

describe('PUT and DELETE /projects/:id/releases/:tag_name', () => {
  it('updates name, notes, a future date (upcoming) and milestones, and refuses empty or unknown changes', async () => {
    const res = expectStatus(await dev.api.put(rel('v0.9'), { name: 'Beta', description: 'Notes', released_at: '2031-01-01T00:00:00Z', milestones: ['v1.0'] }), 200)
    expect([res.body.name, res.body.description, res.body.released_at, res.body.upcoming_release, res.body.milestones.length])
      .toEqual(['Beta', 'Notes', '2031-01-01T00:00:00.000Z', true, 1])
    expect(expectStatus(await dev.api.put(rel('v0.9'), { milestones: [] }), 200).body.milestones).toBeUndefined()
    for (const [body, status, answer] of [
      [{}, 400, { message: 'params is empty' }],
      [{ milestones: ['v7'] }, 400, { message: 'Milestone(s) not found: v7' }],
    ] as const) {
      const r = await dev.api.put(rel('v0.9'), body)
      expect([r.status, r.body]).toEqual([status, answer])
    }
    // The API authorizes against the release it finds: none is a 403, as for a Reporter.
    expect((await dev.api.put(rel('v404'), { name: 'x' })).status).toBe(403)
    expect((await reporter.api.put(rel('v0.9'), { name: 'x' })).status).toBe(403)
  })

  it('deletes a release (answering it) and keeps its tag', async () => {
    const res = expectStatus(await dev.api.del(rel('v0.9')), 200)
    expect([res.body.tag_name, res.body.name]).toEqual(['v0.9', 'Beta'])
    expect((await dev.api.get(rel('v0.9'))).status).toBe(404)
    expect(expectStatus(await root.get(`/projects/${id}/repository/tags/v0.9`), 200).body.release).toBeNull()
    expect((await dev.api.del(rel('v0.9'))).status).toBe(403)
  })
})

describe('release links', () => {
  const links = (tag: string) => `${rel(tag)}/assets/links`

  it('adds, reads, updates and deletes links with GitLab\'s validations', async () => {
    const made = expectStatus(await dev.api.post(links('v1.0'), { name: 'docs', url: `${web}/-/wikis/home`, filepath: '/docs' }), 201).body
    expect(made).toEqual({ id: made.id, name: 'docs', url: `${web}/-/wikis/home`, direct_asset_url: `${web}/-/releases/v1.0/downloads/docs`, link_type: 'other', external: false })
    expect(ReleaseLink.strict().parse(made)).toEqual(made)
    const list = expectStatus(await guest.api.get(links('v1.0')), 200).body
    expect(list.map((l: any) => l.name)).toEqual(['docs', 'binary'])
    for (const [body, answer] of [
      [{ name: 'docs', url: 'https://example.com/other' }, ['Name has already been taken']],
      [{ name: 'other', url: 'https://example.com/bin', direct_asset_path: '/docs' }, ['Url has already been taken', 'Filepath has already been taken']],
      [{ name: 'bad', url: 'https://example.com/x', filepath: 'no-slash' }, ['Filepath is in an invalid format']],
    ] as const) {
      const r = await dev.api.post(links('v1.0'), body)
      expect([r.status, r.body]).toEqual([400, { message: answer }])
    }
    const bad = await dev.api.post(links('v1.0'), { name: 'x', url: 'https://example.com/x', link_type: 'nope' })
    expect([bad.status, bad.body]).toEqual([400, { message: { link_type: ['does not have a valid value'] } }])
    const updated = expectStatus(await dev.api.put(`${links('v1.0')}/${made.id}`, { name: 'manual', link_type: 'runbook' }), 200).body
    expect([updated.name, updated.url, updated.link_type]).toEqual(['manual', `${web}/-/wikis/home`, 'runbook'])
    expect(expectStatus(await dev.api.get(`${links('v1.0')}/${made.id}`), 200).body).toEqual(updated)
    const none = await dev.api.put(`${links('v1.0')}/${made.id}`, { link_type: 'image' })
    expect([none.status, none.body]).toEqual([400, { error: 'name, url are missing, at least one parameter must be provided' }])
    expect((await reporter.api.post(links('v1.0'), { name: 'r', url: 'https://example.com/r' })).status).toBe(403)
    expect(expectStatus(await dev.api.del(`${links('v1.0')}/${made.id}`), 200).body).toEqual(updated)
    const gone = await dev.api.get(`${links('v1.0')}/${made.id}`)
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }])
    expect((await dev.api.get(links('v404'))).status).toBe(404)
  })

  it('redirects a direct asset URL (web and API, by tag or permalink) to the link\'s URL', async () => {
    // Pages read the session, not tokens: the project goes public so that an anonymous browser sees them.
    expectStatus(await root.put(`/projects/${id}`, { visibility: 'public' }), 200)
    const get = (url: string) => request(server, 'GET', url.replace(server.url, ''))
    for (const url of [`${web}/-/releases/v1.0/downloads/bin/app`, `${server.api}/projects/${id}/releases/v1.0/downloads/bin/app`]) {
      const r = await get(url)
      expect([url, r.status, r.headers.get('location')]).toEqual([url, 302, 'https://example.com/bin'])
    }
    expect((await get(`${web}/-/releases/v1.0/downloads/nothing`)).status).toBe(404)
    // A permalink leads to the latest release's page (or what follows it there), which then redirects on its own.
    expect((await get(`${web}/-/releases/permalink/latest`)).headers.get('location')).toBe(`${web}/-/releases/prod-1`)
    expect((await get(`${web}/-/releases/permalink/latest/downloads/bin/app`)).headers.get('location')).toBe(`${web}/-/releases/prod-1/downloads/bin/app`)
  })
})

describe('web pages', () => {
  it('lists releases and shows one with its rendered notes, milestones and assets, escaping what users wrote', async () => {
    expectStatus(await dev.api.post(rel(), { tag_name: 'x/1', ref: 'master', name: '<img src=x onerror=alert(1)>', description: '**bold** <script>alert(2)</script> #1' }), 201)
    const list = await request(server, 'GET', `/root/app/-/releases`)
    expect(list.status).toBe(200)
    expect(list.text).toContain(`href="${web}/-/releases/x%2F1"`)
    expect(list.text).toContain('&lt;img src=x onerror=alert(1)&gt;')
    const one = await request(server, 'GET', `/root/app/-/releases/x%2F1`)
    expect(one.status).toBe(200)
    expect(one.text).toContain('<strong>bold</strong>')
    expect(one.text).not.toContain('<script>alert(2)')
    expect(one.text).toMatch(/href="[^"]*\/-\/issues\/1"/)
    expect(one.text).toContain(`href="${web}/-/archive/x/1/app-x-1.zip"`)
    const v1 = await request(server, 'GET', `/root/app/-/releases/v1.0`)
    expect(v1.text).toContain(`href="${web}/-/releases/v1.0/downloads/bin/app"`)
    expect(v1.text).toContain(`/-/milestones/1"`)
    // The source archive a release links to is served.
    const zip = await fetch(`${web}/-/archive/x/1/app-x-1.zip`)
    const bytes = Buffer.from(await zip.arrayBuffer())
    expect([zip.status, zip.headers.get('content-type'), bytes.subarray(0, 2).toString()]).toEqual([200, 'application/zip', 'PK'])
    // Its top directory is named as the file, as GitLab's web archives are (no commit id appended).
    expect(bytes.includes(Buffer.from('app-x-1/README.md'))).toBe(true)
    expect((await request(server, 'GET', `/root/app/-/releases/v404`)).status).toBe(404)
    // Where tag_path points: the tags, with their releases.
    const tag = await request(server, 'GET', '/root/app/-/tags/v1.0')
    expect([tag.status, tag.text.includes(`href="${web}/-/releases/v1.0">Release First</a>`)]).toEqual([200, true])
    expect((await request(server, 'GET', '/root/app/-/tags')).text).toContain(`href="${web}/-/tags/x/1"`)
  })

  it('edits a release through the page edit_url points to, for those who may update it', async () => {
    const cookie = await signIn(server, dev)
    const page = await request(server, 'GET', '/root/app/-/releases/v1.0/edit', { headers: { Cookie: cookie } })
    expect(page.status).toBe(200)
    const form = { authenticity_token: formToken(page.text), name: 'First, edited', description: 'New *notes*', released_at: '2030-01-05T00:00:00Z' }
    const saved = await request(server, 'POST', '/root/app/-/releases/v1.0/edit', { form, headers: { Cookie: cookie } })
    expect([saved.status, saved.headers.get('location')]).toEqual([303, `${web}/-/releases/v1.0`])
    const now = expectStatus(await dev.api.get(rel('v1.0')), 200).body
    expect([now.name, now.description, now.released_at]).toEqual(['First, edited', 'New *notes*', '2030-01-05T00:00:00.000Z'])
    const forged = await request(server, 'POST', '/root/app/-/releases/v1.0/edit', { form: { ...form, authenticity_token: 'x', name: 'forged' }, headers: { Cookie: cookie } })
    expect(forged.status).toBe(422)
    const reporterCookie = await signIn(server, reporter)
    expect((await request(server, 'GET', '/root/app/-/releases/v1.0/edit', { headers: { Cookie: reporterCookie } })).status).toBe(404)
    expect((await request(server, 'GET', '/root/app/-/releases/v1.0/edit')).headers.get('location')).toBe(`${server.url}/users/sign_in`)
  })
})

describe('hooks, tags and job tokens', () => {
  it('delivers Release Hooks on create, update and delete, and deleting a tag deletes its release', async () => {
    rx.received.length = 0
    const hook = expectStatus(await root.post(`/projects/${id}/hooks`, { url: `${rx.url}/releases`, push_events: false, releases_events: true }), 201).body
    expectStatus(await dev.api.post(rel(), { tag_name: 'v2.0', ref: 'master', description: 'two' }), 201)
    expectStatus(await dev.api.put(rel('v2.0'), { name: 'Two' }), 200)
    expect((await dev.api.del(`/projects/${id}/repository/tags/v2.0`)).status).toBe(204)
    const got = await rx.waitFor(3)
    expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.object_kind, r.body.action, r.body.name])).toEqual([
      ['Release Hook', 'release', 'create', 'v2.0'], ['Release Hook', 'release', 'update', 'Two'], ['Release Hook', 'release', 'delete', 'Two'],
    ])
    const created = got[0].body
    expect(created).toEqual(expect.objectContaining({
      tag: 'v2.0', description: 'two', created_at: '2030-01-11 00:00:00 UTC', released_at: '2030-01-11 00:00:00 UTC',
      url: `${web}/-/releases/v2.0`, project: expect.objectContaining({ id, path_with_namespace: 'root/app' }),
      assets: { count: 4, links: [], sources: expect.arrayContaining([{ format: 'zip', url: `${web}/-/archive/v2.0/app-v2.0.zip` }]) },
      commit: expect.objectContaining({ id: sha, url: `${web}/-/commit/${sha}` }),
    }))
    expect((await dev.api.get(rel('v2.0'))).status).toBe(404)
    // The hook's test sends the newest release as created.
    expectStatus(await root.post(`/projects/${id}/hooks/${hook.id}/test/releases_events`), 201)
    const [sample] = (await rx.waitFor(4)).slice(3)
    expect([sample.headers['x-gitlab-event'], sample.body.action, sample.body.tag]).toEqual(['Release Hook', 'create', 'x/1'])
  })

  it('lets a job token create releases of its own project only, and records the tag it makes as a pushed tag', async () => {
    const payload = await createCoordinator(server.app).requestJob({ id: 'r', concurrency: 1 })
    const asJob = api(server)
    const headers = { 'JOB-TOKEN': payload!.token }
    const made = expectStatus(await asJob.post(rel(), { tag_name: 'ci-1', ref: 'master' }, { headers }), 201).body
    expect(made.author.username).toBe('root')
    const other = (await ciProject(server, 'other', null, { 'README.md': 'x' })).project
    expectStatus(await root.post(`/projects/${other.id}/job_token_scope/allowlist`, { target_project_id: id }), 201)
    const elsewhere = await asJob.post(`/projects/${other.id}/releases`, { tag_name: 'x', ref: 'master' }, { headers })
    expect([elsewhere.status, elsewhere.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(expectStatus(await asJob.get(`/projects/${other.id}/releases`, { headers }), 200).body).toEqual([])
    await server.app.tasks.idle()
    const events = expectStatus(await root.get(`/projects/${id}/events`), 200).body
    expect(events.some((e: any) => e.push_data?.ref === 'ci-1' && e.push_data.ref_type === 'tag' && e.action_name === 'pushed new')).toBe(true)
    expect(events.some((e: any) => e.target_type === 'Release')).toBe(false)
  })

  it('lists group releases of the projects the caller may see', async () => {
    const group = expectStatus(await root.post('/groups', { name: 'Rel', path: 'rel' }), 201).body
    const p = (await ciProject(server, 'grouped', null, { 'README.md': 'x' }, { namespace_id: group.id })).project
    expectStatus(await root.post(`/projects/${p.id}/releases`, { tag_name: 'g1', ref: 'master', description: 'g' }), 201)
    expect(expectStatus(await root.get(`/groups/${group.id}/releases`, { query: { simple: true } }), 200).body).toEqual([
      { name: 'g1', tag_name: 'g1', description: 'g', created_at: '2030-01-11T00:00:00.000Z', released_at: '2030-01-11T00:00:00.000Z', upcoming_release: false },
    ])
    expect((await dev.api.get(`/groups/${group.id}/releases`)).status).toBe(404)
  })
})
