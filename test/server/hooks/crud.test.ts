// Project hooks (Maintainers) and system hooks (administrators): create, read, update, delete, with GitLab's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, movableClock, type Api, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let dev: TestUser
let project: any

const AT = '2024-05-01T10:00:00.000Z'

beforeAll(async () => {
  server = await startTestServer({ clock: movableClock(AT) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  dev = await createUser(server, 'dev')
  project = await createProject(alice.api, { name: 'demo' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: dev.id, access_level: 30 }), 201)
})
afterAll(() => server.close())

const hooks = () => `/projects/${project.id}/hooks`

const projectHook = (over: Record<string, unknown>) => ({
  id: expect.any(Number), url: 'http://example.com/hook', name: null, description: null, created_at: AT,
  push_events: true, tag_push_events: false, merge_requests_events: false, repository_update_events: false, enable_ssl_verification: true,
  alert_status: 'executable', disabled_until: null, url_variables: [], push_events_branch_filter: null, branch_filter_strategy: 'wildcard',
  custom_webhook_template: null, custom_headers: [], project_id: project.id, issues_events: false, confidential_issues_events: false,
  note_events: false, confidential_note_events: false, pipeline_events: false, wiki_page_events: false, deployment_events: false,
  feature_flag_events: false, job_events: false, releases_events: false, milestone_events: false, emoji_events: false,
  resource_access_token_events: false, ...over,
})

describe('project hooks', () => {
  it('creates a hook with GitLab defaults and never shows its token or variable values back', async () => {
    const created = expectStatus(await alice.api.post(hooks(), {
      url: 'http://example.com/hook', token: 's3cret', issues_events: 'true', url_variables: [{ key: 'team', value: 'core' }],
      custom_headers: [{ key: 'X-Extra', value: 'v' }], name: 'ci', description: 'to CI',
    }), 201).body
    expect(created).toEqual(projectHook({ issues_events: true, url_variables: [{ key: 'team' }], custom_headers: [{ key: 'X-Extra' }], name: 'ci', description: 'to CI' }))
    expect(JSON.stringify(created)).not.toContain('s3cret')
    expect(expectStatus(await alice.api.get(`${hooks()}/${created.id}`), 200).body).toEqual(created)
    const list = expectStatus(await alice.api.get(hooks()), 200)
    expect(list.body).toEqual([created])
    expect(list.headers.get('x-total')).toBe('1')
  })

  it('updates only what is given, and clears the filter for all_branches', async () => {
    const h = expectStatus(await alice.api.post(hooks(), { url: 'http://example.com/hook', push_events_branch_filter: 'main' }), 201).body
    const updated = expectStatus(await alice.api.put(`${hooks()}/${h.id}`, { note_events: true, push_events: false }), 200).body
    expect(updated).toEqual(projectHook({ id: h.id, note_events: true, push_events: false, push_events_branch_filter: 'main' }))
    const all = expectStatus(await alice.api.put(`${hooks()}/${h.id}`, { branch_filter_strategy: 'all_branches' }), 200).body
    expect(all).toMatchObject({ push_events_branch_filter: null, branch_filter_strategy: 'all_branches', note_events: true })
    expect((await alice.api.del(`${hooks()}/${h.id}`)).status).toBe(204)
    expect(await alice.api.get(`${hooks()}/${h.id}`)).toMatchObject({ status: 404, body: { message: '404 Not found' } })
  })

  it("refuses URLs that are not http(s), and local ones while local requests are off, with GitLab's 422", async () => {
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)', 'http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/']) {
      const reply = await alice.api.post(hooks(), { url })
      expect({ url, status: reply.status, body: reply.body }).toEqual({ url, status: 422, body: { message: 'Invalid url given' } })
    }
    expect(await alice.api.post(hooks(), { url: 'http://example.com', branch_filter_strategy: 'regex', push_events_branch_filter: '(' }))
      .toMatchObject({ status: 422, body: { message: 'Invalid branch filter given' } })
    expect(await alice.api.post(hooks(), {})).toMatchObject({ status: 400, body: { message: '400 (Bad request) "url" not given' } })
  })

  it('lets local URLs through once allow_local_requests_from_hooks_and_services is on', async () => {
    expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
    try {
      const h = expectStatus(await alice.api.post(hooks(), { url: 'http://127.0.0.1:9/x' }), 201).body
      expect(h.url).toBe('http://127.0.0.1:9/x')
      expectStatus(await alice.api.del(`${hooks()}/${h.id}`), 204)
    } finally {
      expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: false }), 200)
    }
  })

  it('is for Maintainers: 403 to a Developer, 404 to who may not see the project, 401 anonymously', async () => {
    expect(await dev.api.get(hooks())).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await dev.api.post(hooks(), { url: 'http://example.com' })).toMatchObject({ status: 403 })
    const stranger = await createUser(server, 'stranger')
    expect(await stranger.api.get(hooks())).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } })
    expect((await api(server).get(hooks())).status).toBe(401)
  })

  it("answers 404 for another project's hook and for odd ids, never 5xx", async () => {
    const other = await createProject(alice.api, { name: 'other' })
    const h = expectStatus(await alice.api.post(`/projects/${other.id}/hooks`, { url: 'http://example.com' }), 201).body
    expect(await alice.api.get(`${hooks()}/${h.id}`)).toMatchObject({ status: 404, body: { message: '404 Not found' } })
    for (const id of ['0', '99999', 'abc', '1.5']) expect([400, 404]).toContain((await alice.api.get(`${hooks()}/${id}`)).status)
    for (const value of [null, [], {}, 'x'.repeat(3000), 1]) {
      const reply = await alice.api.post(hooks(), { url: value, push_events: value, url_variables: value })
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(400)
      expect(reply.status, reply.text).toBeLessThan(500)
    }
  })
})

describe('URL variables and custom headers', () => {
  it('sets and unsets keys one at a time, showing keys only', async () => {
    const h = expectStatus(await alice.api.post(hooks(), { url: 'http://example.com/{team}' }), 201).body
    const base = `${hooks()}/${h.id}`
    expect((await alice.api.put(`${base}/url_variables/team`, { value: 'core' })).status).toBe(204)
    expect((await alice.api.put(`${base}/custom_headers/X-Team`, { value: 'core' })).status).toBe(204)
    expect(expectStatus(await alice.api.get(base), 200).body).toMatchObject({ url_variables: [{ key: 'team' }], custom_headers: [{ key: 'X-Team' }] })
    expect(await alice.api.put(`${base}/url_variables/bad-key`, { value: 'v' })).toMatchObject({ status: 422, body: { message: 'Illegal key or value' } })
    expect(await alice.api.put(`${base}/url_variables/team`, {})).toMatchObject({ status: 400, body: { message: '400 (Bad request) "value" not given' } })
    expect((await alice.api.del(`${base}/url_variables/team`)).status).toBe(204)
    expect(await alice.api.del(`${base}/url_variables/team`)).toMatchObject({ status: 404, body: { message: '404 URL variable Not Found' } })
    expect(await alice.api.del(`${base}/custom_headers/Nope`)).toMatchObject({ status: 404, body: { message: '404 Custom header Not Found' } })
    expect((await dev.api.put(`${base}/url_variables/team`, { value: 'x' })).status).toBe(403)
    const sys = expectStatus(await root.post('/hooks', { url: 'http://example.com/{v}' }), 201).body
    expect((await root.put(`/hooks/${sys.id}/url_variables/v`, { value: 'x' })).status).toBe(204)
    expect((await alice.api.put(`/hooks/${sys.id}/url_variables/v`, { value: 'x' })).status).toBe(403)
    expect(expectStatus(await root.get(`/hooks/${sys.id}`), 200).body.url_variables).toEqual([{ key: 'v' }])
    expectStatus(await root.del(`/hooks/${sys.id}`), 204)
  })
})

describe('system hooks', () => {
  it('are for administrators: CRUD with repository_update_events on by default', async () => {
    const created = expectStatus(await root.post('/hooks', { url: 'http://example.com/sys', token: 't', tag_push_events: true }), 201).body
    expect(created).toEqual({
      id: created.id, url: 'http://example.com/sys', name: null, description: null, created_at: AT, push_events: false,
      tag_push_events: true, merge_requests_events: false, repository_update_events: true, enable_ssl_verification: true,
      alert_status: 'executable', disabled_until: null, url_variables: [], push_events_branch_filter: null,
      branch_filter_strategy: 'wildcard', custom_webhook_template: null, custom_headers: [],
    })
    expect(expectStatus(await root.get('/hooks'), 200).body).toEqual([created])
    expect(expectStatus(await root.get(`/hooks/${created.id}`), 200).body).toEqual(created)
    expect(expectStatus(await root.put(`/hooks/${created.id}`, { push_events: true }), 200).body).toEqual({ ...created, push_events: true })
    expect(await alice.api.get('/hooks')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await alice.api.post('/hooks', { url: 'http://example.com' })).toMatchObject({ status: 403 })
    expect(await root.post('/hooks', { url: 'gopher://example.com' })).toMatchObject({ status: 422, body: { message: 'Invalid url given' } })
    expectStatus(await root.del(`/hooks/${created.id}`), 204)
    expect(await root.get(`/hooks/${created.id}`)).toMatchObject({ status: 404, body: { message: '404 System hook Not Found' } })
    // A project hook's id is no system hook.
    const ph = expectStatus(await alice.api.post(hooks(), { url: 'http://example.com' }), 201).body
    expect((await root.get(`/hooks/${ph.id}`)).status).toBe(404)
  })
})

describe('branch filters', () => {
  it('match names, wildcards and regular expressions (RE2, so a backtracking filter answers correctly)', async () => {
    const { branchMatches } = await import('../../../src/server/services/hooks/hooks-dispatch.js')
    const hook = (branch_filter_strategy: string, push_events_branch_filter: string | null) => ({ branch_filter_strategy, push_events_branch_filter })
    expect(branchMatches(hook('wildcard', 'main'), 'main')).toBe(true)
    expect(branchMatches(hook('wildcard', 'main'), 'mainline')).toBe(false)
    expect(branchMatches(hook('wildcard', 'release/*'), 'release/1.0')).toBe(true)
    expect(branchMatches(hook('wildcard', 'a.b'), 'axb')).toBe(false)
    expect(branchMatches(hook('regex', '^feat-\\d+$'), 'feat-12')).toBe(true)
    expect(branchMatches(hook('regex', '(?i)^MAIN$'), 'main')).toBe(true)
    expect(branchMatches(hook('all_branches', null), 'anything')).toBe(true)
    expect(branchMatches(hook('regex', '^(a+)+$'), `${'a'.repeat(40)}!`)).toBe(false)
    expect(branchMatches(hook('regex', '^(a+)+$|!$'), `${'a'.repeat(40)}!`)).toBe(true)
    expect(branchMatches(hook('wildcard', `${'*a'.repeat(12)}*!`), `${'a'.repeat(60)}!`)).toBe(true)
  })
})
