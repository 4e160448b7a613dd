// Every merge request's head is kept in the target repository as refs/merge-requests/<iid>/head, as GitLab keeps it:
// `git fetch origin merge-requests/<iid>/head` checks out a merge request, a fork's too, and follows new commits.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { commit, create } from '../helpers/repository.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe('refs/merge-requests/<iid>/head over smart HTTP', () => {
  let server: TestServer
  let root: Api
  let bob: TestUser
  let git: GitCli

  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    bob = await createUser(server, 'bob')
    git = gitCli()
  })
  afterAll(async () => {
    await server.close()
    git.cleanup()
  })

  const clone = async (path: string, dir: string) => {
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, `${path}.git`, 'root', server.rootToken), dir)
    return join(git.root, dir)
  }
  const fetchHead = async (dir: string, iid: number) => {
    await git.run(dir, 'fetch', '-q', 'origin', `+merge-requests/${iid}/head:mr-${iid}`)
    return git.run(dir, 'rev-parse', `mr-${iid}`)
  }

  it('follows the source branch of a merge request in the same project', async () => {
    const project = await createProject(root, { name: 'mr-refs', initialize_with_readme: true })
    await commit(root, project.id, { branch: 'topic', start_branch: project.default_branch, commit_message: 'one', actions: [create('a.txt', 'a\n')] })
    const mr = expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: project.default_branch, title: 'Topic' }), 201).body
    const dir = await clone(project.path_with_namespace, 'same')
    expect(await fetchHead(dir, mr.iid)).toBe(mr.sha)

    const next = await commit(root, project.id, { branch: 'topic', commit_message: 'two', actions: [create('b.txt', 'b\n')] })
    await server.app.tasks.idle()
    expect(await fetchHead(dir, mr.iid)).toBe(next.id)
    const listed = await git.run(dir, 'ls-remote', 'origin', 'refs/merge-requests/*')
    // Beside the head, the mergeability check keeps the merge ref: the target with the source merged into it.
    const merge = (await git.run(dir, 'rev-parse', `origin/${project.default_branch}`)).trim()
    const mergeRef = listed.split('\n')[1]?.split('\t')[0] ?? ''
    expect(listed).toBe(`${next.id}\trefs/merge-requests/${mr.iid}/head\n${mergeRef}\trefs/merge-requests/${mr.iid}/merge`)
    await git.run(dir, 'fetch', '-q', 'origin', `+merge-requests/${mr.iid}/merge:mr-${mr.iid}-merge`)
    expect((await git.run(dir, 'log', '-1', '--format=%P', `mr-${mr.iid}-merge`)).trim()).toBe(`${merge} ${next.id}`)
  })

  it('brings a fork\'s merge request head into the target repository', async () => {
    const project = await createProject(root, { name: 'mr-refs-upstream', visibility: 'public', initialize_with_readme: true })
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    await server.app.tasks.idle() // the fork's repository is copied in the background
    const change = await commit(bob.api, fork.id, { branch: 'fix', start_branch: project.default_branch, commit_message: 'fix', actions: [create('fix.txt', 'fix\n')] })
    const mr = expectStatus(await bob.api.post(`/projects/${fork.id}/merge_requests`, {
      source_branch: 'fix', target_branch: project.default_branch, target_project_id: project.id, title: 'Fix',
    }), 201).body
    await server.app.tasks.idle()
    const dir = await clone(project.path_with_namespace, 'upstream')
    expect(await fetchHead(dir, mr.iid)).toBe(change.id)
  })
})
