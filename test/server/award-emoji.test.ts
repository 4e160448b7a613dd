// Award emoji on issues and on issue and merge request notes: list, read, award, take back; the issue's votes follow;
// private projects, confidential issues and locked discussions answer as GitLab does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AwardEmoji } from '../../src/contract/entities/issues.js'
import { NoteAwardEmoji } from '../../src/contract/entities/snippets.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../helpers/api.js'
import { createIssue, issuePath, userBasic } from '../helpers/issues.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './merge-requests/fixtures.js'

const NOW = '2024-01-02T03:04:05.000Z'
const TAKEN = { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' }
const UNKNOWN = { message: '404 Award Emoji {:name=>["is not a valid emoji name"]} Not Found' }
const NO_AWARD = { message: '404 Award Emoji Not Found' }
let server: TestServer
let root: Api
let alice: TestUser
let bob: TestUser
let carol: TestUser
let project: any
let issue: any

const awardOf = (id: number, name: string, u: TestUser, awardable_id: number, awardable_type: string) =>
  ({ id, name, user: userBasic(server, u), created_at: NOW, updated_at: NOW, awardable_id, awardable_type, url: null })
const issueAwards = (rest = '', iid = issue.iid) => issuePath(project.id, iid, `/award_emoji${rest}`)
const votesOf = async (iid: number) => {
  const single = (await alice.api.get(issuePath(project.id, iid))).body
  const listed = (await alice.api.get(`/projects/${project.id}/issues`, { query: { iids: [iid] } })).body[0]
  return [single.upvotes, single.downvotes, listed.upvotes, listed.downvotes]
}
const note = async (as: Api, path: string, body = 'Award me') => expectStatus(await as.post(`${path}/notes`, { body }), 201).body

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(NOW) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  carol = await createUser(server, 'carol')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  issue = await createIssue(alice.api, project.id, { title: 'Vote on me' })
})
afterAll(() => server.close())

describe('award emoji on an issue', () => {
  it('awards, lists and reads with GitLab\'s AwardEmoji entity; upvotes and downvotes follow on the issue and in the list', async () => {
    expect(await votesOf(issue.iid)).toEqual([0, 0, 0, 0])
    const up = expectStatus(await bob.api.post(issueAwards(), { name: 'thumbsup' }), 201).body
    expect(AwardEmoji.strict().parse(up)).toEqual(awardOf(up.id, 'thumbsup', bob, issue.id, 'Issue'))
    const down = expectStatus(await carol.api.post(issueAwards(), { name: '-1' }), 201).body
    expect(down).toEqual(awardOf(down.id, 'thumbsdown', carol, issue.id, 'Issue'))
    expect(await votesOf(issue.iid)).toEqual([1, 1, 1, 1])
    expect((await alice.api.get(issueAwards())).body).toEqual([up, down])
    expect((await alice.api.get(issueAwards(`/${up.id}`))).body).toEqual(up)

    expect((await bob.api.del(issueAwards(`/${up.id}`))).status).toBe(204)
    expect(await votesOf(issue.iid)).toEqual([0, 1, 0, 1])
    expect((await root.del(issueAwards(`/${down.id}`))).status).toBe(204)
    expect(await votesOf(issue.iid)).toEqual([0, 0, 0, 0])
    expect((await alice.api.get(issueAwards())).body).toEqual([])
    expect((await alice.api.get(issueAwards(`/${up.id}`))).body).toEqual(NO_AWARD)
  })

  it('pages the list with GitLab\'s headers', async () => {
    const i = await createIssue(alice.api, project.id, { title: 'Paged' })
    for (const name of ['tada', 'rocket', 'eyes']) expectStatus(await bob.api.post(issueAwards('', i.iid), { name }), 201)
    // Any gemoji name, as python-gitlab's functional tests award them, and GitLab's own picker names.
    for (const name of ['tractor', '8ball', 'slight_smile']) expectStatus(await bob.api.post(issueAwards('', i.iid), { name }), 201)
    const res = await alice.api.get(issueAwards('', i.iid), { query: { per_page: 2, page: 2 } })
    expect(res.body.map((a: any) => a.name)).toEqual(['eyes', 'tractor'])
    const headers = ['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => res.headers.get(h))
    expect(headers).toEqual(['2', '2', '3', '1', '6', '3'])
    expect(res.headers.get('link')).toContain('rel="prev"')
  })

  it('refuses a second of the same, an unknown name, a missing name, others\' removals and anonymous awards', async () => {
    const award = expectStatus(await bob.api.post(issueAwards(), { name: 'heart' }), 201).body
    const twice = await bob.api.post(issueAwards(), { name: 'heart' })
    expect([twice.status, twice.body]).toEqual([404, TAKEN])
    const unknown = await bob.api.post(issueAwards(), { name: 'not_an_emoji' })
    expect([unknown.status, unknown.body]).toEqual([404, UNKNOWN])
    const missing = await bob.api.post(issueAwards(), {})
    expect([missing.status, missing.body]).toEqual([400, { message: '400 (Bad request) "name" not given' }])
    const others = await alice.api.del(issueAwards(`/${award.id}`))
    expect([others.status, others.body]).toEqual([401, { message: '401 Unauthorized' }])
    expect((await api(server).post(issueAwards(), { name: 'smile' })).status).toBe(401)
    expect((await alice.api.get(issueAwards('/999999'))).body).toEqual(NO_AWARD)
    expect((await alice.api.get(issuePath(project.id, 999, '/award_emoji'))).body).toEqual({ message: '404 Issue Not Found' })
    expect((await alice.api.get(issueAwards())).body).toEqual([award])
    expect((await bob.api.del(issueAwards(`/${award.id}`))).status).toBe(204)
  })
})

describe('award emoji on notes', () => {
  it('awards an issue note (awardable_type Note) apart from the issue\'s own awards and votes', async () => {
    const n = await note(alice.api, issuePath(project.id, issue.iid))
    const on = (rest = '') => issuePath(project.id, issue.iid, `/notes/${n.id}/award_emoji${rest}`)
    const award = expectStatus(await bob.api.post(on(), { name: '+1' }), 201).body
    expect(NoteAwardEmoji.strict().parse(award)).toEqual(awardOf(award.id, 'thumbsup', bob, n.id, 'Note'))
    expect([(await bob.api.post(on(), { name: 'thumbsup' })).body, (await bob.api.post(on(), { name: 'nope' })).body]).toEqual([TAKEN, UNKNOWN])
    expect((await alice.api.get(on())).body).toEqual([award])
    expect((await alice.api.get(on(`/${award.id}`))).body).toEqual(award)
    expect((await alice.api.get(issueAwards())).body).toEqual([])
    expect(await votesOf(issue.iid)).toEqual([0, 0, 0, 0])
    expect((await alice.api.del(on(`/${award.id}`))).status).toBe(401)
    expect((await bob.api.del(on(`/${award.id}`))).status).toBe(204)
    expect((await alice.api.get(on())).body).toEqual([])
    expect((await alice.api.get(on(`/${award.id}`))).body).toEqual(NO_AWARD)
  })

  it('finds the note only on its own issue, and awards no system note', async () => {
    const other = await createIssue(alice.api, project.id, { title: 'Other' })
    const n = await note(alice.api, issuePath(project.id, other.iid))
    expect((await alice.api.get(issuePath(project.id, issue.iid, `/notes/${n.id}/award_emoji`))).body).toEqual({ message: '404 Note Not Found' })
    expect((await bob.api.post(issuePath(project.id, issue.iid, '/notes/999999/award_emoji'), { name: 'tada' })).body).toEqual({ message: '404 Note Not Found' })
    expectStatus(await alice.api.put(issuePath(project.id, other.iid), { title: 'Renamed' }), 200)
    const system = (await alice.api.get(issuePath(project.id, other.iid, '/notes'))).body.find((x: any) => x.system)
    const refused = await bob.api.post(issuePath(project.id, other.iid, `/notes/${system.id}/award_emoji`), { name: 'tada' })
    expect([refused.status, refused.body]).toEqual([404, { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' }])
  })

  it('awards a merge request note, reads, pages and takes it back', async () => {
    await seedMaster(alice.api, project.id)
    await branchWith(alice.api, project.id, 'feature', 'a.txt')
    const mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
    const n = await note(bob.api, mrPath(project.id, mr.iid))
    const on = (rest = '') => mrPath(project.id, mr.iid, `/notes/${n.id}/award_emoji${rest}`)
    const award = expectStatus(await alice.api.post(on(), { name: 'rocket' }), 201).body
    expect(NoteAwardEmoji.strict().parse(award)).toEqual(awardOf(award.id, 'rocket', alice, n.id, 'Note'))
    const second = expectStatus(await carol.api.post(on(), { name: 'rocket' }), 201).body
    const page = await bob.api.get(on(), { query: { per_page: 1 } })
    expect([page.body, page.headers.get('x-total'), page.headers.get('x-next-page')]).toEqual([[award], '2', '2'])
    expect((await bob.api.get(on(`/${second.id}`))).body).toEqual(second)
    expect((await bob.api.get(mrPath(project.id, mr.iid, '/award_emoji'))).body).toEqual([])
    expect((await bob.api.del(on(`/${second.id}`))).status).toBe(401)
    expect((await carol.api.del(on(`/${second.id}`))).status).toBe(204)
    expect((await bob.api.get(on())).body).toEqual([award])
    expect((await bob.api.get(mrPath(project.id, 999, `/notes/${n.id}/award_emoji`))).body).toEqual({ message: '404 Merge Request Not Found' })
  })
})

describe('who may see and award', () => {
  it('hides a private project\'s issues, notes and awards from outsiders (404)', async () => {
    const secret = await createProject(alice.api, { name: 'secret', visibility: 'private' })
    const i = await createIssue(alice.api, secret.id, { title: 'Hidden' })
    const n = await note(alice.api, issuePath(secret.id, i.iid))
    const award = expectStatus(await alice.api.post(issuePath(secret.id, i.iid, '/award_emoji'), { name: 'eyes' }), 201).body
    const gone = { message: '404 Project Not Found' }
    for (const path of [issuePath(secret.id, i.iid, '/award_emoji'), issuePath(secret.id, i.iid, `/award_emoji/${award.id}`), issuePath(secret.id, i.iid, `/notes/${n.id}/award_emoji`)]) {
      expect([(await carol.api.get(path)).status, (await carol.api.get(path)).body]).toEqual([404, gone])
    }
    expect((await carol.api.post(issuePath(secret.id, i.iid, '/award_emoji'), { name: 'eyes' })).body).toEqual(gone)
    expect((await carol.api.del(issuePath(secret.id, i.iid, `/award_emoji/${award.id}`))).body).toEqual(gone)
    expect((await alice.api.get(issuePath(secret.id, i.iid, '/award_emoji'))).body).toEqual([award])
  })

  it('hides a confidential issue\'s awards from those who may not read it (404), not from its project\'s developers', async () => {
    const i = await createIssue(alice.api, project.id, { title: 'Confidential', confidential: true })
    const n = await note(alice.api, issuePath(project.id, i.iid))
    const gone = { message: '404 Issue Not Found' }
    expect((await carol.api.get(issueAwards('', i.iid))).body).toEqual(gone)
    expect((await carol.api.post(issueAwards('', i.iid), { name: 'eyes' })).body).toEqual(gone)
    expect((await carol.api.post(issuePath(project.id, i.iid, `/notes/${n.id}/award_emoji`), { name: 'eyes' })).body).toEqual(gone)
    const award = expectStatus(await bob.api.post(issueAwards('', i.iid), { name: 'eyes' }), 201).body
    expect((await carol.api.get(issueAwards(`/${award.id}`, i.iid))).body).toEqual(gone)
    expect((await bob.api.get(issueAwards('', i.iid))).body).toEqual([award])
  })

  it('lets only project members award on a locked discussion; others get 404 Award Emoji Not Found', async () => {
    const i = await createIssue(alice.api, project.id, { title: 'Locked' })
    const n = await note(alice.api, issuePath(project.id, i.iid))
    expectStatus(await alice.api.put(issuePath(project.id, i.iid), { discussion_locked: true }), 200)
    const onNote = issuePath(project.id, i.iid, `/notes/${n.id}/award_emoji`)
    for (const path of [issueAwards('', i.iid), onNote]) {
      const refused = await carol.api.post(path, { name: 'thumbsup' })
      expect([refused.status, refused.body]).toEqual([404, NO_AWARD])
      expectStatus(await bob.api.post(path, { name: 'thumbsup' }), 201)
    }
    expect((await carol.api.get(onNote)).body.map((a: any) => a.user.username)).toEqual(['bob'])
    expect(await votesOf(i.iid)).toEqual([1, 0, 1, 0])
  })
})
