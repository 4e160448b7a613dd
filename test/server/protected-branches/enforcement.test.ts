// Who may move a protected branch through the API (commits, files, cherry-picks, deletion, force) and what branch records say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canMergeInto } from '../../../src/server/services/repository/protected-branches.js'
import { findProjectById } from '../../../src/server/store/projects.js'
import { findUserById } from '../../../src/server/store/users.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser
let mia: TestUser
let dave: TestUser
let rita: TestUser
let id: number
let base: string

const rules = () => `/projects/${id}/protected_branches`
const enc = encodeURIComponent
const BRANCHES = ['Hotfix', 'feature', 'hot-big-fix', 'hotfix', 'main', 'release/1.0', 'release/x/y', 'releases/1']

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  mia = await createUser(server, 'mia', { name: 'Mia Maintainer' })
  dave = await createUser(server, 'dave', { name: 'Dave Developer' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  id = (await createProject(alice.api, { name: 'rules', initialize_with_readme: true })).id
  for (const [u, level] of [[mia, 40], [dave, 30], [rita, 20]] as const) {
    expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: u.id, access_level: level }), 201)
  }
  base = (await branchHead(alice.api, id, 'main'))!
  for (const name of BRANCHES.filter((b) => b !== 'main')) expectStatus(await alice.api.post(`${repo(id)}/branches`, { branch: name, ref: 'main' }), 201)
  expectStatus(await alice.api.post(rules(), { name: 'release/*', push_access_level: 30, merge_access_level: 40 }), 201)
  expectStatus(await alice.api.post(rules(), { name: 'hot*fix', push_access_level: 40, merge_access_level: 30 }), 201)
})
afterAll(() => server.close())

const flags = (b: any) => [b.name, b.protected, b.developers_can_push, b.developers_can_merge, b.can_push]

describe('branch records', () => {
  it('say protected, developers_can_push/merge and the caller\'s can_push from the rules, wildcards included', async () => {
    const asDave = expectStatus(await dave.api.get(`${repo(id)}/branches`), 200).body
    // `*` matches `/` too; matching is anchored and case-sensitive.
    expect(asDave.map(flags)).toEqual([
      ['Hotfix', false, false, false, true],
      ['feature', false, false, false, true],
      ['hot-big-fix', true, false, true, false],
      ['hotfix', true, false, true, false],
      ['main', true, false, false, false],
      ['release/1.0', true, true, false, true],
      ['release/x/y', true, true, false, true],
      ['releases/1', false, false, false, true],
    ])
    const asMia = expectStatus(await mia.api.get(`${repo(id)}/branches/hotfix`), 200).body
    expect(flags(asMia)).toEqual(['hotfix', true, false, true, true])
    const asRita = expectStatus(await rita.api.get(`${repo(id)}/branches/feature`), 200).body
    expect(flags(asRita)).toEqual(['feature', false, false, false, false])
  })
})

describe('API commits, files and cherry-picks', () => {
  const write = (as: Api, branch: string, file: string) =>
    as.post(`${repo(id)}/commits`, { branch, commit_message: `to ${branch}`, actions: [create(file, `${file}\n`)] })

  it('refuse a Developer on a Maintainers-only branch with 403 and move nothing', async () => {
    const res = await write(dave.api, 'main', 'd.txt')
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }])
    const file = await dave.api.put(`${repo(id)}/files/README.md`, { branch: 'main', commit_message: 'edit', content: 'x\n' })
    expect([file.status, file.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }])
    const newFile = await dave.api.post(`${repo(id)}/files/${enc('hot.txt')}`, { branch: 'hot-big-fix', commit_message: 'add', content: 'x\n' })
    expect(newFile.status).toBe(403)
    expect(await branchHead(alice.api, id, 'main')).toBe(base)
    expect(await branchHead(alice.api, id, 'hot-big-fix')).toBe(base)
  })

  it('let a Developer write where a rule lets Developers push, or no rule applies', async () => {
    expectStatus(await write(dave.api, 'release/1.0', 'r.txt'), 201)
    expectStatus(await write(dave.api, 'Hotfix', 'h.txt'), 201)
    expectStatus(await dave.api.post(`${repo(id)}/commits`, { branch: 'dave-new', start_branch: 'main', commit_message: 'new', actions: [create('n.txt', 'n\n')] }), 201)
  })

  it('let a Maintainer and an administrator write to main', async () => {
    expectStatus(await write(mia.api, 'main', 'm.txt'), 201)
    expectStatus(await write(root, 'main', 'root.txt'), 201)
  })

  it('refuse a cherry-pick into a protected branch by a Developer', async () => {
    const picked = expectStatus(await write(dave.api, 'feature', 'pick.txt'), 201).body.id
    const before = await branchHead(alice.api, id, 'main')
    const res = await dave.api.post(`${repo(id)}/commits/${picked}/cherry_pick`, { branch: 'main' })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }])
    expect(await branchHead(alice.api, id, 'main')).toBe(before)
    expectStatus(await mia.api.post(`${repo(id)}/commits/${picked}/cherry_pick`, { branch: 'main' }), 201)
  })

  it('refuse everyone, administrators too, where the push level is No one (0)', async () => {
    expectStatus(await alice.api.post(rules(), { name: 'frozen', push_access_level: 0 }), 201)
    const res = await root.post(`${repo(id)}/commits`, { branch: 'frozen', start_branch: 'main', commit_message: 'x', actions: [create('f.txt', 'f\n')] })
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to push into this branch' }])
    expect(await branchHead(alice.api, id, 'frozen')).toBeNull()
  })

  it('refuse force on a protected branch unless the rule allows force pushes', async () => {
    const forced = () => mia.api.post(`${repo(id)}/commits`, { branch: 'hotfix', start_branch: 'feature', force: true, commit_message: 'forced', actions: [create('x.txt', 'x\n')] })
    const res = await forced()
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden - You are not allowed to force push code to a protected branch on this project.' }])
    expect(await branchHead(alice.api, id, 'hotfix')).toBe(base)
    expectStatus(await mia.api.request('PATCH', `${rules()}/${enc('hot*fix')}`, { json: { allow_force_push: true } }), 200)
    expectStatus(await forced(), 201)
  })
})

describe('POST /projects/:id/repository/branches', () => {
  it('refuses a protected name to whoever may not push to it (400, the push refusal) and creates nothing', async () => {
    const res = await dave.api.post(`${repo(id)}/branches`, { branch: 'hotfix-2', ref: 'main' })
    expect([res.status, res.body]).toEqual([201, expect.objectContaining({ name: 'hotfix-2', protected: false })])
    const refused = await dave.api.post(`${repo(id)}/branches`, { branch: 'hot-new-fix', ref: 'main' })
    expect([refused.status, refused.body]).toEqual([400, { message: 'You are not allowed to push code to protected branches on this project.' }])
    expect(await branchHead(alice.api, id, 'hot-new-fix')).toBeNull()
    expectStatus(await dave.api.post(`${repo(id)}/branches`, { branch: 'release/2.0', ref: 'main' }), 201)
    expectStatus(await mia.api.post(`${repo(id)}/branches`, { branch: 'hot-new-fix', ref: 'main' }), 201)
  })
})

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  it('refuses a Developer on a protected branch (403) and lets a Maintainer delete it', async () => {
    const res = await dave.api.del(`${repo(id)}/branches/${enc('release/x/y')}`)
    expect([res.status, res.body]).toEqual([403, { message: 'Protected branch cant be removed' }])
    expect(await branchHead(alice.api, id, 'release/x/y')).toBe(base)
    expectStatus(await mia.api.del(`${repo(id)}/branches/${enc('release/x/y')}`), 204)
    expect(await branchHead(alice.api, id, 'release/x/y')).toBeNull()
    expectStatus(await dave.api.del(`${repo(id)}/branches/releases%2F1`), 204)
  })

  it('still refuses the default branch with 405', async () => {
    const res = await mia.api.del(`${repo(id)}/branches/main`)
    expect([res.status, res.body]).toEqual([405, { message: 'The default branch of a project cannot be deleted.' }])
  })
})

describe('canMergeInto (for merge requests)', () => {
  const may = (user: TestUser | null, branch: string) =>
    canMergeInto({ app: server.app, user: user ? findUserById(server.app.db, user.id)! : null }, findProjectById(server.app.db, id)!, branch)

  it('lets in whoever may push to the branch or whom a matching rule\'s merge level lets in', () => {
    // main: push and merge Maintainers; hot*fix: push Maintainers, merge Developers; release/*: push Developers.
    expect([may(dave, 'main'), may(mia, 'main')]).toEqual([false, true])
    expect([may(dave, 'hotfix'), may(dave, 'release/1.0'), may(dave, 'feature')]).toEqual([true, true, true])
    expect([may(rita, 'feature'), may(rita, 'hotfix'), may(null, 'feature')]).toEqual([false, false, false])
  })

  it('says no to everyone, administrators too, where both levels are No one', async () => {
    expectStatus(await alice.api.post(rules(), { name: 'sealed', push_access_level: 0, merge_access_level: 0 }), 201)
    const admin = findUserById(server.app.db, 1)!
    expect(canMergeInto({ app: server.app, user: admin }, findProjectById(server.app.db, id)!, 'sealed')).toBe(false)
    expect([may(mia, 'sealed'), may(alice, 'sealed')]).toEqual([false, false])
  })
})
