// Rebasing a merge request from a fork: the fork's branch is replayed onto the target's head (brought over from the
// target repository), moved in the fork, and the merge request follows; no temporary ref is left in the fork.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, gitIn } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { mrPath, seedMaster } from './fixtures.js'

let server: TestServer
let alice: TestUser
let bob: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
})
afterAll(() => server.close())

describe('rebase of a merge request from a fork', () => {
  it('replays the fork\'s commits onto the moved target and the merge request follows', async () => {
    const project = await createProject(alice.api, { name: 'upstream', visibility: 'public' })
    await seedMaster(alice.api, project.id)
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    await server.app.tasks.idle() // the fork's repository is copied in the background
    await commit(bob.api, fork.id, { branch: 'fix', start_branch: 'master', commit_message: 'Fix', actions: [create('fix.txt', 'fix\n')] })
    const mr = expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: 'fix', target_branch: 'master', target_project_id: project.id, title: 'Fix',
    }), 201).body
    const moved = await commit(alice.api, project.id, { branch: 'master', commit_message: 'Upstream moves', actions: [create('up.txt', 'up\n')] })
    await server.app.tasks.idle()
    expect((await alice.api.get(mrPath(project.id, mr.iid), { query: { include_diverged_commits_count: true } })).body.diverged_commits_count).toBe(1)

    const res = await bob.api.put(mrPath(project.id, mr.iid, '/rebase'))
    expect([res.status, res.body]).toEqual([202, { rebase_in_progress: true }])
    await server.app.tasks.idle()
    const head = await branchHead(bob.api, fork.id, 'fix')
    expect(gitIn(server, fork.id, ['rev-parse', `${head}^`]).trim()).toBe(moved.id)
    expect(gitIn(server, fork.id, ['log', '-1', '--format=%s', head!]).trim()).toBe('Fix')
    expect(gitIn(server, fork.id, ['for-each-ref', '--format=%(refname)', 'refs/tmp']).trim()).toBe('')
    const after = (await alice.api.get(mrPath(project.id, mr.iid), { query: { include_diverged_commits_count: true } })).body
    expect([after.diverged_commits_count, after.merge_error, after.sha]).toEqual([0, null, head])
  })

  it('is refused to someone who cannot push to the fork\'s branch (403)', async () => {
    const project = await createProject(alice.api, { name: 'upstream2', visibility: 'public' })
    await seedMaster(alice.api, project.id)
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    await server.app.tasks.idle()
    await commit(bob.api, fork.id, { branch: 'fix', start_branch: 'master', commit_message: 'Fix', actions: [create('fix.txt', 'fix\n')] })
    const mr = expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: 'fix', target_branch: 'master', target_project_id: project.id, title: 'Fix',
    }), 201).body
    const res = await alice.api.put(mrPath(project.id, mr.iid, '/rebase'))
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - Cannot push to source branch' }])
  })
})
