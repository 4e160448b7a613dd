// POST /projects/:id/repository/commits: every action, base64, start_branch, authors, and refusals that write nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Commit } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, catFile, commit, create, remove, repo, update, type Action } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
const DATE = '2024-01-02T03:04:05.000+00:00'
/** README.md "hello\n" and src/app.txt "one\ntwo\nthree\n", by Alice at NOW. */
const SEED = '0dce4f30c10060898a4967888e4c6108e85ad33e'

let server: TestServer
let alice: TestUser
let rita: TestUser
let dave: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  dave = await createUser(server, 'dave', { name: 'Dave Developer' })
})
afterAll(() => server.close())

let counter = 0
/** A fresh project of Alice's with the seed commit on master; Rita is Reporter, Dave Developer. */
async function seeded() {
  const p = await createProject(alice.api, { name: `demo-${++counter}` })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: dave.id, access_level: 30 })
  const c = await commit(alice.api, p.id, { commit_message: 'Initial commit', actions: [create('README.md', 'hello\n'), create('src/app.txt', 'one\ntwo\nthree\n')] })
  expect(c.id).toBe(SEED)
  return p.id as number
}

async function fileText(projectId: number, path: string, ref = 'master') {
  const res = await alice.api.get(`${repo(projectId)}/files/${encodeURIComponent(path)}/raw`, { query: { ref } })
  return res.status === 200 ? res.text : null
}

async function treePaths(projectId: number, ref = 'master') {
  const res = expectStatus(await alice.api.get(`${repo(projectId)}/tree`, { query: { ref, recursive: true, per_page: 100 } }), 200)
  return res.body.filter((e: { type: string }) => e.type === 'blob').map((e: { path: string; mode: string }) => `${e.mode} ${e.path}`)
}

describe('POST /projects/:id/repository/commits', () => {
  it('creates the first commit of an empty repository and answers 201 with the commit, stats and status', async () => {
    const p = await createProject(alice.api, { name: 'fresh' })
    const res = await alice.api.post(`${repo(p.id)}/commits`, {
      branch: 'master', commit_message: 'Initial commit', actions: [create('README.md', 'hello\n'), create('src/app.txt', 'one\ntwo\nthree\n')],
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(Commit.strict().parse(res.body)).toEqual({
      id: SEED,
      short_id: SEED.slice(0, 8),
      created_at: DATE,
      parent_ids: [],
      title: 'Initial commit',
      message: 'Initial commit\n',
      author_name: 'Alice Liddell',
      author_email: 'alice@example.com',
      authored_date: DATE,
      committer_name: 'Alice Liddell',
      committer_email: 'alice@example.com',
      committed_date: DATE,
      trailers: {},
      extended_trailers: {},
      web_url: `${server.url}/alice/fresh/-/commit/${SEED}`,
      stats: { additions: 4, deletions: 0, total: 4 },
      status: null,
      last_pipeline: null,
    })
    // The id is git's: the object holds the tree, the caller as author and committer and the clock's time.
    expect(catFile(server, p.id, SEED)).toBe(
      'tree b93459e87d45e4e2635ea79dfc468ac2a9bc4011\n' +
      'author Alice Liddell <alice@example.com> 1704164645 +0000\n' +
      'committer Alice Liddell <alice@example.com> 1704164645 +0000\n\n' +
      'Initial commit\n',
    )
    expect(await branchHead(alice.api, p.id, 'master')).toBe(SEED)
    expect((await alice.api.get(`/projects/${p.id}`)).body.empty_repo).toBe(false)
  })

  it('makes the first commit of an empty repository when start_branch names a branch that cannot exist yet', async () => {
    const p = await createProject(alice.api, { name: 'fresh-start' })
    const c = await commit(alice.api, p.id, { branch: 'master', start_branch: 'master', commit_message: 'Initial commit', actions: [create('README.md', 'hello\n'), create('src/app.txt', 'one\ntwo\nthree\n')] })
    expect([c.id, c.parent_ids]).toEqual([SEED, []])
  })

  it('updates a file', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, { commit_message: 'Update README', actions: [update('README.md', 'hello world\n')] })
    expect(c.id).toBe('f1cc857f46080e976e62bc3312522c2c36bf54da')
    expect(c.parent_ids).toEqual([SEED])
    expect(c.stats).toEqual({ additions: 1, deletions: 1, total: 2 })
    expect(await fileText(id, 'README.md')).toBe('hello world\n')
    expect(await branchHead(alice.api, id, 'master')).toBe(c.id)
  })

  it('deletes a file', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, { commit_message: 'Drop app', actions: [remove('src/app.txt')] })
    expect(c.id).toBe('225f174b3e128745ce3f829d3761e433efe3593d')
    expect(c.stats).toEqual({ additions: 0, deletions: 3, total: 3 })
    expect(await treePaths(id)).toEqual(['100644 README.md'])
  })

  it('moves a file, keeping its content when none is given', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, { commit_message: 'Move app', actions: [{ action: 'move', file_path: 'lib/app.txt', previous_path: 'src/app.txt' }] })
    expect(c.id).toBe('3733146a65f4da710523e7e050dd97d2dac56112')
    expect(c.stats).toEqual({ additions: 0, deletions: 0, total: 0 })
    expect(await treePaths(id)).toEqual(['100644 README.md', '100644 lib/app.txt'])
    expect(await fileText(id, 'lib/app.txt')).toBe('one\ntwo\nthree\n')
  })

  it('moves a file and replaces its content when content is given', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, {
      commit_message: 'Move and edit app', actions: [{ action: 'move', file_path: 'lib/app.txt', previous_path: 'src/app.txt', content: 'one\n2\nthree\n' }],
    })
    expect(c.id).toBe('aa5d231ca9f946462e5b0c28a9dba88078c86958')
    expect(c.stats).toEqual({ additions: 1, deletions: 1, total: 2 })
    expect(await treePaths(id)).toEqual(['100644 README.md', '100644 lib/app.txt'])
    expect(await fileText(id, 'lib/app.txt')).toBe('one\n2\nthree\n')
  })

  it('changes the file mode with chmod, and back', async () => {
    const id = await seeded()
    const on = await commit(alice.api, id, { commit_message: 'Make it executable', actions: [{ action: 'chmod', file_path: 'src/app.txt', execute_filemode: true }] })
    expect(on.id).toBe('209008960cee4914118b48a96aea86256c084341')
    expect(await treePaths(id)).toEqual(['100644 README.md', '100755 src/app.txt'])
    const file = expectStatus(await alice.api.get(`${repo(id)}/files/src%2Fapp.txt`), 200)
    expect(file.body.execute_filemode).toBe(true)
    await commit(alice.api, id, { commit_message: 'Not executable', actions: [{ action: 'chmod', file_path: 'src/app.txt', execute_filemode: false }] })
    expect(await treePaths(id)).toEqual(['100644 README.md', '100644 src/app.txt'])
  })

  it('creates an executable file when execute_filemode is given', async () => {
    const id = await seeded()
    await commit(alice.api, id, { commit_message: 'Script', actions: [{ action: 'create', file_path: 'run.sh', content: '#!/bin/sh\n', execute_filemode: true }] })
    expect(await treePaths(id)).toEqual(['100644 README.md', '100755 run.sh', '100644 src/app.txt'])
  })

  it('decodes base64 content, binary bytes included', async () => {
    const id = await seeded()
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 0])
    const c = await commit(alice.api, id, { commit_message: 'Binary', actions: [{ action: 'create', file_path: 'bin/data.bin', content: bytes.toString('base64'), encoding: 'base64' }] })
    expect(c.id).toBe('c76eeb48c5b1aa6d215ecb6ee76736af04e2720c')
    const raw = await fetch(`${server.api}${repo(id)}/files/bin%2Fdata.bin/raw?ref=master`, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(bytes)
    await commit(alice.api, id, { commit_message: 'Text in base64', actions: [{ action: 'update', file_path: 'README.md', content: 'aGVsbG8gYmFzZTY0Cg==', encoding: 'base64' }] })
    expect(await fileText(id, 'README.md')).toBe('hello base64\n')
  })

  it('applies several actions in order in one commit', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, {
      commit_message: 'Several', actions: [create('docs/a.md', 'a\n'), update('docs/a.md', 'b\n'), { action: 'move', file_path: 'docs/b.md', previous_path: 'docs/a.md' }, remove('README.md')],
    })
    expect(c.parent_ids).toEqual([SEED])
    expect(await treePaths(id)).toEqual(['100644 docs/b.md', '100644 src/app.txt'])
    expect(await fileText(id, 'docs/b.md')).toBe('b\n')
  })

  it('reads several actions from a form body sent as actions[][key]= repeated (api-v4.md request conventions)', async () => {
    const id = await seeded()
    const form = [
      'branch=master', 'commit_message=From+a+form',
      'actions[][action]=create', 'actions[][file_path]=a.txt', 'actions[][content]=A',
      'actions[][action]=update', 'actions[][file_path]=README.md', 'actions[][content]=changed%0A',
    ].join('&')
    const res = await alice.api.post(`${repo(id)}/commits`, undefined, { form })
    expect([res.status, res.body.title, res.body.stats]).toEqual([201, 'From a form', { additions: 2, deletions: 1, total: 3 }])
    expect(await treePaths(id)).toEqual(['100644 README.md', '100644 a.txt', '100644 src/app.txt'])
    expect([await fileText(id, 'a.txt'), await fileText(id, 'README.md')]).toEqual(['A', 'changed\n'])
  })

  it('creates a new branch from start_branch and leaves the start branch alone', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, { branch: 'feature/x', start_branch: 'master', commit_message: 'On a feature', actions: [create('feature.txt', 'f\n')] })
    expect(c.id).toBe('e2792121b1d96bf8f31c3c24f638f9e7ab1b4675')
    expect(c.parent_ids).toEqual([SEED])
    expect(await branchHead(alice.api, id, 'feature/x')).toBe(c.id)
    expect(await branchHead(alice.api, id, 'master')).toBe(SEED)
    expect(await fileText(id, 'feature.txt', 'feature/x')).toBe('f\n')
    expect(await fileText(id, 'feature.txt')).toBeNull()
  })

  it('commits onto an existing branch when start_branch names that same branch', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, { branch: 'master', start_branch: 'master', commit_message: 'Same branch', actions: [create('x.txt', 'x\n')] })
    expect(c.parent_ids).toEqual([SEED])
    expect(await branchHead(alice.api, id, 'master')).toBe(c.id)
  })

  it('takes the author from author_name and author_email; the committer stays the caller', async () => {
    const id = await seeded()
    const c = await commit(alice.api, id, {
      commit_message: 'By someone else', author_name: 'Grace Hopper', author_email: 'grace@example.org', actions: [create('g.txt', 'g\n')],
    })
    expect(c.id).toBe('7b421e6d33873ad8979461c89f1a13c5f5f12fef')
    expect([c.author_name, c.author_email, c.committer_name, c.committer_email]).toEqual(['Grace Hopper', 'grace@example.org', 'Alice Liddell', 'alice@example.com'])
    expect(catFile(server, id, c.id)).toContain('author Grace Hopper <grace@example.org> 1704164645 +0000\ncommitter Alice Liddell <alice@example.com> 1704164645 +0000\n')
  })

  it('accepts last_commit_id when it is the last commit that touched the file', async () => {
    const id = await seeded()
    const other = await commit(alice.api, id, { commit_message: 'Touch README only', actions: [update('README.md', 'hi\n')] })
    const c = await commit(alice.api, id, { commit_message: 'Edit app', actions: [{ ...update('src/app.txt', 'one\n'), last_commit_id: SEED }] })
    expect(c.parent_ids).toEqual([other.id])
  })

  it('leaves stats out when stats=false', async () => {
    const id = await seeded()
    const res = expectStatus(await alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: 'No stats', stats: false, actions: [create('n.txt', 'n\n')] }), 201)
    expect(res.body.stats).toBeUndefined()
    expect(res.body.status).toBeNull()
  })

  // master is protected (default_branch_protection 2) once it exists: Developers commit to other branches.
  it('lets a Developer commit', async () => {
    const id = await seeded()
    const c = await commit(dave.api, id, { branch: 'dave', start_branch: 'master', commit_message: 'By Dave', actions: [create('d.txt', 'd\n')] })
    expect([c.author_name, c.committer_name]).toEqual(['Dave Developer', 'Dave Developer'])
  })
})

describe('refusals write nothing', () => {
  /** Posts, expects 400 with `message`, and checks every branch still points where it did. */
  async function refused(id: number, body: Record<string, unknown>, message: string) {
    const before = await branchHead(alice.api, id, 'master')
    const res = await alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: 'Refused', ...body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message })
    expect(await branchHead(alice.api, id, 'master')).toBe(before)
    const branches = expectStatus(await alice.api.get(`${repo(id)}/branches`), 200).body.map((b: { name: string }) => b.name)
    expect(branches).toEqual(['master'])
  }

  it('refuses to create a file that exists', async () => {
    await refused(await seeded(), { actions: [create('README.md', 'again\n')] }, 'A file with this name already exists: README.md')
  })

  it('refuses to update, delete or move a file that does not exist', async () => {
    const id = await seeded()
    await refused(id, { actions: [update('nope.txt', 'x')] }, "A file with this name doesn't exist: nope.txt")
    await refused(id, { actions: [remove('src/nope.txt')] }, "A file with this name doesn't exist: src/nope.txt")
    await refused(id, { actions: [{ action: 'move', file_path: 'b.txt', previous_path: 'nope.txt' }] }, "A file with this name doesn't exist: nope.txt")
    await refused(id, { actions: [{ action: 'chmod', file_path: 'nope.txt', execute_filemode: true }] }, "A file with this name doesn't exist: nope.txt")
    // A directory is not a file.
    await refused(id, { actions: [remove('src')] }, "A file with this name doesn't exist: src")
  })

  it('refuses to move a file onto one that exists', async () => {
    await refused(await seeded(), { actions: [{ action: 'move', file_path: 'README.md', previous_path: 'src/app.txt' }] }, 'A file with this name already exists: README.md')
  })

  it('writes none of the actions when a later one fails', async () => {
    const id = await seeded()
    await refused(id, { actions: [create('new.txt', 'new\n'), update('README.md', 'changed\n'), update('missing.txt', 'x')] }, "A file with this name doesn't exist: missing.txt")
    expect(await fileText(id, 'new.txt')).toBeNull()
    expect(await fileText(id, 'README.md')).toBe('hello\n')
  })

  it('refuses a branch that does not exist when no start_branch is given', async () => {
    await refused(await seeded(), { branch: 'nowhere', actions: [create('x.txt', 'x')] }, 'You can only create or edit files when you are on a branch')
  })

  it('refuses a start_branch that does not exist', async () => {
    await refused(await seeded(), { branch: 'topic', start_branch: 'nowhere', actions: [create('x.txt', 'x')] }, 'Invalid reference name: nowhere')
  })

  it('refuses a start_branch when the target branch already exists', async () => {
    const id = await seeded()
    const side = await commit(alice.api, id, { branch: 'side', start_branch: 'master', commit_message: 'Side', actions: [create('s.txt', 's\n')] })
    const res = await alice.api.post(`${repo(id)}/commits`, { branch: 'side', start_branch: 'master', commit_message: 'Again', actions: [create('t.txt', 't\n')] })
    expect([res.status, res.body]).toEqual([400, { message: "A branch called 'side' already exists. Switch to that branch in order to make changes" }])
    expect(await branchHead(alice.api, id, 'side')).toBe(side.id)
  })

  it('refuses a stale last_commit_id', async () => {
    const id = await seeded()
    const edit = await commit(alice.api, id, { commit_message: 'Edit README', actions: [update('README.md', 'edited\n')] })
    for (const action of ['update', 'delete'] as const) {
      await refused(id, { actions: [{ action, file_path: 'README.md', content: 'mine\n', last_commit_id: SEED }] }, 'The file has changed since you started editing it: README.md')
    }
    await refused(id, { actions: [{ action: 'move', file_path: 'R.md', previous_path: 'README.md', last_commit_id: SEED }] }, 'The file has changed since you started editing it: README.md')
    expect(await branchHead(alice.api, id, 'master')).toBe(edit.id)
  })

  it('refuses a last_commit_id that is not a commit', async () => {
    const id = await seeded()
    await refused(id, { actions: [{ ...update('README.md', 'x'), last_commit_id: '0123456789abcdef0123456789abcdef01234567' }] },
      'last_commit_id 0123456789abcdef0123456789abcdef01234567 is not a commit of this repository')
    await refused(id, { actions: [{ ...update('README.md', 'x'), last_commit_id: 'not-a-sha' }] }, '400 Bad request - actions[0] last_commit_id is not a commit id')
    // A blob id is an object, but not a commit.
    const blob = expectStatus(await alice.api.get(`${repo(id)}/files/README.md`), 200).body.blob_id
    await refused(id, { actions: [{ ...update('README.md', 'x'), last_commit_id: blob }] }, `last_commit_id ${blob} is not a commit of this repository`)
  })
})

describe('bad input', () => {
  let id: number
  beforeAll(async () => {
    id = await seeded()
  })

  async function bad(body: Record<string, unknown>, expected: unknown) {
    const res = await alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: 'Bad', ...body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(expected)
    expect(await branchHead(alice.api, id, 'master')).toBe(SEED)
  }

  it.each([
    ['../escape.txt'], ['src/../../escape.txt'], ['/etc/passwd'], ['.git/config'], ['src/.git/hooks/x'], ['.GIT/config'],
    ['a\u0000b.txt'], ['dir/'], ['a//b.txt'], ['.'], [''],
  ])('refuses the file_path %j', async (path) => {
    await bad({ actions: [create(path, 'x')] }, { message: `400 Bad request - actions[0].file_path is invalid: ${JSON.stringify(path)}` })
  })

  it('refuses a bad previous_path', async () => {
    await bad({ actions: [{ action: 'move', file_path: 'x.txt', previous_path: '../README.md' }] }, { message: '400 Bad request - actions[0].previous_path is invalid: "../README.md"' })
  })

  it('names the failing action by its index', async () => {
    await bad({ actions: [create('ok.txt', 'x'), create('/abs', 'x')] }, { message: '400 Bad request - actions[1].file_path is invalid: "/abs"' })
  })

  it.each([['a..b'], ['has space'], ['-dash'], ['x.lock'], ['tilde~1'], ['caret^'], ['colon:x'], ['end/'], ['trailing.'], ['@'], ['a@{b'], ['HEAD'], ['refs/heads/main'], ['x'.repeat(251)]])(
    'refuses the branch name %j', async (branch) => {
      await bad({ branch, start_branch: 'master', actions: [create('x.txt', 'x')] }, { message: `Invalid branch name: ${branch}` })
    },
  )

  it('refuses base64 content that does not decode', async () => {
    await bad({ actions: [{ action: 'create', file_path: 'x.bin', content: 'not*base64!', encoding: 'base64' }] }, { message: '400 Bad request - actions[0] content is not valid base64' })
    await bad({ actions: [{ action: 'create', file_path: 'x.bin', content: 'QUJDRA=x', encoding: 'base64' }] }, { message: '400 Bad request - actions[0] content is not valid base64' })
    await bad({ actions: [{ action: 'create', file_path: 'x.bin', content: 'QUJDR', encoding: 'base64' }] }, { message: '400 Bad request - actions[0] content is not valid base64' })
  })

  it('refuses create and update without content', async () => {
    await bad({ actions: [{ action: 'create', file_path: 'x.txt' }] }, { message: '400 Bad request - actions[0] content is missing for the create action' })
    await bad({ actions: [{ action: 'update', file_path: 'README.md' }] }, { message: '400 Bad request - actions[0] content is missing for the update action' })
  })

  it('refuses a move without previous_path', async () => {
    await bad({ actions: [{ action: 'move', file_path: 'x.txt' }] }, { message: 'previous_path is required to move x.txt' })
  })

  it('refuses an unknown action', async () => {
    await bad({ actions: [{ action: 'rename', file_path: 'x.txt' }] }, { message: { 'actions.action': ['does not have a valid value'] } })
  })

  it('names missing attributes and refuses an empty action list', async () => {
    const res = await alice.api.post(`${repo(id)}/commits`, { branch: 'master', actions: [create('x.txt', 'x')] })
    expect([res.status, res.body]).toEqual([400, { message: '400 (Bad request) "commit_message" not given' }])
    const noActions = await alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: 'x' })
    expect([noActions.status, noActions.body]).toEqual([400, { message: '400 (Bad request) "actions" not given' }])
    const noBranch = await alice.api.post(`${repo(id)}/commits`, { commit_message: 'x', actions: [create('x.txt', 'x')] })
    expect([noBranch.status, noBranch.body]).toEqual([400, { message: '400 (Bad request) "branch" not given' }])
    await bad({ actions: [] }, { message: '400 Bad request - actions is empty' })
  })
})

describe('who may commit', () => {
  let id: number
  beforeAll(async () => {
    id = await seeded()
  })
  const body = { branch: 'master', commit_message: 'Try', actions: [create('try.txt', 'x')] }

  it('answers 404 for an unknown project', async () => {
    const res = await alice.api.post('/projects/999999/repository/commits', body)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    const byPath = await alice.api.post('/projects/alice%2Fno-such/repository/commits', body)
    expect([byPath.status, byPath.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('answers 404 to a user who cannot see the private project', async () => {
    const outsider = await createUser(server, 'outsider')
    const res = await outsider.api.post(`${repo(id)}/commits`, body)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('answers 403 to a Reporter', async () => {
    const res = await rita.api.post(`${repo(id)}/commits`, body)
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await branchHead(alice.api, id, 'master')).toBe(SEED)
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).post(`${repo(id)}/commits`, body)
    expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect(await branchHead(alice.api, id, 'master')).toBe(SEED)
  })
})
