// GET /projects/:id/pipelines: every filter of compat-mr-ci-wiki §4.7, ordering and pagination totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cancelPipeline } from '../../../../src/server/ci/lifecycle.js'
import { expectStatus, movableClock, type Api } from '../../../helpers/api.js'
import { createUser } from '../../../helpers/api.js'
import { ciProject, runPipeline, startCiServer } from '../../../helpers/ci.js'
import { commit, create } from '../../../helpers/repository.js'
import type { TestServer } from '../../../helpers/server.js'

const clock = movableClock('2024-01-02T00:00:00.000Z')
let server: TestServer
let root: Api
let projectId: number
const ids: Record<string, number> = {}

beforeAll(async () => {
  server = await startCiServer({ clock })
  const made = await ciProject(server, 'listing', 'build:\n  script: [x]\n')
  root = made.root
  projectId = made.project.id
  await server.app.tasks.idle()
  const dev = await createUser(server, 'lister')
  expectStatus(await root.post(`/projects/${projectId}/members`, { user_id: dev.id, access_level: 30 }), 201)
  // push master (day 1, created by the commit), api master (day 2), api v1 tag (day 3, by lister), api feature (day 4, canceled);
  // the tag's own push pipeline is deleted.
  await commit(root, projectId, { branch: 'feature', start_branch: 'master', commit_message: 'f [skip ci]', actions: [create('f', 'f')] })
  expectStatus(await root.post(`/projects/${projectId}/repository/tags`, { tag_name: 'v1', ref: 'master' }), 201)
  await server.app.tasks.idle()
  const list = expectStatus(await root.get(`/projects/${projectId}/pipelines`, { query: { sort: 'asc' } }), 200).body
  ids.push = list[0].id
  // The new tag started a push pipeline of its own: not part of this fixture.
  expectStatus(await root.del(`/projects/${projectId}/pipelines/${list[1].id}`), 204)
  clock.set('2024-01-03T00:00:00.000Z')
  ids.apiMaster = (await runPipeline(root, projectId, 'master')).id
  clock.set('2024-01-04T00:00:00.000Z')
  ids.tag = (await runPipeline(dev.api, projectId, 'v1')).id
  clock.set('2024-01-05T00:00:00.000Z')
  ids.feature = (await runPipeline(root, projectId, 'feature')).id
  cancelPipeline(server.app, ids.feature)
})
afterAll(() => server.close())

async function listIds(query: Record<string, string | number | boolean>) {
  const res = expectStatus(await root.get(`/projects/${projectId}/pipelines`, { query }), 200)
  return res.body.map((p: any) => p.id)
}

describe('GET /projects/:id/pipelines', () => {
  it('lists newest first with totals', async () => {
    const res = expectStatus(await root.get(`/projects/${projectId}/pipelines`, { query: { per_page: 2 } }), 200)
    expect(res.body.map((p: any) => p.id)).toEqual([ids.feature, ids.tag])
    expect(['x-total', 'x-total-pages', 'x-next-page'].map((h) => res.headers.get(h))).toEqual(['4', '2', '2'])
  })

  it('filters by scope', async () => {
    expect(await listIds({ scope: 'pending' })).toEqual([ids.tag, ids.apiMaster, ids.push])
    expect(await listIds({ scope: 'finished' })).toEqual([ids.feature])
    expect(await listIds({ scope: 'running' })).toEqual([])
    expect(await listIds({ scope: 'branches' })).toEqual([ids.feature, ids.apiMaster])
    expect(await listIds({ scope: 'tags' })).toEqual([ids.tag])
  })

  it('filters by status, ref, sha, source, username and yaml_errors', async () => {
    expect(await listIds({ status: 'canceled' })).toEqual([ids.feature])
    expect(await listIds({ ref: 'master' })).toEqual([ids.apiMaster, ids.push])
    expect(await listIds({ source: 'push' })).toEqual([ids.push])
    expect(await listIds({ username: 'lister' })).toEqual([ids.tag])
    expect(await listIds({ yaml_errors: true })).toEqual([])
    expect(await listIds({ yaml_errors: false })).toHaveLength(4)
    const master = expectStatus(await root.get(`/projects/${projectId}/pipelines/${ids.push}`), 200).body
    expect(await listIds({ sha: master.sha })).toEqual([ids.feature, ids.tag, ids.apiMaster, ids.push].filter((id) => id !== ids.feature))
  })

  it('filters by creation and update times', async () => {
    expect(await listIds({ created_after: '2024-01-03T00:00:00Z', created_before: '2024-01-04T00:00:00Z' })).toEqual([ids.tag, ids.apiMaster])
    expect(await listIds({ updated_after: '2024-01-05T00:00:00Z' })).toEqual([ids.feature])
    expect(await listIds({ updated_before: '2024-01-02T12:00:00Z' })).toEqual([ids.push])
  })

  it('orders by id, status, ref, user_id and updated_at in either direction', async () => {
    expect(await listIds({ sort: 'asc' })).toEqual([ids.push, ids.apiMaster, ids.tag, ids.feature])
    expect(await listIds({ order_by: 'ref', sort: 'asc' })).toEqual([ids.feature, ids.push, ids.apiMaster, ids.tag])
    expect(await listIds({ order_by: 'status', sort: 'asc' })).toEqual([ids.feature, ids.push, ids.apiMaster, ids.tag])
    expect(await listIds({ order_by: 'user_id', sort: 'desc' })).toEqual([ids.tag, ids.feature, ids.apiMaster, ids.push])
    expect(await listIds({ order_by: 'updated_at', sort: 'desc' })).toEqual([ids.feature, ids.tag, ids.apiMaster, ids.push])
  })

  it('refuses unknown filter values with a 400 naming the parameter', async () => {
    const res = expectStatus(await root.get(`/projects/${projectId}/pipelines`, { query: { scope: 'everything' } }), 400)
    expect(res.body).toEqual({ message: { scope: ['does not have a valid value'] } })
    expectStatus(await root.get(`/projects/${projectId}/pipelines`, { query: { order_by: 'name' } }), 400)
  })
})
