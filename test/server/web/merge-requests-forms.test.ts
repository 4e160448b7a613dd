// The merge request page's forms over a real server: CSRF refusals change nothing; comment, close and reopen go
// through the API's services; the merge form merges with its options, and its refusals (a push since the page was
// loaded, a draft, a conflict, a viewer who may not merge) show on the page and merge nothing.
import { describe, expect, it } from 'vitest'
import { branchHead, commit, create } from '../../helpers/repository.js'
import { formToken } from './fixture.js'
import { useMrFixture } from './mr-fixture.js'

const { s, get, post } = useMrFixture()
const mrUrl = (iid: number, rest = '') => `/alice/demo/-/merge_requests/${iid}${rest}`
const apiMr = async (iid: number) => (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${iid}`)).body
const notes = async (iid: number) => (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${iid}/notes`)).body as any[]
const formOf = async (iid: number, cookie = s.aliceCookie) => {
  const text = (await get(mrUrl(iid), cookie)).text
  return { text, token: formToken(text), sha: /name="sha" value="([0-9a-f]*)"/.exec(text)?.[1] }
}

describe('merge request forms', () => {
  it('refuses every form without the CSRF token, with a wrong one, or from nobody; nothing changes', async () => {
    const { token, sha } = await formOf(s.f.topic.iid)
    const before = await notes(s.f.topic.iid)
    for (const action of ['notes', 'close', 'merge']) {
      for (const [form, cookie] of [[{}, s.aliceCookie], [{ authenticity_token: 'wrong' }, s.aliceCookie], [{ authenticity_token: token }, undefined],
        [{ authenticity_token: token }, s.bobCookie]] as const) {
        const res = await post(mrUrl(s.f.topic.iid, `/${action}`), { ...form, 'note[note]': 'x', sha: sha! }, cookie)
        expect([action, res.status]).toEqual([action, 422])
        expect(res.text).toContain('The form has expired.')
      }
    }
    expect(await notes(s.f.topic.iid)).toEqual(before)
    expect((await apiMr(s.f.topic.iid)).state).toBe('opened')
  })

  it('comments (rendered, hostile markup as text), closes and reopens, redirecting back', async () => {
    const { token } = await formOf(s.f.hostile.iid)
    const res = await post(mrUrl(s.f.hostile.iid, '/notes'), { 'note[note]': 'LGTM **now** <img src=x onerror="window.__xss=1">', authenticity_token: token }, s.aliceCookie)
    expect([res.status, res.headers.get('location')]).toEqual([303, `${s.f.server.url}${mrUrl(s.f.hostile.iid)}`])
    expect((await notes(s.f.hostile.iid))[0].body).toBe('LGTM **now** <img src=x onerror="window.__xss=1">')
    expect((await get(mrUrl(s.f.hostile.iid))).text).toContain('<p>LGTM <strong>now</strong> &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;</p>')
    expect((await post(mrUrl(s.f.hostile.iid, '/close'), { authenticity_token: token }, s.aliceCookie)).status).toBe(303)
    expect((await apiMr(s.f.hostile.iid)).state).toBe('closed')
    const closed = (await get(mrUrl(s.f.hostile.iid), s.aliceCookie)).text
    expect(closed).toContain('<span class="badge state-closed" id="mr-state">Closed</span>')
    expect(closed).toContain('<p id="merge-status">Closed: nothing will be merged.</p>')
    expect(closed).toContain('id="reopen-button">Reopen merge request</button>')
    expect(closed).toMatch(/<div class="note system" id="note_\d+">@alice closed/)
    expect((await post(mrUrl(s.f.hostile.iid, '/reopen'), { authenticity_token: token }, s.aliceCookie)).status).toBe(303)
    expect((await apiMr(s.f.hostile.iid)).state).toBe('opened')
  })

  it('lets a signed-in outsider comment on a public project but not close or merge (as the API refuses them)', async () => {
    const { token } = await formOf(s.f.topic.iid, s.bobCookie)
    expect((await post(mrUrl(s.f.topic.iid, '/notes'), { 'note[note]': 'from bob', authenticity_token: token }, s.bobCookie)).status).toBe(303)
    expect((await post(mrUrl(s.f.topic.iid, '/close'), { authenticity_token: token }, s.bobCookie)).status).toBe(404)
    const merge = await post(mrUrl(s.f.topic.iid, '/merge'), { authenticity_token: token, sha: s.f.topic.sha }, s.bobCookie)
    expect([merge.status, merge.headers.get('location')]).toEqual([303, `${s.f.server.url}${mrUrl(s.f.topic.iid)}?merge_error=unauthorized`])
    expect((await apiMr(s.f.topic.iid)).state).toBe('opened')
  })

  it('shows a draft\'s and a conflict\'s refusal on the page; nothing is merged', async () => {
    for (const [mr, key, words] of [[s.f.draft, 'not_allowed', 'This merge request cannot be merged now'],
      [s.f.clash, 'cannot_merge', 'The merge failed: the branches conflict']] as const) {
      const { token, sha } = await formOf(mr.iid)
      const res = await post(mrUrl(mr.iid, '/merge'), { authenticity_token: token, sha: sha! }, s.aliceCookie)
      expect(res.headers.get('location')).toBe(`${s.f.server.url}${mrUrl(mr.iid)}?merge_error=${key}`)
      expect((await get(res.headers.get('location')!.slice(s.f.server.url.length), s.aliceCookie)).text).toContain(`<p class="flash" id="merge-error">${words}`)
      expect((await apiMr(mr.iid)).state).toBe('opened')
    }
    // An unknown key shows nothing: the page never echoes the query.
    for (const key of ['%3Cb%3Ex', 'constructor', '__proto__']) {
      expect((await get(`${mrUrl(s.f.draft.iid)}?merge_error=${key}`, s.aliceCookie)).text).not.toContain('merge-error')
    }
  })

  it('refuses to merge commits pushed after the page was loaded', async () => {
    const { token, sha } = await formOf(s.f.topic.iid)
    await commit(s.f.alice.api, s.f.pub.id, { branch: 'topic', commit_message: 'Unseen', actions: [create('unseen.txt', 'unseen\n')] })
    const res = await post(mrUrl(s.f.topic.iid, '/merge'), { authenticity_token: token, sha: sha!, should_remove_source_branch: '1' }, s.aliceCookie)
    expect(res.headers.get('location')).toBe(`${s.f.server.url}${mrUrl(s.f.topic.iid)}?merge_error=sha_mismatch`)
    expect((await get(res.headers.get('location')!.slice(s.f.server.url.length), s.aliceCookie)).text).toContain(
      '<p class="flash" id="merge-error">The source branch changed since this page was loaded. Review the new commits, then merge again.</p>')
    expect((await apiMr(s.f.topic.iid)).state).toBe('opened')
    expect(await branchHead(s.f.alice.api, s.f.pub.id, 'topic')).not.toBeNull()
  })

  it('merges with squash, a message and source branch deletion through the merge service', async () => {
    const { token, sha } = await formOf(s.f.topic.iid)
    expect(sha).toBe((await apiMr(s.f.topic.iid)).sha)
    const res = await post(mrUrl(s.f.topic.iid, '/merge'), {
      authenticity_token: token, sha: sha!, squash: '1', should_remove_source_branch: '1', merge_commit_message: 'Merge topic from the web',
    }, s.aliceCookie)
    expect([res.status, res.headers.get('location')]).toEqual([303, `${s.f.server.url}${mrUrl(s.f.topic.iid)}`])
    const merged = await apiMr(s.f.topic.iid)
    expect([merged.state, merged.squash, merged.merged_by.username, merged.should_remove_source_branch]).toEqual(['merged', true, 'alice', true])
    expect(await branchHead(s.f.alice.api, s.f.pub.id, 'topic')).toBeNull()
    const main = (await s.f.alice.api.get(`/projects/${s.f.pub.id}/repository/commits/main`)).body
    expect([main.id, main.message, main.parent_ids[1]]).toEqual([merged.merge_commit_sha, 'Merge topic from the web\n', merged.squash_commit_sha])
    const page = (await get(mrUrl(s.f.topic.iid), s.aliceCookie)).text
    expect(page).toContain('<span class="badge state-merged" id="mr-state">Merged</span>')
    expect(page).toContain(`<a href="${s.f.server.url}/alice/demo/-/commit/${merged.merge_commit_sha}" id="merge-commit">`)
    expect(page).not.toContain('merge-form')
    expect(page).not.toContain('close-form')
  })
})
