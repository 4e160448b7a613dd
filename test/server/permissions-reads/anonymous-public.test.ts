// Anonymous callers read a public project's issues and merge requests as GitLab answers them (issues.rb and
// merge_requests.rb authenticate only non-GET requests); private and internal data, confidential issues and every
// write still need a user. Notes, discussions, award emoji, labels and milestones stay 401: GitLab's APIs for those
// authenticate every request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, expectStatus, type Api } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { branchWith, openMergeRequest, seedMaster } from '../merge-requests/fixtures.js'

let server: TestServer
let anonymous: Api
let group: any
let open: any
let closed: any[]

const titles = (body: any[]) => body.map((x) => x.title).sort()

beforeAll(async () => {
  server = await startTestServer()
  anonymous = api(server)
  const root = api(server, server.rootToken)
  group = await createGroup(root, { name: 'Town', path: 'town', visibility: 'public' })
  open = await createProject(root, { name: 'Square', path: 'square', namespace_id: group.id, visibility: 'public' })
  await seedMaster(root, open.id)
  await createIssue(root, open.id, { title: 'Public issue' })
  await createIssue(root, open.id, { title: 'Confidential issue', confidential: true })
  await branchWith(root, open.id, 'feature', 'f.txt')
  await openMergeRequest(root, open.id, { source_branch: 'feature', title: 'Public change', description: 'Closes #1' })
  closed = []
  for (const visibility of ['private', 'internal']) {
    const p = await createProject(root, { name: `Hidden ${visibility}`, path: `hidden-${visibility}`, namespace_id: group.id, visibility })
    await createIssue(root, p.id, { title: `Hidden ${visibility} issue` })
    closed.push(p)
  }
})

afterAll(async () => {
  await server?.close()
})

describe('an anonymous caller on a public project', () => {
  it('reads its issues, leaving out confidential ones', async () => {
    const p = `/projects/${open.id}`
    expect(titles(expectStatus(await anonymous.get(`${p}/issues`), 200).body)).toEqual(['Public issue'])
    expect(expectStatus(await anonymous.get(`${p}/issues/1`), 200).body.title).toBe('Public issue')
    expect((await anonymous.get(`${p}/issues/2`)).status).toBe(404)
    for (const rest of ['participants', 'time_stats', 'closed_by']) expectStatus(await anonymous.get(`${p}/issues/1/${rest}`), 200)
    expect(titles(expectStatus(await anonymous.get(`/groups/${group.id}/issues`), 200).body)).toEqual(['Public issue'])
  })

  it('reads its merge requests and what they hold', async () => {
    const p = `/projects/${open.id}`
    expect(titles(expectStatus(await anonymous.get(`${p}/merge_requests`), 200).body)).toEqual(['Public change'])
    expect(expectStatus(await anonymous.get(`${p}/merge_requests/1`), 200).body.title).toBe('Public change')
    for (const rest of ['participants', 'commits', 'changes', 'pipelines', 'closes_issues', 'time_stats']) {
      expectStatus(await anonymous.get(`${p}/merge_requests/1/${rest}`), 200)
    }
    expect(titles(expectStatus(await anonymous.get(`/groups/${group.id}/merge_requests`), 200).body)).toEqual(['Public change'])
  })

  it('lists the instance only with scope=all, and only public data', async () => {
    expect(titles(expectStatus(await anonymous.get('/issues', { query: { scope: 'all' } }), 200).body)).toEqual(['Public issue'])
    expect(titles(expectStatus(await anonymous.get('/merge_requests', { query: { scope: 'all' } }), 200).body)).toEqual(['Public change'])
    expect((await anonymous.get('/issues')).status).toBe(401)
    expect((await anonymous.get('/merge_requests')).status).toBe(401)
  })

  it('still needs a user to write, and for notes (GitLab authenticates every notes request)', async () => {
    expect((await anonymous.post(`/projects/${open.id}/issues`, { title: 'x' })).status).toBe(401)
    expect((await anonymous.put(`/projects/${open.id}/issues/1`, { title: 'x' })).status).toBe(401)
    expect((await anonymous.get(`/projects/${open.id}/issues/1/notes`)).status).toBe(401)
  })
})

describe('an anonymous caller on private and internal projects', () => {
  it('finds neither project, nor their issues and merge requests', async () => {
    for (const p of closed) {
      for (const rest of ['issues', 'issues/1', 'merge_requests']) {
        const path = `/projects/${p.id}/${rest}`
        expect({ path, status: (await anonymous.get(path)).status }).toEqual({ path, status: 404 })
      }
    }
  })
})
