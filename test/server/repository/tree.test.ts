// GET /projects/:id/repository/tree: path, ref, recursive, pagination, and 404 Tree Not Found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TreeEntry } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, type TestUser } from '../../helpers/api.js'
import { commit, create, remove, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

// Ids are git's (`git hash-object`, `git write-tree`): they depend on content only.
const HELLO = 'ce013625030ba8dba906f756967f9e9ca394464a'
const X = '587be6b4c3f93f93c489c0111bba5596147a26cb'

let server: TestServer
let alice: TestUser
let id: number
let first: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'tree' })).id
  first = (await commit(alice.api, id, {
    commit_message: 'Files',
    actions: [
      create('README.md', 'hello\n'), create('a.txt', 'x\n'), create('a/x.txt', 'x\n'), create('src/app.txt', 'x\n'), create('src/lib/util.txt', 'x\n'),
      create('docs/guide.md', 'x\n'), { action: 'create', file_path: 'run.sh', content: 'x\n', execute_filemode: true },
    ],
  })).id
  await commit(alice.api, id, { commit_message: 'Drop docs', actions: [remove('docs/guide.md')] })
  await commit(alice.api, id, { branch: 'other', start_branch: 'master', commit_message: 'Other', actions: [create('other.txt', 'x\n')] })
})
afterAll(() => server.close())

const tree = (query: Record<string, string | number | boolean> = {}) => alice.api.get(`${repo(id)}/tree`, { query })
const paths = (body: { type: string; path: string }[]) => body.map((e) => `${e.type} ${e.path}`)

describe('GET /projects/:id/repository/tree', () => {
  it('lists the root of the default branch: trees first, then blobs, each in git order', async () => {
    const res = await tree()
    expect(res.status).toBe(200)
    for (const e of res.body) TreeEntry.strict().parse(e)
    expect(res.body).toEqual([
      { id: '0479003445f4e5a5ff25360c607ca79ffe4e4ea1', name: 'a', type: 'tree', path: 'a', mode: '040000' },
      { id: '5d184f01d797aaf0bcdfc8331d030fc158e41041', name: 'src', type: 'tree', path: 'src', mode: '040000' },
      { id: HELLO, name: 'README.md', type: 'blob', path: 'README.md', mode: '100644' },
      { id: X, name: 'a.txt', type: 'blob', path: 'a.txt', mode: '100644' },
      { id: X, name: 'run.sh', type: 'blob', path: 'run.sh', mode: '100755' },
    ])
  })

  it('lists a directory given by path, with or without a trailing slash', async () => {
    const expected = [
      { id: '65a7ff78276d34abaca49bd133a0190f6c747467', name: 'lib', type: 'tree', path: 'src/lib', mode: '040000' },
      { id: X, name: 'app.txt', type: 'blob', path: 'src/app.txt', mode: '100644' },
    ]
    expect((await tree({ path: 'src' })).body).toEqual(expected)
    expect((await tree({ path: 'src/' })).body).toEqual(expected)
    expect(paths((await tree({ path: 'src/lib' })).body)).toEqual(['blob src/lib/util.txt'])
  })

  it('lists everything below with recursive', async () => {
    expect(paths((await tree({ recursive: true })).body)).toEqual([
      'tree a', 'tree src', 'tree src/lib', 'blob README.md', 'blob a.txt', 'blob a/x.txt', 'blob run.sh', 'blob src/app.txt', 'blob src/lib/util.txt',
    ])
    expect(paths((await tree({ recursive: true, path: 'src' })).body)).toEqual(['tree src/lib', 'blob src/app.txt', 'blob src/lib/util.txt'])
  })

  it('reads another branch, a tag or a commit with ref', async () => {
    expect(paths((await tree({ ref: 'other' })).body)).toContain('blob other.txt')
    expect(paths((await tree({ ref: first })).body)).toContain('tree docs')
    expect(paths((await tree({ ref: first.slice(0, 8), path: 'docs' })).body)).toEqual(['blob docs/guide.md'])
    await alice.api.post(`${repo(id)}/tags`, { tag_name: 'v1', ref: first, message: 'annotated' })
    expect(paths((await tree({ ref: 'v1', path: 'docs' })).body)).toEqual(['blob docs/guide.md'])
  })

  it('paginates', async () => {
    const res = await tree({ recursive: true, per_page: 4, page: 2 })
    expect(paths(res.body)).toEqual(['blob a.txt', 'blob a/x.txt', 'blob run.sh', 'blob src/app.txt'])
    expect([res.headers.get('x-total'), res.headers.get('x-total-pages'), res.headers.get('x-next-page'), res.headers.get('x-prev-page')]).toEqual(['9', '3', '3', '1'])
  })

  it('answers 404 Tree Not Found for a missing path, a file, or an unknown ref', async () => {
    for (const query of [{ path: 'docs' }, { path: 'nope/deeper' }, { path: 'README.md' }, { ref: 'no-such-ref' }] as Record<string, string>[]) {
      const res = await tree(query)
      expect([res.status, res.body]).toEqual([404, { message: '404 Tree Not Found' }])
    }
  })

  it('refuses a path that climbs out of the repository', async () => {
    const res = await tree({ path: '../etc' })
    expect([res.status, res.body]).toEqual([400, { message: '400 Bad request - path is invalid: "../etc"' }])
  })

  it('answers an empty list for an empty repository', async () => {
    const empty = await createProject(alice.api, { name: 'empty-tree' })
    const res = await alice.api.get(`${repo(empty.id)}/tree`)
    expect([res.status, res.body, res.headers.get('x-total')]).toEqual([200, [], '0'])
  })

  it('answers 404 for a private project to anonymous callers', async () => {
    const res = await api(server).get(`${repo(id)}/tree`)
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
  })
})
