// Which refs a git push may write: branches and tags under their checks, and other refs (git notes …) for whoever may
// push code. GitLab's internal refs (merge request heads, pipelines, environments, keep-around …) are hidden from
// receive-pack and refused by git itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { commit, create, gitIn } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let git: GitCli
let id: number
let mr: { iid: number; sha: string }
let dir: string
let local: string

const url = () => urlWithCredentials(server.url, '/root/hidden.git', 'root', server.rootToken)
const refAt = (ref: string) => gitIn(server, id, ['for-each-ref', '--format=%(objectname)', ref]).trim() || null

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  git = gitCli()
  id = (await createProject(root, { name: 'hidden', initialize_with_readme: true })).id
  await commit(root, id, { branch: 'topic', start_branch: 'main', commit_message: 'topic', actions: [create('t.txt', 't\n')] })
  mr = expectStatus(await root.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Topic' }), 201).body
  await server.app.tasks.idle()
  dir = await git.clone(url(), 'clone')
  local = await git.commit(dir, 'Not from the merge request', { 'x.txt': 'x\n' })
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

describe('a push to a ref GitLab keeps for itself', () => {
  it.each([
    'refs/merge-requests/1/head', 'refs/merge-requests/7/head', 'refs/pipelines/1', 'refs/environments/1',
    'refs/keep-around/abc', 'refs/tmp/x/head', 'refs/remotes/origin/main',
  ])('%s is refused by git ("deny updating a hidden ref") and nothing is written', async (ref) => {
    const before = refAt(ref)
    const push = await git.attempt(dir, 'push', 'origin', `HEAD:${ref}`)
    expect(push.exitCode).not.toBe(0)
    // git prints refs/remotes/x as x.
    expect(push.stderr).toContain(`! [remote rejected] HEAD -> ${ref.replace(/^refs\/remotes\//, '')} (deny updating a hidden ref)`)
    expect(refAt(ref)).toBe(before)
  })

  it('cannot delete a merge request\'s head either', async () => {
    const push = await git.attempt(dir, 'push', 'origin', `:refs/merge-requests/${mr.iid}/head`)
    expect(push.stderr).toContain(`! [remote rejected] refs/merge-requests/${mr.iid}/head (deny deleting a hidden ref)`)
    expect(refAt(`refs/merge-requests/${mr.iid}/head`)).toBe(mr.sha)
  })

  it('refuses only the hidden ref of a push that also moves a branch, as git does for GitLab', async () => {
    const push = await git.attempt(dir, 'push', 'origin', 'HEAD:pushed-beside', `HEAD:refs/merge-requests/${mr.iid}/head`)
    expect(push.stderr).toContain('deny updating a hidden ref')
    expect(refAt('refs/heads/pushed-beside')).toBe(local)
    expect(refAt(`refs/merge-requests/${mr.iid}/head`)).toBe(mr.sha)
  })
})

describe('a push to a ref that is neither a branch nor a tag', () => {
  // GitLab's checks pass any other ref for whoever may push code: semantic-release pushes refs/notes/semantic-release-v*.
  it.each(['refs/notes/commits', 'refs/foo/bar', 'refs/changes/1'])('%s is written for a Developer, as on GitLab', async (ref) => {
    const push = await git.attempt(dir, 'push', 'origin', `HEAD:${ref}`)
    expect(push.exitCode, push.stderr).toBe(0)
    expect(refAt(ref)).toBe(local)
  })

  it('is refused, with the rest of the push, to a Reporter', async () => {
    const reporter = await createUser(server, 'reporter')
    expectStatus(await root.post(`/projects/${id}/members`, { user_id: reporter.id, access_level: 20 }), 201)
    const push = await git.attempt(dir, 'push', urlWithCredentials(server.url, '/root/hidden.git', 'reporter', reporter.token), 'HEAD:refs/notes/reporter')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain('You are not allowed to push code to this project.')
    expect(refAt('refs/notes/reporter')).toBeNull()
  })
})

describe('what receive-pack and upload-pack advertise', () => {
  const advertised = async (service: string) => {
    const res = await fetch(`${server.url}/root/hidden.git/info/refs?service=${service}`, {
      headers: { authorization: `Basic ${Buffer.from(`root:${server.rootToken}`).toString('base64')}` },
    })
    expect(res.status).toBe(200)
    return res.text()
  }

  it('hides merge request heads from a push, and keep-around refs from everyone', async () => {
    gitIn(server, id, ['update-ref', 'refs/keep-around/kept', mr.sha])
    const receive = await advertised('git-receive-pack')
    expect(receive).toContain('refs/heads/main')
    expect(receive).not.toContain('refs/merge-requests/')
    expect(receive).not.toContain('refs/keep-around/')
    const upload = await advertised('git-upload-pack')
    expect(upload).toContain(`refs/merge-requests/${mr.iid}/head`)
    expect(upload).not.toContain('refs/keep-around/')
  })

  it('still lets a clone fetch a merge request\'s head (collab mr checkout)', async () => {
    await git.run(dir, 'fetch', '-q', 'origin', `+refs/merge-requests/${mr.iid}/head:mr`)
    expect(await git.run(dir, 'rev-parse', 'mr')).toBe(mr.sha)
  })
})
