// The CI/CD job token scope API (GitLab 17's "Limit access to this project" and its allowlists), and the scope at work:
// a job token of one project acts on another only when that one's inbound scope lets the first in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProjectSimple } from '../../../src/contract/entities/projects.js'
import { createCoordinator } from '../../../src/server/ci/coordinator.js'
import { api, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

const CONFIG = 'job:\n  script: [echo hi]\n'

let server: TestServer
let root: Api
let maintainer: TestUser
let developer: TestUser
let guarded: { id: number; path_with_namespace: string }
let scope: string

beforeAll(async () => {
  server = await startCiServer()
  maintainer = await createUser(server, 'smaintainer')
  developer = await createUser(server, 'sdeveloper')
  const made = await ciProject(server, 'guarded', null, { 'README.md': 'x' })
  root = made.root
  guarded = made.project
  for (const [user, level] of [[maintainer, 40], [developer, 30]] as const) {
    expectStatus(await root.post(`/projects/${guarded.id}/members`, { user_id: user.id, access_level: level }), 201)
  }
  scope = `/projects/${guarded.id}/job_token_scope`
})
afterAll(() => server.close())

describe('GET and PATCH …/job_token_scope', () => {
  it('shows the inbound scope on by default, the outbound one off, to Maintainers only', async () => {
    expect(expectStatus(await maintainer.api.get(scope), 200).body).toEqual({ inbound_enabled: true, outbound_enabled: false })
    const dev = await developer.api.get(scope)
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden' }])
    const stranger = await (await createUser(server, 'sstranger')).api.get(scope)
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('turns the scope off and on (204), and wants `enabled`', async () => {
    expect((await maintainer.api.request('PATCH', scope, { json: { enabled: false } })).status).toBe(204)
    expect(expectStatus(await maintainer.api.get(scope), 200).body.inbound_enabled).toBe(false)
    expect((await maintainer.api.request('PATCH', scope, { json: { enabled: true } })).status).toBe(204)
    expect(expectStatus(await maintainer.api.get(scope), 200).body.inbound_enabled).toBe(true)
    const missing = await maintainer.api.request('PATCH', scope, { json: {} })
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "enabled" not given' }])
    expect((await developer.api.request('PATCH', scope, { json: { enabled: false } })).status).toBe(403)
  })
})

describe('…/job_token_scope/allowlist', () => {
  it('lists the project itself, adds (201) and removes (204) projects, with GitLab’s refusals', async () => {
    const other = (await ciProject(server, 'other', null, { 'README.md': 'x' })).project
    const first = expectStatus(await maintainer.api.get(`${scope}/allowlist`), 200)
    expect(first.body.map((p: any) => p.id)).toEqual([guarded.id])
    ProjectSimple.strict().parse(first.body[0])

    // The maintainer may not read root's private project: GitLab's message, as a 400.
    const unreadable = await maintainer.api.post(`${scope}/allowlist`, { target_project_id: other.id })
    expect([unreadable.status, unreadable.body]).toEqual([400, { message: "400 Bad request - The target_project that you are attempting to access does not exist or you don't have permission to perform this action" }])
    const added = await root.post(`${scope}/allowlist`, { target_project_id: other.id })
    expect([added.status, added.body]).toEqual([201, { source_project_id: guarded.id, target_project_id: other.id }])
    const again = await root.post(`${scope}/allowlist`, { target_project_id: other.id })
    expect([again.status, again.body]).toEqual([400, { message: '400 Bad request - Target project is already in the job token scope' }])
    const missing = await root.post(`${scope}/allowlist`, { target_project_id: 99999 })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 target_project_id not found Not Found' }])
    expect((await developer.api.post(`${scope}/allowlist`, { target_project_id: guarded.id })).status).toBe(403)
    const page = expectStatus(await root.get(`${scope}/allowlist`, { query: { per_page: 1, page: 2 } }), 200)
    expect([page.body.map((p: any) => p.id), page.headers.get('x-total')]).toEqual([[other.id], '2'])

    const dev = await developer.api.del(`${scope}/allowlist/${guarded.id}`)
    expect([dev.status, dev.body]).toEqual([403, { message: '403 Forbidden - Insufficient permissions to modify the job token scope' }])
    const self = await root.del(`${scope}/allowlist/${guarded.id}`)
    expect([self.status, self.body]).toEqual([400, { message: '400 Bad request - Source project cannot be removed from the job token scope' }])
    expect((await root.del(`${scope}/allowlist/${other.id}`)).status).toBe(204)
    const gone = await root.del(`${scope}/allowlist/${other.id}`)
    expect([gone.status, gone.body]).toEqual([400, { message: '400 Bad request - Target project is not in the job token scope' }])
    expect(expectStatus(await root.get(`${scope}/allowlist`), 200).body.map((p: any) => p.id)).toEqual([guarded.id])
  })

  it('adds (201), lists and removes (204) groups', async () => {
    const group = expectStatus(await root.post('/groups', { name: 'Friends', path: 'friends' }), 201).body
    const added = await root.post(`${scope}/groups_allowlist`, { target_group_id: group.id })
    expect([added.status, added.body]).toEqual([201, { source_project_id: guarded.id, target_group_id: group.id }])
    expect(expectStatus(await root.get(`${scope}/groups_allowlist`), 200).body).toEqual([{ id: group.id, web_url: `${server.url}/groups/friends`, name: 'Friends' }])
    const again = await root.post(`${scope}/groups_allowlist`, { target_group_id: group.id })
    expect([again.status, again.body]).toEqual([400, { message: '400 Bad request - Target group is already in the job token scope' }])
    expect((await root.del(`${scope}/groups_allowlist/${group.id}`)).status).toBe(204)
    expect(expectStatus(await root.get(`${scope}/groups_allowlist`), 200).body).toEqual([])
    const missing = await root.del(`${scope}/groups_allowlist/${group.id}`)
    expect([missing.status, missing.body]).toEqual([400, { message: '400 Bad request - Target group is not in the job token scope' }])
  })
})

describe('a job token of another project', () => {
  it('reaches this project only while its scope allows that project, by name, by group, or with the scope off', async () => {
    const group = expectStatus(await root.post('/groups', { name: 'Callers', path: 'callers' }), 201).body
    const caller = (await ciProject(server, 'caller', CONFIG, {}, { namespace_id: group.id })).project
    const payload = await createCoordinator(server.app).requestJob({ id: 't', concurrency: 1 })
    expect(payload?.job_info.project_id).toBe(caller.id)
    const asJob = (path: string) => api(server).get(path, { headers: { 'JOB-TOKEN': payload!.token } })
    const branches = `/projects/${guarded.id}/repository/branches`
    const reach = async () => (await asJob(branches)).status

    expect((await asJob(`/projects/${caller.id}/repository/branches`)).status).toBe(200)
    expect(await reach()).toBe(404)
    expectStatus(await root.post(`${scope}/allowlist`, { target_project_id: caller.id }), 201)
    expect(await reach()).toBe(200)
    expect((await root.del(`${scope}/allowlist/${caller.id}`)).status).toBe(204)
    expect(await reach()).toBe(404)
    expectStatus(await root.post(`${scope}/groups_allowlist`, { target_group_id: group.id }), 201)
    expect(await reach()).toBe(200)
    expect((await root.del(`${scope}/groups_allowlist/${group.id}`)).status).toBe(204)
    expect(await reach()).toBe(404)
    expect((await root.request('PATCH', scope, { json: { enabled: false } })).status).toBe(204)
    expect(await reach()).toBe(200)
    expect((await root.request('PATCH', scope, { json: { enabled: true } })).status).toBe(204)
    expect(await reach()).toBe(404)
  })
})
