// A fork's repository is copied in the background, but writes sent right after the fork's answer wait for the copy:
// they land in the copied repository (before, a commit could hit a repository not yet there and answer 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, historyIds } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('writes to a fork while its repository is copied', () => {
  it('commits and branches sent at once after the fork land on top of the copied history', async () => {
    const project = await createProject(alice.api, { name: 'upstream', visibility: 'public' })
    const base = await commit(alice.api, project.id, { branch: 'main', commit_message: 'Initial', actions: [create('README.md', '# up\n')] })
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    const [made, branch] = await Promise.all([
      bob.api.post(`/projects/${fork.id}/repository/commits`, { branch: 'fix', start_branch: 'main', commit_message: 'Fix', actions: [create('f.txt', 'f\n')] }),
      bob.api.post(`/projects/${fork.id}/repository/branches`, { branch: 'other', ref: 'main' }),
    ])
    expect([made.status, branch.status]).toEqual([201, 201])
    expect(made.body.parent_ids).toEqual([base.id])
    await server.app.tasks.idle()
    expect((await bob.api.get(`/projects/${fork.id}`)).body.import_status).toBe('finished')
    expect(await historyIds(bob.api, fork.id, 'fix')).toEqual([made.body.id, base.id])
  })
})
