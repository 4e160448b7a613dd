// The merge request pages over a real server: the list with its filters, the overview, commits and changes tabs,
// escaping of hostile titles, branches, descriptions and file names, 404s for outsiders, and the forms.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { HOSTILE_BRANCH, HOSTILE_FILE } from './fixture.js'
import { HOSTILE_CHANGED, useMrFixture } from './mr-fixture.js'

const { s, get } = useMrFixture()
const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
const mrUrl = (iid: number, rest = '') => `/alice/demo/-/merge_requests/${iid}${rest}`

function expectNoInjection(html: string) {
  expect(html).not.toMatch(/<script/i)
  expect(html).not.toMatch(/<img src=x/i)
  expect(html).not.toMatch(/<svg/i)
  expect(html).not.toMatch(/href="javascript:/i)
  expect(html).not.toContain('<b>')
  expect(html).not.toContain('<i>')
}

describe('merge request pages', () => {
  it('answers every page with HTML, the strict CSP and no injected markup, signed in or not', async () => {
    const paths = ['/alice/demo/-/merge_requests', '/alice/demo/-/merge_requests?state=all', mrUrl(s.f.hostile.iid), mrUrl(s.f.hostile.iid, '/commits'),
      mrUrl(s.f.hostile.iid, '/diffs'), mrUrl(s.f.hostile.iid, '/diffs?view=parallel'), mrUrl(s.f.draft.iid), mrUrl(s.f.clash.iid)]
    for (const path of paths) {
      for (const cookie of [undefined, s.aliceCookie, s.bobCookie]) {
        const res = await get(path, cookie)
        expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8'])
        expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
        expectNoInjection(res.text)
      }
    }
  })

  it('lists open merge requests with the draft marker, branches and labels escaped, newest first', async () => {
    const { text } = await get('/alice/demo/-/merge_requests')
    const titles = [...text.matchAll(/<a href="[^"]*\/-\/merge_requests\/(\d+)"><strong>([^<]*)<\/strong>/g)].map((m) => [Number(m[1]), m[2]])
    expect(titles).toEqual([[4, 'Clashing change'], [3, 'Add topic'], [2, 'Draft: nested work'], [1, esc(s.f.hostile.title)]])
    expect(text).toContain('<span class="label draft">Draft</span><a href="' + s.f.server.url + '/alice/demo/-/merge_requests/2">')
    expect(text).toContain(`!1 by @alice · ${esc(HOSTILE_BRANCH)} → main</span> <span class="label">&lt;i&gt;ui&lt;/i&gt;</span><span class="label">bug</span>`)
    expect(text).toContain('<a href="' + s.f.server.url + '/alice/demo/-/merge_requests" class="badge">Merge requests</a>')
  })

  it('filters by state, label, author, assignee, milestone and search, and pages by 20', async () => {
    const iids = async (q: string) => [...(await get(`/alice/demo/-/merge_requests${q}`)).text.matchAll(/\/-\/merge_requests\/(\d+)"><strong>/g)].map((m) => Number(m[1]))
    expect(await iids('?label_name=bug')).toEqual([1])
    expect(await iids('?label_name=%3Ci%3Eui%3C%2Fi%3E,bug')).toEqual([1])
    expect(await iids('?search=topic')).toEqual([3])
    expect(await iids('?assignee_username=alice')).toEqual([1])
    expect(await iids('?assignee_username=nobody-here')).toEqual([])
    expect(await iids('?author_username=bob')).toEqual([])
    expect(await iids('?author_username=alice&search=nested')).toEqual([2])
    expect(await iids('?milestone_title=none-such')).toEqual([])
    expect(await iids('?state=merged')).toEqual([])
    expect(await iids('?state=closed')).toEqual([])
    expect((await get('/alice/demo/-/merge_requests?search=zzz')).text).toContain('No merge requests match.')
  })

  it('shows the overview: escaped title and branches, rendered description, people, labels, status in words, notes', async () => {
    const { text } = await get(mrUrl(s.f.hostile.iid))
    expect(text).toContain(`<h1 id="mr-title">${esc(s.f.hostile.title)}</h1>`)
    expect(text).toContain(`<code id="mr-source">${esc(HOSTILE_BRANCH)}</code> → <code id="mr-target">main</code>`)
    expect(text).toContain('Hello &lt;script&gt;window.__xss=1&lt;/script&gt;')
    expect(text).toContain(`<a href="${s.f.server.url}/alice/demo/-/issues/1" class="gfm-reference">#1</a>`)
    expect(text).toContain('<input type="checkbox" class="task-list-item-checkbox" disabled>')
    expect(text).toContain('<td>&lt;b&gt;1&lt;/b&gt;</td>')
    expect(text).toContain(`<span id="mr-assignees"><a href="${s.f.server.url}/alice">@alice</a> </span>`)
    expect(text).toContain(`<span id="mr-reviewers"><a href="${s.f.server.url}/alice">@alice</a> </span>`)
    expect(text).toContain('<span id="labels"><span class="label">&lt;i&gt;ui&lt;/i&gt;</span><span class="label">bug</span></span>')
    expect(text).toContain('<span id="mr-milestone">None</span>')
    expect(text).toContain('<p id="merge-status">Ready to merge.</p>')
    expect((await get(mrUrl(s.f.draft.iid))).text).toContain('<p id="merge-status">Merge blocked: the merge request is a draft. Mark it as ready to merge.</p>')
    expect((await get(mrUrl(s.f.draft.iid))).text).toContain('<span class="label draft">Draft</span>')
    expect((await get(mrUrl(s.f.clash.iid))).text).toContain('<p id="merge-status">Merge blocked: the source branch has conflicts with the target branch.</p>')
  })

  it('lists the merge request\'s commits, each linking to its commit page', async () => {
    const { text } = await get(mrUrl(s.f.hostile.iid, '/commits'))
    const commits = (await s.f.alice.api.get(`/projects/${s.f.pub.id}/merge_requests/${s.f.hostile.iid}/commits`)).body
    expect(commits).toHaveLength(1)
    expect(text).toContain(`<ul class="list" id="mr-commits"><li><a href="${s.f.server.url}/alice/demo/-/commit/${commits[0].id}"><strong>${esc(commits[0].title)}</strong></a>`)
    expect(text).toContain('<a href="' + s.f.server.url + mrUrl(s.f.hostile.iid, '/commits') + '" id="tab-commits" class="badge">Commits</a>')
  })

  it('shows the changes with a file list, unified and split, hostile names and lines as text', async () => {
    const { text } = await get(mrUrl(s.f.hostile.iid, '/diffs'))
    expect(text).toContain('<p>2 changed files</p>')
    const files = [...text.matchAll(/<li><a href="#diff-(\d)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]])
    expect(files).toEqual([['0', esc(HOSTILE_CHANGED)], ['1', esc(HOSTILE_FILE)]])
    expect(text).toContain('<tr class="diff-add"><td class="ln"></td><td class="ln">1</td><td><pre>+new &lt;b&gt;file&lt;/b&gt;</pre></td></tr>')
    expect(text).toContain('<tr class="diff-del"><td class="ln">1</td><td class="ln"></td><td><pre>-hostile name</pre></td></tr>')
    const split = (await get(mrUrl(s.f.hostile.iid, '/diffs?view=parallel'))).text
    expect(split).toContain('<table class="diff diff-parallel">')
    expect(split).toContain('<tr><td class="ln">1</td><td class="diff-del"><pre>hostile name</pre></td><td class="ln"></td><td class="diff-empty"></td></tr>')
    expect(split).toContain('<tr><td class="ln"></td><td class="diff-empty"></td><td class="ln">1</td><td class="diff-add"><pre>hostile name, changed</pre></td></tr>')
  })

  it('answers 404 for the private project\'s merge requests to outsiders, and unknown iids or tabs to anyone', async () => {
    const secret = `/alice/secret/-/merge_requests/${s.f.secret.iid}`
    for (const path of ['/alice/secret/-/merge_requests', secret, `${secret}/diffs`, `${secret}/commits`]) {
      for (const cookie of [undefined, s.bobCookie]) {
        const res = await get(path, cookie)
        expect([path, res.status]).toEqual([path, 404])
        expect(res.text).toContain('404: Page not found')
        expect(res.text).not.toContain('Secret change')
      }
      expect((await get(path, s.aliceCookie)).status).toBe(200)
    }
    for (const path of [mrUrl(999), mrUrl(1, '/nope'), '/alice/demo/-/merge_requests/x']) expect([path, (await get(path, s.aliceCookie)).status]).toEqual([path, 404])
  })

  it('shows the merge form only to whoever may merge, and the head pipeline when there is one', async () => {
    const alice = (await get(mrUrl(s.f.topic.iid), s.aliceCookie)).text
    expect(alice).toContain(`<input type="hidden" name="sha" value="${s.f.topic.sha}">`)
    expect(alice).toContain('id="merge-button"')
    expect(alice).toContain('<input type="checkbox" name="should_remove_source_branch" value="1" id="remove-source-branch">')
    for (const cookie of [s.bobCookie, undefined]) expect((await get(mrUrl(s.f.topic.iid), cookie)).text).not.toContain('merge-form')
    expect(alice).not.toContain('id="mr-pipeline"')
  })

  it('pages the list by 20, keeping the filters in the links', async () => {
    for (let i = 0; i < 18; i++) {
      expectStatus(await s.f.alice.api.post(`/projects/${s.f.pub.id}/repository/branches`, { branch: `filler-${i}`, ref: 'topic' }), 201)
      expectStatus(await s.f.alice.api.post(`/projects/${s.f.pub.id}/merge_requests`, { source_branch: `filler-${i}`, target_branch: 'main', title: `Filler ${i}` }), 201)
    }
    const iids = (text: string) => [...text.matchAll(/\/-\/merge_requests\/(\d+)"><strong>/g)].map((m) => Number(m[1]))
    const first = await get('/alice/demo/-/merge_requests?label_name=&search=')
    expect(iids(first.text)).toEqual(Array.from({ length: 20 }, (_, i) => 22 - i))
    expect(first.text).toContain(`<nav class="pager"><span>Page 1 of 2</span><a href="${s.f.server.url}/alice/demo/-/merge_requests?state=opened&amp;page=2" rel="next">Next</a></nav>`)
    expect(iids((await get('/alice/demo/-/merge_requests?page=2')).text)).toEqual([2, 1])
    const filtered = await get('/alice/demo/-/merge_requests?search=Filler&author_username=alice')
    expect(iids(filtered.text)).toHaveLength(18)
    expect(filtered.text).not.toContain('class="pager"')
  })

  it('links the head pipeline with its status, for viewers who may read pipelines', async () => {
    const as = s.f.alice.api
    expectStatus(await as.post(`/projects/${s.f.pub.id}/repository/commits`, {
      branch: 'ci-branch', start_branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'job:\n  script: [echo hi]\n' }],
    }), 201)
    const mr = expectStatus(await as.post(`/projects/${s.f.pub.id}/merge_requests`, { source_branch: 'ci-branch', target_branch: 'main', title: 'With CI' }), 201).body
    await s.f.server.app.tasks.idle()
    const head = (await as.get(`/projects/${s.f.pub.id}/merge_requests/${mr.iid}`)).body.head_pipeline
    expect(head).toMatchObject({ ref: 'ci-branch', status: 'pending' })
    for (const cookie of [undefined, s.aliceCookie]) {
      expect((await get(mrUrl(mr.iid), cookie)).text).toContain(`<p id="mr-pipeline">Pipeline <a href="${s.f.server.url}/alice/demo/-/pipelines/${head.id}">#${head.id}</a> <span class="ci-status ci-pending">pending</span>`)
    }
  })

  it('answers 404 and drops the tab when the project has merge requests turned off', async () => {
    expectStatus(await s.f.alice.api.put(`/projects/${s.f.priv.id}`, { merge_requests_enabled: false }), 200)
    for (const path of ['/alice/secret/-/merge_requests', `/alice/secret/-/merge_requests/${s.f.secret.iid}`]) {
      expect([path, (await get(path, s.aliceCookie)).status]).toEqual([path, 404])
    }
    expect((await get('/alice/secret', s.aliceCookie)).text).not.toContain('Merge requests')
  })
})
