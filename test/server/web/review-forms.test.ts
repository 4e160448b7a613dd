// The create, edit and review forms over HTTP: every one refuses a post without the session's CSRF token (and writes
// nothing), anonymous viewers are sent to sign in, and who may do what follows GitLab's permissions (through the same
// services as the API): outsiders create issues without metadata and edit nobody's, guests edit their own, reporters
// edit anyone's but neither open merge requests nor approve, drafts stay their author's.
import { beforeAll, describe, expect, it } from 'vitest'
import { createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { formToken, signIn } from './fixture.js'
import { useMrFixture } from './mr-fixture.js'

const { s, get, post } = useMrFixture()
const demo = '/alice/demo'
let carol: TestUser
let dave: TestUser
let carolCookie: string
let daveCookie: string
let thread: any

const tokenOf = async (path: string, cookie: string) => formToken((await get(path, cookie)).text)
const issues = async () => (await s.f.alice.api.get(`/projects/${s.f.pub.id}/issues`, { query: { per_page: 100 } })).body as any[]
const apiIssue = async (iid: number) => (await s.f.alice.api.get(`/projects/${s.f.pub.id}/issues/${iid}`)).body

beforeAll(async () => {
  carol = await createUser(s.f.server, 'carol')
  dave = await createUser(s.f.server, 'dave')
  for (const [u, level] of [[carol, 10], [dave, 20]] as const) {
    expectStatus(await s.f.alice.api.post(`/projects/${s.f.pub.id}/members`, { user_id: u.id, access_level: level }), 201)
  }
  carolCookie = await signIn(s.f.server, carol)
  daveCookie = await signIn(s.f.server, dave)
  thread = expectStatus(await s.f.alice.api.post(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/discussions`, { body: 'Thread' }), 201).body
})

describe('the create, edit and review forms', () => {
  it('refuse every post without the CSRF token, with a wrong one, or from nobody; nothing is written', async () => {
    const mr = `${demo}/-/merge_requests/${s.f.topic.iid}`
    const draft = expectStatus(await s.f.alice.api.post(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/draft_notes`, { note: 'Pending' }), 201).body
    const token = await tokenOf(mr, s.aliceCookie)
    const before = { issues: (await issues()).length, mrs: (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests`)).body.length }
    const paths = ['/projects', `${demo}/-/issues`, `${demo}/-/issues/1/edit`, `${demo}/-/issues/1/discussions/${thread.id}/reply`, `${demo}/-/merge_requests`, `${mr}/edit`, `${mr}/discussions`,
      `${mr}/discussions/${thread.id}/reply`, `${mr}/discussions/${thread.id}/resolve`, `${mr}/discussions/${thread.id}/unresolve`,
      `${mr}/draft_notes/bulk_publish`, `${mr}/draft_notes/${draft.id}/delete`, `${mr}/approve`, `${mr}/unapprove`]
    const fields = { name: 'x', title: 'x', note: 'x', source_branch: 'topic', target_branch: 'main', state_event: 'close' }
    for (const path of paths) {
      for (const [form, cookie] of [[{}, s.aliceCookie], [{ authenticity_token: 'wrong' }, s.aliceCookie], [{ authenticity_token: token }, undefined]] as const) {
        const res = await post(path, { ...fields, ...form }, cookie)
        expect([path, res.status, res.text.includes('The form has expired.')]).toEqual([path, 422, true])
      }
    }
    expect((await issues()).length).toBe(before.issues)
    expect((await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests`)).body.length).toBe(before.mrs)
    expect((await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/draft_notes`)).body.map((d: any) => d.id)).toEqual([draft.id])
    expect((await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/discussions/${thread.id}`)).body.notes.length).toBe(1)
    expect((await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/approvals`)).body.approved_by).toEqual([])
    expectStatus(await s.f.alice.api.del(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/draft_notes/${draft.id}`), 204)
  })

  it('send anonymous viewers to sign in', async () => {
    for (const path of ['/projects/new', `${demo}/-/issues/new`, `${demo}/-/merge_requests/new`, `${demo}/-/issues/1/edit`, `${demo}/-/merge_requests/${s.f.topic.iid}/edit`]) {
      const res = await get(path)
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 303, `${s.f.server.url}/users/sign_in`])
    }
  })

  it('preview without writing, and let an outsider create an issue without labels but edit nobody\'s', async () => {
    const token = await tokenOf(`${demo}/-/issues/new`, s.bobCookie)
    const form = await get(`${demo}/-/issues/new`, s.bobCookie)
    expect([form.status, form.text.includes('id="issuable-labels"')]).toEqual([200, false])
    const count = (await issues()).length
    const preview = await post(`${demo}/-/issues`, { authenticity_token: token, title: 'From bob', description: '**bold** <b>x</b>', preview: '1' }, s.bobCookie)
    expect([preview.status, preview.text.includes('<strong>bold</strong> &lt;b&gt;x&lt;/b&gt;'), (await issues()).length]).toEqual([200, true, count])
    const blank = await post(`${demo}/-/issues`, { authenticity_token: token, title: ' ' }, s.bobCookie)
    expect([blank.status, blank.text.includes('title can&#39;t be blank')]).toEqual([422, true])
    const made = await post(`${demo}/-/issues`, { authenticity_token: token, title: 'From bob', labels: 'bug' }, s.bobCookie)
    const created = (await issues()).find((i) => i.title === 'From bob')
    expect([made.status, made.headers.get('location'), created.labels]).toEqual([303, `${s.f.server.url}${demo}/-/issues/${created.iid}`, []])
    expect((await get(`${demo}/-/issues/1/edit`, s.bobCookie)).status).toBe(404)
    expect((await post(`${demo}/-/issues/1/edit`, { authenticity_token: token, title: 'Taken over' }, s.bobCookie)).status).toBe(404)
    expect((await get(`${demo}/-/merge_requests/new`, s.bobCookie)).status).toBe(404)
    expect((await apiIssue(1)).title).not.toBe('Taken over')
  })

  it('let guests edit only their own issues, and reporters anyone\'s labels, but not open merge requests or approve', async () => {
    const carolToken = await tokenOf(`${demo}/-/issues/new`, carolCookie)
    expect((await post(`${demo}/-/issues/1/edit`, { authenticity_token: carolToken, title: 'Guest edit' }, carolCookie)).status).toBe(404)
    expect((await post(`${demo}/-/issues`, { authenticity_token: carolToken, title: 'Carol\'s' }, carolCookie)).status).toBe(303)
    const own = (await issues()).find((i) => i.title === 'Carol\'s')
    const edited = await post(`${demo}/-/issues/${own.iid}/edit`, { authenticity_token: carolToken, title: 'Carol\'s, edited', description: 'Now\r\nwith two lines' }, carolCookie)
    expect(edited.status).toBe(303)
    expect([(await apiIssue(own.iid)).title, (await apiIssue(own.iid)).description]).toEqual(['Carol\'s, edited', 'Now\nwith two lines'])
    const daveToken = await tokenOf(`${demo}/-/issues/1/edit`, daveCookie)
    const before = await apiIssue(1)
    expect((await post(`${demo}/-/issues/1/edit`, { authenticity_token: daveToken, title: before.title, description: before.description, labels: 'triaged', milestone_id: '0' }, daveCookie)).status).toBe(303)
    expect((await apiIssue(1)).labels).toEqual(['triaged'])
    expect((await get(`${demo}/-/merge_requests/new`, daveCookie)).status).toBe(404)
    expect((await post(`${demo}/-/merge_requests/${s.f.topic.iid}/approve`, { authenticity_token: daveToken }, daveCookie)).status).toBe(404)
    expect((await get(`${demo}/-/merge_requests/${s.f.topic.iid}`, daveCookie)).text).not.toContain('id="approve-button"')
  })

  it('start a thread on an issue and reply in it, or in an individual comment, which becomes a thread', async () => {
    const issue = `${demo}/-/issues/2`
    const token = await tokenOf(issue, s.aliceCookie)
    expect((await post(`${issue}/notes`, { authenticity_token: token, 'note[note]': 'A thread', thread: '1' }, s.aliceCookie)).status).toBe(303)
    expect((await post(`${issue}/notes`, { authenticity_token: token, 'note[note]': 'A comment' }, s.aliceCookie)).status).toBe(303)
    const path = `/projects/${s.f.pub.id}/issues/2/discussions`
    const [first, second] = (await s.f.alice.api.get(path)).body.filter((d: any) => !d.notes[0].system)
    expect([first.individual_note, second.individual_note]).toEqual([false, true])
    const bobToken = await tokenOf(issue, s.bobCookie)
    for (const d of [first, second]) {
      const res = await post(`${issue}/discussions/${d.id}/reply`, { authenticity_token: bobToken, note: `Reply to ${d.notes[0].body}` }, s.bobCookie)
      expect(res.headers.get('location')).toBe(`${s.f.server.url}${issue}#discussion_${d.id}`)
    }
    const after = (await s.f.alice.api.get(path)).body.filter((d: any) => !d.notes[0].system)
    expect(after.map((d: any) => d.notes.map((n: any) => [n.type, n.author.username, n.body]))).toEqual([
      [['DiscussionNote', 'alice', 'A thread'], ['DiscussionNote', 'bob', 'Reply to A thread']],
      [['DiscussionNote', 'alice', 'A comment'], ['DiscussionNote', 'bob', 'Reply to A comment']],
    ])
    expect((await get(issue)).text).toContain(`id="discussion_${first.id}"`)
  })

  it('edit a merge request, approve and revoke the approval, and show a refused new project again with its error', async () => {
    const mr = `${demo}/-/merge_requests/${s.f.hostile.iid}`
    const page = (await get(`${mr}/edit`, s.aliceCookie)).text
    const token = formToken(page)
    expect(page).toContain('<option value="main" selected>main</option>')
    const edited = await post(`${mr}/edit`, { authenticity_token: token, title: 'Renamed', description: 'New words', labels: 'bug, review', assignees: 'bob', milestone_id: '0', target_branch: 'feature/nested' }, s.aliceCookie)
    expect([edited.status, edited.headers.get('location')]).toEqual([303, `${s.f.server.url}${mr}`])
    const got = (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.hostile.iid}`)).body
    expect([got.title, got.description, got.labels, got.target_branch]).toEqual(['Renamed', 'New words', ['bug', 'review'], 'feature/nested'])
    expect((await get(`${mr}/edit`, s.bobCookie)).status).toBe(404)
    expect((await post(`${mr}/approve`, { authenticity_token: token }, s.aliceCookie)).headers.get('location')).toBe(`${s.f.server.url}${mr}#approvals`)
    expect((await get(mr, s.aliceCookie)).text).toContain('id="unapprove-button"')
    expect((await post(`${mr}/unapprove`, { authenticity_token: token }, s.aliceCookie)).status).toBe(303)
    expect((await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.hostile.iid}/approvals`)).body.approved_by).toEqual([])
    const taken = await post('/projects', { authenticity_token: token, name: 'demo', visibility: 'public' }, s.aliceCookie)
    expect([taken.status, taken.text.includes('id="form-error"'), taken.text.includes('value="demo"')]).toEqual([422, true, true])
  })

  it('keep a reviewer\'s drafts to them until they submit; a diff line form posts a draft, or a comment now', async () => {
    const diffs = `${demo}/-/merge_requests/${s.f.topic.iid}/diffs`
    const page = (await get(`${diffs}?line=0--1`, s.bobCookie)).text
    const token = formToken(page)
    const hidden = Object.fromEntries([...page.matchAll(/name="(position\[\w+\])" value="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    expect(hidden['position[new_path]']).toBe('topic.txt')
    const drafted = await post(`${demo}/-/merge_requests/${s.f.topic.iid}/discussions`, { authenticity_token: token, ...hidden, note: 'Bob drafts', review: '1', return_to: 'diffs' }, s.bobCookie)
    expect(drafted.headers.get('location')).toMatch(new RegExp(`${diffs}#draft_\\d+$`))
    expect((await get(diffs, s.bobCookie)).text).toContain('Bob drafts')
    expect((await get(diffs, s.aliceCookie)).text).not.toContain('Bob drafts')
    const now = await post(`${demo}/-/merge_requests/${s.f.topic.iid}/discussions`, { authenticity_token: token, ...hidden, note: 'Bob says now', return_to: 'parallel' }, s.bobCookie)
    expect(now.headers.get('location')).toMatch(new RegExp(`${diffs}\\?view=parallel#discussion_[0-9a-f]{40}$`))
    expect((await get(diffs, s.aliceCookie)).text).toContain('Bob says now')
    const overview = await post(`${demo}/-/merge_requests/${s.f.topic.iid}/discussions`, { authenticity_token: token, 'note[note]': 'Bob sums up', review: '1' }, s.bobCookie)
    expect(overview.headers.get('location')).toMatch(new RegExp(`/merge_requests/${s.f.topic.iid}#draft_\\d+$`))
    expect((await get(`${demo}/-/merge_requests/${s.f.topic.iid}`, s.bobCookie)).text).toContain('id="comment-review-button"')
    expect((await post(`${demo}/-/merge_requests/${s.f.topic.iid}/draft_notes/bulk_publish`, { authenticity_token: token, return_to: 'diffs' }, s.bobCookie)).status).toBe(303)
    const bodies = (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.topic.iid}/discussions`)).body.map((d: any) => [d.notes[0].type, d.notes[0].body])
    expect(bodies).toEqual(expect.arrayContaining([['DiffNote', 'Bob drafts'], ['DiffNote', 'Bob says now'], ['DiscussionNote', 'Bob sums up']]))
  })
})
