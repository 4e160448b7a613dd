// Repository files: GET with base64 content and X-Gitlab-* headers, GET raw bytes, and single-file commits by POST, PUT and DELETE.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RepositoryFile } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const APP = 'one\ntwo\nthree\n'
/** master: FIRST (src/app.txt, README.md) <- SECOND (README.md edited). */
const FIRST = '05739a3ff64b8b8b033fd73b37ee2898666e8e27'
const SECOND = 'a534f028e82804e658851902f9a1c741bc723334'
// `printf 'one\ntwo\nthree\n' | git hash-object --stdin`
const APP_BLOB = '4cb29ea38f70d7c61b2a3a25b02e3bdf44905402'
const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0a])

let server: TestServer
let alice: TestUser
let rita: TestUser
let id: number

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
  id = await fixture()
})
afterAll(() => server.close())

let projects = 0
async function fixture() {
  const p = await createProject(alice.api, { name: `files-${++projects}` })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  expect((await commit(alice.api, p.id, {
    commit_message: 'Initial commit',
    actions: [create('src/app.txt', APP), create('README.md', 'hello\n'), { action: 'create', file_path: 'bin/logo.png', content: BYTES.toString('base64'), encoding: 'base64' }],
  })).id).toBe(FIRST)
  expect((await commit(alice.api, p.id, { commit_message: 'Edit README', actions: [update('README.md', 'hello again\n')] })).id).toBe(SECOND)
  return p.id as number
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')
const gitlabHeaders = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k.startsWith('x-gitlab-')))
const file = (path: string, query: Record<string, string> = {}, as = alice.api) => as.get(`${repo(id)}/files/${encodeURIComponent(path)}`, { query })
const raw = (path: string, query = '', token = alice.token) =>
  fetch(`${server.api}${repo(id)}/files/${encodeURIComponent(path)}/raw${query}`, { headers: { 'PRIVATE-TOKEN': token } })

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('answers the file with base64 content and its metadata, also in X-Gitlab-* headers', async () => {
    const res = await file('src/app.txt', { ref: 'master' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(RepositoryFile.strict().parse(res.body)).toEqual({
      file_name: 'app.txt', file_path: 'src/app.txt', size: 14, encoding: 'base64', content_sha256: sha256(APP), ref: 'master',
      blob_id: APP_BLOB, commit_id: SECOND, last_commit_id: FIRST, execute_filemode: false, content: Buffer.from(APP).toString('base64'),
    })
    expect(gitlabHeaders(res.headers)).toEqual({
      'x-gitlab-file-name': 'app.txt', 'x-gitlab-file-path': 'src/app.txt', 'x-gitlab-ref': 'master', 'x-gitlab-blob-id': APP_BLOB,
      'x-gitlab-commit-id': SECOND, 'x-gitlab-last-commit-id': FIRST, 'x-gitlab-size': '14', 'x-gitlab-encoding': 'base64',
      'x-gitlab-content-sha256': sha256(APP), 'x-gitlab-execute-filemode': 'false',
    })
  })

  it('reads the default branch without ref, and any branch, tag or commit with it', async () => {
    expect((await file('README.md')).body).toMatchObject({ ref: 'master', commit_id: SECOND, last_commit_id: SECOND, content: Buffer.from('hello again\n').toString('base64') })
    expect((await file('README.md', { ref: FIRST })).body).toMatchObject({ ref: FIRST, commit_id: FIRST, content: Buffer.from('hello\n').toString('base64') })
    expect((await file('README.md', { ref: FIRST.slice(0, 8) })).body.commit_id).toBe(FIRST)
  })

  it('sends names, paths and refs in headers as they are, percent-encoding only what a header cannot carry', async () => {
    const p = await fixture()
    await commit(alice.api, p, { branch: 'feature/docs', start_branch: 'master', commit_message: 'Docs', actions: [create('docs/My Notes (draft).md', 'n\n'), create('docs/café.md', 'c\n')] })
    const spaced = await alice.api.get(`${repo(p)}/files/${encodeURIComponent('docs/My Notes (draft).md')}`, { query: { ref: 'feature/docs' } })
    expect([spaced.headers.get('x-gitlab-file-name'), spaced.headers.get('x-gitlab-file-path'), spaced.headers.get('x-gitlab-ref')])
      .toEqual(['My Notes (draft).md', 'docs/My Notes (draft).md', 'feature/docs'])
    const accented = await alice.api.get(`${repo(p)}/files/${encodeURIComponent('docs/café.md')}`, { query: { ref: 'feature/docs' } })
    expect([accented.body.file_path, accented.headers.get('x-gitlab-file-path')]).toEqual(['docs/café.md', 'docs/caf%C3%A9.md'])
  })

  it('answers binary content in base64 like any other', async () => {
    const res = await file('bin/logo.png')
    expect([res.body.size, Buffer.from(res.body.content, 'base64')]).toEqual([7, BYTES])
  })

  it('answers 404 File Not Found for a missing file or a directory, and 404 Commit Not Found for an unknown ref', async () => {
    for (const path of ['nope.txt', 'src', 'src/nope/deeper.txt']) {
      const res = await file(path)
      expect([res.status, res.body]).toEqual([404, { message: '404 File Not Found' }])
    }
    const ref = await file('README.md', { ref: 'no-such-ref' })
    expect([ref.status, ref.body]).toEqual([404, { message: '404 Commit Not Found' }])
  })

  it('refuses a path that climbs out of the repository', async () => {
    const res = await file('../../etc/passwd')
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - file_path is invalid: "../../etc/passwd"' }])
  })

  it('lets a Reporter read and answers 404 to anonymous callers of a private project', async () => {
    expect((await file('README.md', {}, rita.api)).status).toBe(200)
    const res = await file('README.md', {}, api(server))
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})

describe('GET /projects/:id/repository/files/:file_path/raw', () => {
  it('answers the bytes of a text file as text/plain, with the X-Gitlab-* headers', async () => {
    const res = await raw('src/app.txt', '?ref=master')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(APP)
    expect([res.headers.get('content-type'), res.headers.get('content-length')]).toEqual(['text/plain; charset=utf-8', '14'])
    expect(gitlabHeaders(res.headers)).toMatchObject({ 'x-gitlab-file-name': 'app.txt', 'x-gitlab-blob-id': APP_BLOB, 'x-gitlab-commit-id': SECOND, 'x-gitlab-last-commit-id': FIRST, 'x-gitlab-size': '14' })
  })

  it('answers the exact bytes of a binary file as application/octet-stream', async () => {
    const res = await raw('bin/logo.png')
    expect(Buffer.from(await res.arrayBuffer())).toEqual(BYTES)
    expect([res.headers.get('content-type'), res.headers.get('x-gitlab-content-sha256')]).toEqual(['application/octet-stream', sha256(BYTES)])
  })

  it('defaults ref to the default branch', async () => {
    expect(await (await raw('README.md')).text()).toBe('hello again\n')
    expect(await (await raw('README.md', `?ref=${FIRST}`)).text()).toBe('hello\n')
  })

  it('answers 404 File Not Found and 404 Commit Not Found as JSON', async () => {
    const missing = await raw('nope.txt')
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 File Not Found' }])
    const ref = await raw('README.md', '?ref=nowhere')
    expect([ref.status, await ref.json()]).toEqual([404, { message: '404 Commit Not Found' }])
  })
})

describe('POST /projects/:id/repository/files/:file_path', () => {
  it('creates the file in a commit and answers 201 with file_path and branch', async () => {
    const p = await fixture()
    const res = await alice.api.post(`${repo(p)}/files/docs%2Fnew.md`, { branch: 'master', content: '# New\n', commit_message: 'Add new.md' })
    expect([res.status, res.body]).toEqual([201, { file_path: 'docs/new.md', branch: 'master' }])
    const head = (await alice.api.get(`${repo(p)}/commits/master`)).body
    expect([head.id, head.title, head.parent_ids]).toEqual(['ac1aab6d043aa88631476b5a73882dc2aa8d19d8', 'Add new.md', [SECOND]])
    expect((await alice.api.get(`${repo(p)}/files/docs%2Fnew.md/raw`)).text).toBe('# New\n')
  })

  it('takes base64 content, execute_filemode, an author and a start_branch', async () => {
    const p = await fixture()
    expectStatus(await alice.api.post(`${repo(p)}/files/run.sh`, {
      branch: 'scripts', start_branch: 'master', content: Buffer.from('#!/bin/sh\n').toString('base64'), encoding: 'base64', execute_filemode: true,
      author_name: 'Grace Hopper', author_email: 'grace@example.org', commit_message: 'Add a script',
    }), 201)
    const f = (await alice.api.get(`${repo(p)}/files/run.sh`, { query: { ref: 'scripts' } })).body
    expect([Buffer.from(f.content, 'base64').toString(), f.execute_filemode]).toEqual(['#!/bin/sh\n', true])
    const head = (await alice.api.get(`${repo(p)}/commits/scripts`)).body
    expect([head.author_name, head.author_email, head.committer_name, head.parent_ids]).toEqual(['Grace Hopper', 'grace@example.org', 'Alice Liddell', [SECOND]])
    expect(await branchHead(alice.api, p, 'master')).toBe(SECOND)
  })

  it('answers 400 when the file exists or parameters are missing, and writes nothing', async () => {
    const p = await fixture()
    const post = (path: string, body: Record<string, unknown>) => alice.api.post(`${repo(p)}/files/${path}`, body).then((r) => [r.status, r.body])
    expect(await post('README.md', { branch: 'master', content: 'x', commit_message: 'x' })).toEqual([400, { message: 'A file with this name already exists: README.md' }])
    expect(await post('x.txt', { branch: 'master', commit_message: 'x' })).toEqual([400, { message: '400 (Bad request) "content" not given' }])
    expect(await post('x.txt', { branch: 'master', content: 'x' })).toEqual([400, { message: '400 (Bad request) "commit_message" not given' }])
    expect(await post('x.txt', { content: 'x', commit_message: 'x' })).toEqual([400, { message: '400 (Bad request) "branch" not given' }])
    expect(await post('..%2Fx.txt', { branch: 'master', content: 'x', commit_message: 'x' })).toEqual([400, { message: '400 Bad request - actions[0].file_path is invalid: "../x.txt"' }])
    expect(await post('x.txt', { branch: 'nowhere', content: 'x', commit_message: 'x' })).toEqual([400, { message: 'You can only create or edit files when you are on a branch' }])
    expect(await branchHead(alice.api, p, 'master')).toBe(SECOND)
  })

  it('answers 403 to a Reporter, 401 without credentials and 404 for an unknown project', async () => {
    const body = { branch: 'master', content: 'x', commit_message: 'x' }
    const reporter = await rita.api.post(`${repo(id)}/files/x.txt`, body)
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await api(server).post(`${repo(id)}/files/x.txt`, body)
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    const unknown = await alice.api.post('/projects/999999/repository/files/x.txt', body)
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect(await branchHead(alice.api, id, 'master')).toBe(SECOND)
  })
})

describe('PUT /projects/:id/repository/files/:file_path', () => {
  it('updates the file in a commit and answers 200 with file_path and branch', async () => {
    const p = await fixture()
    const res = await alice.api.put(`${repo(p)}/files/src%2Fapp.txt`, { branch: 'master', content: 'one\n', commit_message: 'Shorten app', last_commit_id: FIRST })
    expect([res.status, res.body]).toEqual([200, { file_path: 'src/app.txt', branch: 'master' }])
    expect((await alice.api.get(`${repo(p)}/files/src%2Fapp.txt/raw`)).text).toBe('one\n')
    expect((await alice.api.get(`${repo(p)}/commits/master`)).body.title).toBe('Shorten app')
  })

  it('answers 400 for a missing file or a stale last_commit_id, and writes nothing', async () => {
    const p = await fixture()
    const put = (path: string, body: Record<string, unknown>) => alice.api.put(`${repo(p)}/files/${path}`, { branch: 'master', commit_message: 'x', ...body }).then((r) => [r.status, r.body])
    expect(await put('nope.txt', { content: 'x' })).toEqual([400, { message: "A file with this name doesn't exist: nope.txt" }])
    expect(await put('README.md', { content: 'x', last_commit_id: FIRST })).toEqual([400, { message: 'The file has changed since you started editing it: README.md' }])
    expect(await branchHead(alice.api, p, 'master')).toBe(SECOND)
  })
})

describe('DELETE /projects/:id/repository/files/:file_path', () => {
  it('deletes the file in a commit and answers 204', async () => {
    const p = await fixture()
    const res = await alice.api.del(`${repo(p)}/files/README.md`, { query: { branch: 'master', commit_message: 'Remove README' } })
    expect([res.status, res.text]).toEqual([204, ''])
    expect((await alice.api.get(`${repo(p)}/files/README.md`)).status).toBe(404)
    expect((await alice.api.get(`${repo(p)}/commits/master`)).body.title).toBe('Remove README')
  })

  it('answers 400 for a missing file and writes nothing', async () => {
    const p = await fixture()
    const res = await alice.api.del(`${repo(p)}/files/nope.txt`, { json: { branch: 'master', commit_message: 'x' } })
    expect([res.status, res.body]).toEqual([400, { message: "A file with this name doesn't exist: nope.txt" }])
    expect(await branchHead(alice.api, p, 'master')).toBe(SECOND)
  })
})
