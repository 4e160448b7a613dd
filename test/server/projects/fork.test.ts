// POST /projects/:id/fork (asynchronous: import_status goes scheduled -> finished) and GET /projects/:id/forks.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project, ProjectSimple } from '../../../src/contract/entities/projects.js'
import { api, createGroup, createProject, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { until } from '../../helpers/wait.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let source: any

const repoDir = (id: number) => join(server.dataDir, 'repositories', `${id}.git`)

/** Reads the project until its import finishes, as scripts do after a fork. */
async function untilImported(as: Api, id: number): Promise<any> {
  return until(`project ${id} to finish importing`, async () => {
    const res = await as.get(`/projects/${id}`)
    return ['finished', 'failed'].includes(res.body.import_status) && res.body
  })
}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  source = await createProject(alice.api, { name: 'Upstream', visibility: 'public', initialize_with_readme: true, description: 'the original' })
})
afterAll(() => server.close())

describe('POST /projects/:id/fork', () => {
  it('answers 201 at once with import_status scheduled, then finishes with a copy of the repository', async () => {
    const res = await bob.api.post(`/projects/${source.id}/fork`)
    expect(res.status).toBe(201)
    const fork = Project.strict().parse(res.body)
    expect(fork).toMatchObject({
      name: 'Upstream', path: 'upstream', path_with_namespace: 'bob/upstream', description: 'the original',
      visibility: 'public', import_status: 'scheduled', creator_id: bob.id, empty_repo: false, default_branch: 'main',
      permissions: { project_access: { access_level: 50, notification_level: 3 }, group_access: null },
    })
    expect(ProjectSimple.strict().parse(fork.forked_from_project).id).toBe(source.id)
    const done = await untilImported(bob.api, fork.id)
    expect(done.import_status).toBe('finished')
    expect(done.import_error).toBeNull()
    expect(existsSync(join(repoDir(fork.id), 'HEAD'))).toBe(true)
    const head = (id: number) => readFileSync(join(repoDir(id), 'refs', 'heads', 'main'), 'utf8')
    expect(head(fork.id)).toBe(head(source.id))
    expect(head(fork.id)).toMatch(/^[0-9a-f]{40}\n$/)
  })

  it('counts the fork on the source and lists it under /forks', async () => {
    const upstream = (await alice.api.get(`/projects/${source.id}`)).body
    expect(upstream.forks_count).toBe(1)
    const forks = await alice.api.get(`/projects/${source.id}/forks`)
    expect(forks.status).toBe(200)
    expect(forks.body.map((p: any) => p.path_with_namespace)).toEqual(['bob/upstream'])
    expect(forks.headers.get('x-total')).toBe('1')
  })

  it('forks into a group given by path, with a new name and path, the forker maintaining it', async () => {
    const group = await createGroup(bob.api, { name: 'Bob Team', path: 'bob-team' })
    const res = await bob.api.post(`/projects/${source.id}/fork`, { namespace: 'bob-team', name: 'Team Copy', path: 'team-copy' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ path_with_namespace: 'bob-team/team-copy', name: 'Team Copy', namespace: { id: group.id, kind: 'group' } })
    const done = await untilImported(bob.api, res.body.id)
    expect(done.import_status).toBe('finished')
    expect(existsSync(join(repoDir(res.body.id), 'HEAD'))).toBe(true)
    const members = await bob.api.get(`/projects/${res.body.id}/members`)
    expect(members.body.map((m: any) => [m.username, m.access_level])).toEqual([['bob', 40]])
  })

  it('accepts the target namespace by id in namespace_id', async () => {
    const carol = await createUser(server, 'carol')
    const carolNs = (await carol.api.get('/namespaces')).body.find((n: any) => n.kind === 'user')
    const res = await carol.api.post(`/projects/${source.id}/fork`, { namespace_id: carolNs.id })
    expect(res.status).toBe(201)
    expect(res.body.path_with_namespace).toBe('carol/upstream')
    await untilImported(carol.api, res.body.id)
  })

  it('keeps a fork no more visible than its source', async () => {
    const internal = await createProject(alice.api, { name: 'Inside', visibility: 'internal' })
    const res = await bob.api.post(`/projects/${internal.id}/fork`, { visibility: 'public' })
    expect(res.status).toBe(201)
    expect(res.body.visibility).toBe('internal')
    await untilImported(bob.api, res.body.id)
    const narrower = await bob.api.post(`/projects/${source.id}/fork`, { visibility: 'private', path: 'private-copy', name: 'Private Copy' })
    expect(narrower.body.visibility).toBe('private')
    await untilImported(bob.api, narrower.body.id)
  })

  it('forks an empty project, and the fork is empty too', async () => {
    const empty = await createProject(alice.api, { name: 'Hollow', visibility: 'public' })
    const res = await bob.api.post(`/projects/${empty.id}/fork`)
    const done = await untilImported(bob.api, res.body.id)
    expect(done).toMatchObject({ import_status: 'finished', empty_repo: true })
    expect(existsSync(join(repoDir(res.body.id), 'HEAD'))).toBe(true)
  })

  it('answers 409 when the caller already has a project with that path', async () => {
    const res = await bob.api.post(`/projects/${source.id}/fork`)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } })
  })

  it('answers 404 Project Not Found when the caller cannot see a private source', async () => {
    const secret = await createProject(alice.api, { name: 'Secret' })
    const res = await bob.api.post(`/projects/${secret.id}/fork`)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Project Not Found' })
  })

  it('answers 403 to a guest of a private source, who may not read its code', async () => {
    const secret = await createProject(alice.api, { name: 'Guarded' })
    await alice.api.post(`/projects/${secret.id}/members`, { user_id: bob.id, access_level: 10 })
    const res = await bob.api.post(`/projects/${secret.id}/fork`)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: '403 Forbidden' })
  })

  it('answers 404 Target Namespace Not Found for a namespace the caller cannot create in', async () => {
    const res = await bob.api.post(`/projects/${source.id}/fork`, { namespace: 'alice' })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: '404 Target Namespace Not Found' })
    const missing = await bob.api.post(`/projects/${source.id}/fork`, { namespace: 'no-such-namespace' })
    expect(missing.body).toEqual({ message: '404 Target Namespace Not Found' })
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).post(`/projects/${source.id}/fork`)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })
})

describe('forked_from_project', () => {
  it('is left out for anonymous callers, who get the simple form', async () => {
    const forks = (await alice.api.get(`/projects/${source.id}/forks`)).body
    const publicFork = forks.find((p: any) => p.visibility === 'public')
    const res = await api(server).get(`/projects/${publicFork.id}`)
    expect(res.status).toBe(200)
    expect(ProjectSimple.strict().parse(res.body)).not.toHaveProperty('forked_from_project')
  })

  it('is left out when the caller can no longer see the source', async () => {
    const secret = await createProject(alice.api, { name: 'Will Hide', visibility: 'public' })
    const fork = (await bob.api.post(`/projects/${secret.id}/fork`)).body
    await untilImported(bob.api, fork.id)
    await alice.api.put(`/projects/${secret.id}`, { visibility: 'private' })
    const res = await bob.api.get(`/projects/${fork.id}`)
    expect(res.body.forked_from_project).toBeUndefined()
    expect((await alice.api.get(`/projects/${fork.id}`)).body.forked_from_project.id).toBe(secret.id)
  })

  it('is cleared when the source is deleted, and the fork stays', async () => {
    const doomed = await createProject(alice.api, { name: 'Short Lived', visibility: 'public' })
    const fork = (await bob.api.post(`/projects/${doomed.id}/fork`)).body
    await untilImported(bob.api, fork.id)
    expect((await alice.api.del(`/projects/${doomed.id}`)).status).toBe(202)
    const res = await bob.api.get(`/projects/${fork.id}`)
    expect(res.status).toBe(200)
    expect(res.body.forked_from_project).toBeUndefined()
  })
})
