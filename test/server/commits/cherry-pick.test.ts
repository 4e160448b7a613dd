// POST /projects/:id/repository/commits/:sha/cherry_pick: a three-way apply onto another branch; conflicts and repeats move nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Commit } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { branchHead, catFile, commit, create, remove, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const DATE = '2024-01-02T03:04:05.000+00:00'
const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`)
const text = (lines: string[]) => lines.join('\n') + '\n'
const edit = (i: number, to: string, from = TEN) => text(from.map((l, n) => (n === i ? to : l)))

let server: TestServer
let alice: TestUser
let dave: TestUser
let rita: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  dave = await createUser(server, 'dave', { name: 'Dave Developer' })
  rita = await createUser(server, 'rita', { name: 'Rita Reporter' })
})
afterAll(() => server.close())

/**
 * master: ROOT (app.txt ten lines, gone.txt) <- PICK (line 1 -> LINE 1, adds added.txt) <- CLASH (line 10 -> master's)
 * stable: ROOT <- STABLE (line 10 -> stable's)
 */
const ROOT = '64cfbe41d5bfdfc0ab2f8d694d09ea3d131f0516'
const PICK = 'da0f6ba6f72651c19552ae8579b7e75a3feca463'
const STABLE = 'dd10a84506e531f65b77ed4b30d79999cf1abd2e'

let projects = 0
async function fixture() {
  const p = await createProject(alice.api, { name: `pick-${++projects}` })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: dave.id, access_level: 30 })
  await alice.api.post(`/projects/${p.id}/members`, { user_id: rita.id, access_level: 20 })
  const root = await commit(alice.api, p.id, { commit_message: 'Initial commit', actions: [create('app.txt', text(TEN)), create('gone.txt', 'gone\n')] })
  const stable = await commit(alice.api, p.id, { branch: 'stable', start_branch: 'master', commit_message: 'Stable tweak', actions: [update('app.txt', edit(9, 'line 10 (stable)'))] })
  const pick = await commit(alice.api, p.id, { commit_message: 'Fix the first line', actions: [update('app.txt', edit(0, 'LINE 1')), create('added.txt', 'added\n')] })
  const clash = await commit(alice.api, p.id, { commit_message: 'Master tweak', actions: [update('app.txt', edit(9, 'line 10 (master)', edit(0, 'LINE 1').trimEnd().split('\n')))] })
  expect([root.id, pick.id, stable.id]).toEqual([ROOT, PICK, STABLE])
  return { id: p.id as number, clash: clash.id as string }
}

const pick = (as: typeof alice.api, id: number, sha: string, body: Record<string, unknown>) => as.post(`${repo(id)}/commits/${sha}/cherry_pick`, body)
const raw = (id: number, path: string, ref: string) => alice.api.get(`${repo(id)}/files/${path}/raw`, { query: { ref } }).then((r) => (r.status === 200 ? r.text : null))

describe('POST /projects/:id/repository/commits/:sha/cherry_pick', () => {
  it('applies the change three-way onto a branch where the file differs elsewhere, and answers 201 with the new commit', async () => {
    const { id } = await fixture()
    const res = await pick(dave.api, id, PICK, { branch: 'stable' })
    const path = (await alice.api.get(`/projects/${id}`)).body.path_with_namespace
    expect(res.status).toBe(201)
    const NEW = 'f73b05c85e79bb4738015bb972fbf61b2b3f02ea'
    expect(Commit.strict().parse(res.body)).toEqual({
      id: NEW,
      short_id: NEW.slice(0, 8),
      created_at: DATE,
      parent_ids: [STABLE],
      title: 'Fix the first line',
      message: `Fix the first line\n\n(cherry picked from commit ${PICK})\n`,
      author_name: 'Alice Liddell',
      author_email: 'alice@example.com',
      authored_date: DATE,
      committer_name: 'Dave Developer',
      committer_email: 'dave@example.com',
      committed_date: DATE,
      trailers: {},
      extended_trailers: {},
      web_url: `${server.url}/${path}/-/commit/${NEW}`,
    })
    expect(await branchHead(alice.api, id, 'stable')).toBe(NEW)
    expect(await raw(id, 'app.txt', 'stable')).toBe(edit(9, 'line 10 (stable)', edit(0, 'LINE 1').trimEnd().split('\n')))
    expect(await raw(id, 'added.txt', 'stable')).toBe('added\n')
    expect(catFile(server, id, NEW)).toContain(`parent ${STABLE}\nauthor Alice Liddell <alice@example.com> 1704164645 +0000\ncommitter Dave Developer <dave@example.com> 1704164645 +0000\n`)
  })

  it('takes a branch or tag name for the commit, and a message', async () => {
    const { id } = await fixture()
    await alice.api.post(`${repo(id)}/tags`, { tag_name: 'the-fix', ref: PICK })
    const res = expectStatus(await pick(alice.api, id, 'the-fix', { branch: 'stable', message: 'Backport the fix' }), 201)
    expect([res.body.message, res.body.parent_ids]).toEqual(['Backport the fix\n', [STABLE]])
  })

  it('applies deletions', async () => {
    const { id } = await fixture()
    const del = await commit(alice.api, id, { commit_message: 'Drop gone.txt', actions: [remove('gone.txt')] })
    expectStatus(await pick(alice.api, id, del.id, { branch: 'stable' }), 201)
    expect(await raw(id, 'gone.txt', 'stable')).toBeNull()
  })

  it('answers 400 on a conflict and leaves the branch where it was', async () => {
    const { id, clash } = await fixture()
    const res = await pick(alice.api, id, clash, { branch: 'stable' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      message: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'conflict',
    })
    expect(await branchHead(alice.api, id, 'stable')).toBe(STABLE)
  })

  it('answers 400 when both sides changed a binary file, as git will not merge binaries', async () => {
    const { id } = await fixture()
    const bin = (first: number, last: number) => ({ content: Buffer.from([0, first, 10, 0, 1, 10, 0, 2, 10, 0, 3, 10, 0, 4, 10, 0, last, 10]).toString('base64'), encoding: 'base64' as const })
    await commit(alice.api, id, { commit_message: 'Add data', actions: [{ action: 'create', file_path: 'data.bin', ...bin(0, 9) }] })
    await commit(alice.api, id, { branch: 'stable', commit_message: 'Add data too', actions: [{ action: 'create', file_path: 'data.bin', ...bin(0, 9) }] })
    await commit(alice.api, id, { branch: 'stable', commit_message: 'Change the start', actions: [{ action: 'update', file_path: 'data.bin', ...bin(7, 9) }] })
    const pickMe = await commit(alice.api, id, { commit_message: 'Change the end', actions: [{ action: 'update', file_path: 'data.bin', ...bin(0, 8) }] })
    const head = await branchHead(alice.api, id, 'stable')
    const res = await pick(alice.api, id, pickMe.id, { branch: 'stable' })
    expect([res.status, res.body.error_code]).toEqual([400, 'conflict'])
    expect(await branchHead(alice.api, id, 'stable')).toBe(head)
  })

  it('answers 400 when the change is already on the branch, moving nothing', async () => {
    const { id } = await fixture()
    const first = expectStatus(await pick(alice.api, id, PICK, { branch: 'stable' }), 201).body.id
    const again = await pick(alice.api, id, PICK, { branch: 'stable' })
    expect(again.status).toBe(400)
    expect(again.body.message).toMatch(/^Sorry, we cannot cherry-pick this commit automatically/)
    expect(await branchHead(alice.api, id, 'stable')).toBe(first)
    // A commit already in the branch's history.
    const own = await pick(alice.api, id, ROOT, { branch: 'master' })
    expect(own.status).toBe(400)
  })

  it('checks a dry run without moving the branch', async () => {
    const { id } = await fixture()
    const res = await pick(alice.api, id, PICK, { branch: 'stable', dry_run: true })
    expect([res.status, res.body]).toEqual([200, { dry_run: 'success' }])
    expect(await branchHead(alice.api, id, 'stable')).toBe(STABLE)
  })

  it('answers 404 for an unknown commit or target branch, and 400 without a branch', async () => {
    const { id } = await fixture()
    const noCommit = await pick(alice.api, id, '0123456789abcdef0123456789abcdef01234567', { branch: 'stable' })
    expect([noCommit.status, noCommit.body]).toEqual([404, { message: '404 Commit Not Found' }])
    const noBranch = await pick(alice.api, id, PICK, { branch: 'nowhere' })
    expect([noBranch.status, noBranch.body]).toEqual([404, { message: '404 Branch Not Found' }])
    const missing = await pick(alice.api, id, PICK, {})
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "branch" not given' }])
  })

  it('answers 403 to a Reporter and 401 without credentials', async () => {
    const { id } = await fixture()
    const reporter = await pick(rita.api, id, PICK, { branch: 'stable' })
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const anonymous = await pick(api(server), id, PICK, { branch: 'stable' })
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect(await branchHead(alice.api, id, 'stable')).toBe(STABLE)
  })
})
