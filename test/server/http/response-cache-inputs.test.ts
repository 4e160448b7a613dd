// The response cache's promise: an answer it may keep is made from the database and the day alone, never from git or
// the time of day. Every cacheable GET is made twice with the cache off, with the clock moved on by hours (the same day)
// and the repository's branches moved behind the database's back in between: the bytes must not change.
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { contract } from '../../../src/contract/index.js'
import { repositoryDir } from '../../../src/server/git/repository.js'
import { createGroup, createProject, createUser, expectStatus, movableClock, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { commit, create, repo, update } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-05-01T01:00:00.000Z')
let server: TestServer
let alice: TestUser
/** A path for every cacheable endpoint, by `METHOD path` as the contract declares it. */
let paths: Record<string, string>

beforeAll(async () => {
  server = await startTestServer({ clock, responseCache: false })
  alice = await createUser(server, 'alice')
  const group = await createGroup(alice.api, { name: 'team', path: 'team', visibility: 'public' })
  const project = await createProject(alice.api, { name: 'demo', namespace_id: group.id, visibility: 'public' })
  await commit(alice.api, project.id, { commit_message: 'Base', actions: [create('a.txt', 'a\n')] })
  expectStatus(await alice.api.post(`${repo(project.id)}/branches`, { branch: 'feature', ref: 'master' }), 201)
  await commit(alice.api, project.id, { branch: 'feature', commit_message: 'Change', actions: [update('a.txt', 'b\n')] })
  const mr = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master', title: 'Change a' }), 201).body
  const issue = await createIssue(alice.api, project.id, { title: 'Bug', labels: 'bug', description: 'See !1 and #1' })
  expectStatus(await alice.api.post(`/projects/${project.id}/star`), 201)
  await server.app.tasks.idle()
  const p = `/projects/${project.id}`
  paths = {
    'GET /user': '/user',
    'GET /users/:id': `/users/${alice.id}`,
    'GET /projects': '/projects',
    'GET /users/:user_id/projects': `/users/${alice.id}/projects`,
    'GET /users/:user_id/starred_projects': `/users/${alice.id}/starred_projects`,
    'GET /projects/:id': p,
    'GET /merge_requests': '/merge_requests',
    'GET /groups/:id/merge_requests': `/groups/${group.id}/merge_requests`,
    'GET /projects/:id/merge_requests': `${p}/merge_requests`,
    'GET /projects/:id/merge_requests/:merge_request_iid': `${p}/merge_requests/${mr.iid}`,
    'GET /issues': '/issues',
    'GET /groups/:id/issues': `/groups/${group.id}/issues`,
    'GET /projects/:id/issues': `${p}/issues`,
    'GET /projects/:id/issues/:issue_iid': `${p}/issues/${issue.iid}`,
  }
}, 60_000)
afterAll(() => server.close())

/** Moves a branch to a new commit with the git command line: the repository changes, the database does not. */
function moveBranchBehindTheDatabase(projectId: number, branch: string) {
  const dir = repositoryDir(server.app.layout.repositories, projectId)
  const run = (...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], {
    encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: 'x@example.com', GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: 'x@example.com' },
  }).trim()
  const head = run('rev-parse', `refs/heads/${branch}`)
  run('update-ref', `refs/heads/${branch}`, run('commit-tree', `${head}^{tree}`, '-p', head, '-m', 'behind the database'), head)
}

it('covers every cacheable endpoint of the contract', () => {
  const cacheable = Object.values(contract).flatMap((group) => Object.values(group) as { method: string; path: string; cacheable?: unknown }[])
    .filter((e) => e.cacheable).map((e) => `${e.method} ${e.path}`)
  expect(Object.keys(paths).sort()).toEqual([...new Set(cacheable)].sort())
})

it('answers every cacheable GET with the same bytes after git and the time of day have moved', async () => {
  const read = async () => {
    const out: Record<string, string> = {}
    for (const [endpoint, path] of Object.entries(paths)) {
      const res = expectStatus(await alice.api.get(path), 200)
      // Date is the HTTP server's own header, not the answer's.
      out[endpoint] = `${JSON.stringify(Object.fromEntries([...res.headers].filter(([h]) => h !== 'date')))}\n${res.text}`
    }
    return out
  }
  const before = await read()
  const projectId = Number(paths['GET /projects/:id'].split('/')[2])
  moveBranchBehindTheDatabase(projectId, 'master')
  moveBranchBehindTheDatabase(projectId, 'feature')
  clock.advance(5 * 3_600_000)
  expect(await read()).toEqual(before)
})
