// Branches: list with search, get, create from a ref, delete; default, merged and commit fields; who may write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Branch } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, gitIn, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const DATE = '2024-01-02T03:04:05.000+00:00'
/** master: BASE <- TIP; feature/login: BASE <- LOGIN; old-work at BASE (merged). */
const BASE = '1a03236179df0e4096d723151674616c69f0fd8f'
const TIP = 'dd784fdf2a41df66ee60a283717ee984bb9cb88a'
const LOGIN = 'accb272246842af4b0e7f13a6901eda006592a06'

let server: TestServer
let alice: TestUser
let rita: TestUser
let id: number

let projects = 0
async function fixture(visibility = 'private') {
  const p = await createProject(alice.api, { name: `branches-${++projects}`, visibility })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  expect((await commit(alice.api, p.id, { commit_message: 'Base', actions: [create('a.txt', 'a\n')] })).id).toBe(BASE)
  expect((await commit(alice.api, p.id, { branch: 'feature/login', start_branch: 'master', commit_message: 'Login', actions: [create('login.txt', 'l\n')] })).id).toBe(LOGIN)
  expectStatus(await alice.api.post(`${repo(p.id)}/branches`, { branch: 'old-work', ref: 'master' }), 201)
  expect((await commit(alice.api, p.id, { commit_message: 'Tip', actions: [create('b.txt', 'b\n')] })).id).toBe(TIP)
  return p.id as number
}

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  id = await fixture()
})
afterAll(() => server.close())

const names = (body: { name: string }[]) => body.map((b) => b.name)
const commitOf = (sha: string, title: string, parents: string[], projectPath: string) => ({
  id: sha, short_id: sha.slice(0, 8), created_at: DATE, parent_ids: parents, title, message: `${title}\n`,
  author_name: 'Alice Liddell', author_email: 'alice@example.com', authored_date: DATE,
  committer_name: 'Alice Liddell', committer_email: 'alice@example.com', committed_date: DATE,
  trailers: {}, extended_trailers: {}, web_url: `${server.url}/${projectPath}/-/commit/${sha}`,
})

describe('GET /projects/:id/repository/branches', () => {
  it('lists branches by name with their head commit, default and merged flags', async () => {
    const res = await alice.api.get(`${repo(id)}/branches`)
    expect(res.status).toBe(200)
    for (const b of res.body) Branch.strict().parse(b)
    expect(names(res.body)).toEqual(['feature/login', 'master', 'old-work'])
    const path = 'alice/branches-1'
    const flags = { protected: false, developers_can_push: false, developers_can_merge: false, can_push: true }
    expect(res.body).toEqual([
      { name: 'feature/login', commit: commitOf(LOGIN, 'Login', [BASE], path), merged: false, ...flags, default: false, web_url: `${server.url}/${path}/-/tree/feature/login` },
      // The default branch was protected when it first appeared (default_branch_protection 2: Maintainers push and merge).
      { name: 'master', commit: commitOf(TIP, 'Tip', [BASE], path), merged: false, ...flags, protected: true, default: true, web_url: `${server.url}/${path}/-/tree/master` },
      { name: 'old-work', commit: commitOf(BASE, 'Base', [], path), merged: true, ...flags, default: false, web_url: `${server.url}/${path}/-/tree/old-work` },
    ])
    expect([res.headers.get('x-total'), res.headers.get('x-page')]).toEqual(['3', '1'])
  })

  it('tells merged branches from unmerged ones that git wrote and the server has never compared with the default head', async () => {
    const p = await fixture()
    const next = (await commit(alice.api, p, { commit_message: 'Next', actions: [create('c.txt', 'c\n')] })).id
    const identity = { GIT_AUTHOR_NAME: 'G', GIT_AUTHOR_EMAIL: 'g@example.com', GIT_COMMITTER_NAME: 'G', GIT_COMMITTER_EMAIL: 'g@example.com' }
    const side = gitIn(server, p, ['commit-tree', '-p', BASE, '-m', 'Side', `${BASE}^{tree}`], { env: identity }).trim()
    gitIn(server, p, ['update-ref', 'refs/heads/side', side])
    gitIn(server, p, ['update-ref', 'refs/heads/kept', TIP])
    const res = expectStatus(await alice.api.get(`${repo(p)}/branches`), 200)
    expect(res.body.map((b: { name: string; merged: boolean; commit: { id: string } }) => [b.name, b.merged, b.commit.id])).toEqual([
      ['feature/login', false, LOGIN], ['kept', true, TIP], ['master', false, next], ['old-work', true, BASE], ['side', false, side],
    ])
    // One branch at a time answers the same.
    for (const [name, merged] of [['side', false], ['kept', true]] as const) expect((await alice.api.get(`${repo(p)}/branches/${name}`)).body.merged).toBe(merged)
  })

  it('filters with search: a substring, ^prefix or suffix$, ignoring case', async () => {
    const search = async (s: string) => names((await alice.api.get(`${repo(id)}/branches`, { query: { search: s } })).body)
    expect(await search('r')).toEqual(['feature/login', 'master', 'old-work'])
    expect(await search('LOG')).toEqual(['feature/login'])
    expect(await search('^feat')).toEqual(['feature/login'])
    expect(await search('^login')).toEqual([])
    expect(await search('work$')).toEqual(['old-work'])
    expect(await search('^master$')).toEqual(['master'])
    expect(await search('nothing')).toEqual([])
  })

  it('paginates', async () => {
    const res = await alice.api.get(`${repo(id)}/branches`, { query: { per_page: 2, page: 2 } })
    expect(names(res.body)).toEqual(['old-work'])
    expect([res.headers.get('x-total-pages'), res.headers.get('x-prev-page'), res.headers.get('x-next-page')]).toEqual(['2', '1', ''])
  })

  it('shows can_push false to a Reporter and to anonymous callers of a public project', async () => {
    expect((await rita.api.get(`${repo(id)}/branches`)).body.map((b: { can_push: boolean }) => b.can_push)).toEqual([false, false, false])
    const pub = await fixture('public')
    const anonymous = await api(server).get(`${repo(pub)}/branches/master`)
    expect([anonymous.status, anonymous.body.can_push]).toEqual([200, false])
  })

  it('answers an empty list for an empty repository', async () => {
    const empty = await createProject(alice.api, { name: 'no-branches' })
    const res = await alice.api.get(`${repo(empty.id)}/branches`)
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], '0'])
  })
})

describe('GET /projects/:id/repository/branches/:branch', () => {
  it('gets one branch, its name URL-encoded', async () => {
    const res = await alice.api.get(`${repo(id)}/branches/feature%2Flogin`)
    expect(res.status).toBe(200)
    expect(Branch.strict().parse(res.body).commit.id).toBe(LOGIN)
    expect((await alice.api.get(`${repo(id)}/branches/master`)).body.default).toBe(true)
  })

  it('answers 404 Branch Not Found', async () => {
    for (const name of ['nope', 'a..b']) {
      const res = await alice.api.get(`${repo(id)}/branches/${name}`)
      expect([res.status, res.body]).toEqual([404, { message: '404 Branch Not Found' }])
    }
  })
})

describe('POST /projects/:id/repository/branches', () => {
  it('creates a branch from a branch, a tag or a commit and answers 201 with it', async () => {
    const p = await fixture()
    const res = await alice.api.post(`${repo(p)}/branches`, { branch: 'from-branch', ref: 'feature/login' })
    expect(res.status).toBe(201)
    expect(Branch.strict().parse(res.body)).toMatchObject({ name: 'from-branch', commit: { id: LOGIN }, merged: false, default: false, can_push: true })
    expectStatus(await alice.api.post(`${repo(p)}/tags`, { tag_name: 'v1', ref: BASE, message: 'annotated' }), 201)
    expect((await alice.api.post(`${repo(p)}/branches`, { branch: 'from-tag', ref: 'v1' })).body.commit.id).toBe(BASE)
    expect((await alice.api.post(`${repo(p)}/branches`, { branch: 'from-sha', ref: TIP.slice(0, 10) })).body.commit.id).toBe(TIP)
    expect(await branchHead(alice.api, p, 'from-sha')).toBe(TIP)
  })

  it('answers 400 Branch already exists and leaves the branch alone', async () => {
    const p = await fixture()
    const res = await alice.api.post(`${repo(p)}/branches`, { branch: 'feature/login', ref: 'master' })
    expect([res.status, res.body]).toEqual([400, { message: 'Branch already exists' }])
    expect(await branchHead(alice.api, p, 'feature/login')).toBe(LOGIN)
  })

  it('answers 400 in git\'s words for a name that cannot sit beside an existing one (feature beside feature/login)', async () => {
    const p = await fixture()
    const clash = await alice.api.post(`${repo(p)}/branches`, { branch: 'feature', ref: 'master' })
    expect([clash.status, clash.body]).toEqual([400, { message: "Failed to create branch 'feature': 'refs/heads/feature/login' exists; cannot create 'refs/heads/feature'" }])
    const below = await alice.api.post(`${repo(p)}/branches`, { branch: 'old-work/more', ref: 'master' })
    expect([below.status, below.body]).toEqual([400, { message: "Failed to create branch 'old-work/more': 'refs/heads/old-work' exists; cannot create 'refs/heads/old-work/more'" }])
    expect(names((await alice.api.get(`${repo(p)}/branches`)).body)).toEqual(['feature/login', 'master', 'old-work'])
  })

  it('answers 400 for an unknown ref, an invalid name, blank values and missing parameters', async () => {
    const p = await fixture()
    const post = (body: Record<string, unknown>) => alice.api.post(`${repo(p)}/branches`, body)
    expect(await post({ branch: 'x', ref: 'nowhere' }).then((r) => [r.status, r.body])).toEqual([400, { message: 'Invalid reference name: nowhere' }])
    for (const branch of ['a..b', 'HEAD', 'refs/heads/x', 'x'.repeat(251), '-x', 'a b']) {
      expect(await post({ branch, ref: 'master' }).then((r) => [r.status, r.body])).toEqual([400, { message: 'Branch name is invalid' }])
    }
    expect(await post({ branch: ' ', ref: 'master' }).then((r) => [r.status, r.body])).toEqual([400, { message: '400 Bad request - branch and ref must not be blank' }])
    expect(await post({ ref: 'master' }).then((r) => [r.status, r.body])).toEqual([400, { message: '400 (Bad request) "branch" not given' }])
    expect(await post({ branch: 'x' }).then((r) => [r.status, r.body])).toEqual([400, { message: '400 (Bad request) "ref" not given' }])
    expect(names((await alice.api.get(`${repo(p)}/branches`)).body)).toEqual(['feature/login', 'master', 'old-work'])
  })

  it('makes the first branch of an empty project its default branch', async () => {
    const p = await createProject(alice.api, { name: 'first-branch' })
    await commit(alice.api, p.id, { branch: 'main', commit_message: 'First', actions: [create('x.txt', 'x\n')] })
    expect((await alice.api.get(`/projects/${p.id}`)).body.default_branch).toBe('main')
    expect((await alice.api.get(`${repo(p.id)}/branches/main`)).body.default).toBe(true)
  })

  it('answers 403 to a Reporter and 401 without credentials', async () => {
    const reporter = await rita.api.post(`${repo(id)}/branches`, { branch: 'x', ref: 'master' })
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await api(server).post(`${repo(id)}/branches`, { branch: 'x', ref: 'master' })
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect(await branchHead(alice.api, id, 'x')).toBeNull()
  })
})

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  it('deletes a branch and answers 204', async () => {
    const p = await fixture()
    const res = await alice.api.del(`${repo(p)}/branches/feature%2Flogin`)
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await branchHead(alice.api, p, 'feature/login')).toBeNull()
    expect(names((await alice.api.get(`${repo(p)}/branches`)).body)).toEqual(['master', 'old-work'])
  })

  it('answers 405 for the default branch and keeps it', async () => {
    const p = await fixture()
    const res = await alice.api.del(`${repo(p)}/branches/master`)
    expect([res.status, res.body]).toEqual([405, { message: 'The default branch of a project cannot be deleted.' }])
    expect(await branchHead(alice.api, p, 'master')).toBe(TIP)
  })

  it('answers 404 No such branch', async () => {
    const res = await alice.api.del(`${repo(id)}/branches/nope`)
    expect([res.status, res.body]).toEqual([404, { message: 'No such branch' }])
  })

  it('answers 403 to a Reporter and 401 without credentials', async () => {
    const reporter = await rita.api.del(`${repo(id)}/branches/old-work`)
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await api(server).del(`${repo(id)}/branches/old-work`)
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect(await branchHead(alice.api, id, 'old-work')).toBe(BASE)
  })
})
