// git push against protected branches with the real git CLI: GitLab's refusals as `remote: GitLab: …`, and the ref does not move.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let root: Api
let git: GitCli
let mia: TestUser
let dave: TestUser
let id: number

const url = (user: TestUser | null) => urlWithCredentials(server.url, '/root/guarded.git', user?.username ?? 'root', user?.token ?? server.rootToken)
const head = async (branch: string) => {
  const res = await root.get(`/projects/${id}/repository/branches/${encodeURIComponent(branch)}`)
  return res.status === 200 ? (res.body.commit.id as string) : null
}
const REFUSED = (message: string) => `remote: GitLab: ${message}`

/** A fresh clone of the project as `user`, at origin/main. */
async function cloneAs(user: TestUser | null, name: string) {
  const dir = join(git.root, name)
  await git.run(git.root, 'clone', '-q', url(user), dir)
  return dir
}

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  git = gitCli()
  mia = await createUser(server, 'mia')
  dave = await createUser(server, 'dave')
  id = (await createProject(root, { name: 'guarded', initialize_with_readme: true })).id
  expectStatus(await root.post(`/projects/${id}/members`, { user_id: mia.id, access_level: 40 }), 201)
  expectStatus(await root.post(`/projects/${id}/members`, { user_id: dave.id, access_level: 30 }), 201)
  expectStatus(await root.post(`/projects/${id}/protected_branches`, { name: 'release/*', push_access_level: 30 }), 201)
  expectStatus(await root.post(`/projects/${id}/protected_branches`, { name: 'prod*', push_access_level: 0 }), 201)
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

describe('git push to a protected branch', () => {
  it('refuses a Developer on main with GitLab\'s message, and main stays where it was', async () => {
    const before = await head('main')
    const dir = await cloneAs(dave, 'dave')
    await git.commit(dir, 'Dave on main', { 'd.txt': 'd\n' })
    const push = await git.attempt(dir, 'push', 'origin', 'main')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain(REFUSED('You are not allowed to push code to protected branches on this project.'))
    expect(push.stderr).toContain('! [remote rejected] main -> main (pre-receive hook declined)')
    expect(await head('main')).toBe(before)
  })

  it('tells a Developer who rewrites main about the force push first, as GitLab checks it first', async () => {
    const before = await head('main')
    const dir = await cloneAs(dave, 'dave-force')
    await git.run(dir, 'commit', '-q', '--amend', '-m', 'Rewritten by Dave')
    const push = await git.attempt(dir, 'push', '-f', 'origin', 'main')
    expect(push.stderr).toContain(REFUSED('You are not allowed to force push code to a protected branch on this project.'))
    expect(await head('main')).toBe(before)
  })

  it('lets the Developer push other branches and those a rule opens to Developers (wildcards across /)', async () => {
    const dir = join(git.root, 'dave')
    const pushed = await git.run(dir, 'rev-parse', 'HEAD')
    await git.run(dir, 'push', '-q', 'origin', 'main:feature', 'main:release/1.0/hotfix')
    expect([await head('feature'), await head('release/1.0/hotfix')]).toEqual([pushed, pushed])
  })

  it('refuses the whole push when one of its refs is refused', async () => {
    const dir = join(git.root, 'dave')
    await git.commit(dir, 'Two refs', { 'two.txt': '2\n' })
    const push = await git.attempt(dir, 'push', 'origin', 'HEAD:feature', 'HEAD:main')
    expect(push.exitCode).not.toBe(0)
    expect(await head('feature')).not.toBe(await git.run(dir, 'rev-parse', 'HEAD'))
  })

  it('refuses everyone, administrators too, on a No one (0) branch', async () => {
    const dir = await cloneAs(null, 'root')
    const push = await git.attempt(dir, 'push', 'origin', 'main:production')
    expect(push.stderr).toContain(REFUSED('You are not allowed to push code to protected branches on this project.'))
    expect(await head('production')).toBeNull()
  })

  it('lets a Maintainer push main, but not force push it until the rule allows force pushes', async () => {
    const dir = await cloneAs(mia, 'mia')
    await git.commit(dir, 'Mia on main', { 'm.txt': 'm\n' })
    await git.run(dir, 'push', '-q', 'origin', 'main')
    const pushed = await git.run(dir, 'rev-parse', 'HEAD')
    expect(await head('main')).toBe(pushed)

    await git.run(dir, 'reset', '-q', '--hard', 'HEAD~1')
    await git.commit(dir, 'Rewritten', { 'r.txt': 'r\n' })
    const forced = await git.attempt(dir, 'push', '-f', 'origin', 'main')
    expect(forced.exitCode).not.toBe(0)
    expect(forced.stderr).toContain(REFUSED('You are not allowed to force push code to a protected branch on this project.'))
    expect(await head('main')).toBe(pushed)

    expectStatus(await root.request('PATCH', `/projects/${id}/protected_branches/main`, { json: { allow_force_push: true } }), 200)
    await git.run(dir, 'push', '-q', '-f', 'origin', 'main')
    expect(await head('main')).toBe(await git.run(dir, 'rev-parse', 'HEAD'))
  })

  it('refuses deleting a protected branch by push: Maintainers are sent to the web interface, Developers told who may', async () => {
    const byMia = await git.attempt(join(git.root, 'mia'), 'push', 'origin', ':release/1.0/hotfix')
    expect(byMia.stderr).toContain(REFUSED('You can only delete protected branches using the web interface.'))
    const byDave = await git.attempt(join(git.root, 'dave'), 'push', 'origin', ':release/1.0/hotfix')
    expect(byDave.stderr).toContain(REFUSED('You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.'))
    expect(await head('release/1.0/hotfix')).not.toBeNull()
    // Unprotected branches still go.
    await git.run(join(git.root, 'dave'), 'push', '-q', 'origin', ':feature')
    expect(await head('feature')).toBeNull()
  })

  it('refuses deleting the default branch even when it is not protected', async () => {
    expectStatus(await root.del(`/projects/${id}/protected_branches/main`), 204)
    const push = await git.attempt(join(git.root, 'mia'), 'push', 'origin', ':main')
    expect(push.stderr).toContain(REFUSED('The default branch of a project cannot be deleted.'))
    expect(await head('main')).not.toBeNull()
  })
})

describe('the first push to an empty project', () => {
  it('protects the branch that becomes the default (default_branch_protection 2)', async () => {
    const p = await createProject(root, { name: 'fresh' })
    const dir = join(git.root, 'fresh')
    await git.run(git.root, 'init', '-q', '-b', 'main', dir)
    await git.commit(dir, 'First', { 'a.txt': 'a\n' })
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/root/fresh.git', 'dave', server.rootToken), 'main')
    const rules = expectStatus(await root.get(`/projects/${p.id}/protected_branches`), 200).body
    expect(rules.map((r: any) => [r.name, r.push_access_levels[0].access_level, r.merge_access_levels[0].access_level])).toEqual([['main', 40, 40]])
  })
})
