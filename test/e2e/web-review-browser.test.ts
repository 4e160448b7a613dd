// A real headless Chromium works in the pages rather than reading them: creates a project, an issue (with a preview,
// labels and confidentiality) and edits it, opens a merge request from a branch after seeing its commits and diff,
// comments on three lines of the split diff as a review and submits it at once, resolves a thread, approves and
// merges; the API agrees at each step. Screenshots go to .scratch/web-screenshots/. Skipped without chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { chromiumPath, expectNoScriptRan, openBrowserPage } from '../helpers/browser.js'
import { commit, create, update } from '../helpers/repository.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

const XSS = '<img src=x onerror="window.__xss=1">'

describe.skipIf(!chromiumPath)('creating and reviewing in a real browser', () => {
  let server: TestServer
  let alice: TestUser
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>
  let project: any
  const url = (path: string) => `${server.url}${path}`
  const click = (selector: string, to: RegExp) => Promise.all([page.waitForURL(to), page.click(selector)])

  beforeAll(async () => {
    server = await startTestServer()
    alice = await createUser(server, 'alice')
    ;({ close, page, dialogs, shot } = await openBrowserPage(900))
    await page.goto(url('/users/sign_in'))
    await page.fill('input[name="user[login]"]', 'alice')
    await page.fill('input[name="user[password]"]', alice.password)
    await Promise.all([page.waitForURL(url('/')), page.click('#sign-in button[type=submit]')])
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await server?.close()
  })

  it('creates a project from the home page', async () => {
    await click('#new-project', /\/projects\/new$/)
    await page.fill('#project-name', 'Review')
    await page.fill('#project-description', `Reviewed ${XSS}`)
    await page.check('input[name=visibility][value=public]')
    await click('#create-project', /\/alice\/review$/)
    project = expectStatus(await alice.api.get('/projects/alice%2Freview'), 200).body
    expect([project.name, project.visibility, project.description, project.empty_repo]).toEqual(['Review', 'public', `Reviewed ${XSS}`, false])
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('creates an issue with a previewed description, labels and confidentiality, then edits it', async () => {
    await page.goto(url('/alice/review/-/issues'))
    await click('#new-issue', /\/-\/issues\/new$/)
    await page.fill('#issuable-title', `Crash ${XSS}`)
    await page.fill('#issuable-description', `Steps:\n\n- **open** it\n- ${XSS}`)
    await page.fill('#issuable-labels', 'bug, ui')
    await page.check('#issuable-confidential')
    await click('#issuable-preview', /\/-\/issues$/)
    expect(await page.textContent('#description-preview strong')).toBe('open')
    expect(await page.inputValue('#issuable-title')).toBe(`Crash ${XSS}`)
    expect(await page.isChecked('#issuable-confidential')).toBe(true)
    await shot('issue-new-preview')
    await click('#issuable-submit', /\/-\/issues\/1$/)
    expect(await page.textContent('#issue-title')).toBe(`Crash ${XSS}`)
    const issue = (await alice.api.get(`/projects/${project.id}/issues/1`)).body
    expect([issue.labels, issue.confidential, issue.description]).toEqual([['bug', 'ui'], true, `Steps:\n\n- **open** it\n- ${XSS}`])
    await click('#edit-issue', /\/-\/issues\/1\/edit$/)
    await page.fill('#issuable-title', 'Crash on open')
    await page.fill('#issuable-labels', 'bug')
    await page.fill('#issuable-assignees', 'alice')
    await page.selectOption('#issuable-state', 'close')
    await click('#issuable-submit', /\/-\/issues\/1$/)
    expect(await page.textContent('#issue-state')).toBe('Closed')
    const edited = (await alice.api.get(`/projects/${project.id}/issues/1`)).body
    expect([edited.title, edited.labels, edited.assignees.map((a: any) => a.username), edited.state]).toEqual(['Crash on open', ['bug'], ['alice'], 'closed'])
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('opens a merge request from a branch after seeing its commits and diff', async () => {
    await commit(alice.api, project.id, { branch: 'main', commit_message: 'Add app', actions: [create('app.txt', 'one\ntwo\nthree\nfour\nfive\n')] })
    await commit(alice.api, project.id, {
      branch: 'feature', start_branch: 'main', commit_message: 'Rework app\n\nTwo and four change.', actions: [update('app.txt', 'one\nTWO\nthree\nFOUR\nfive\nsix\n')],
    })
    await page.goto(url('/alice/review/-/merge_requests'))
    await click('#new-merge-request', /\/-\/merge_requests\/new$/)
    await page.selectOption('#source-branch', 'feature')
    await click('#compare-button', /\/-\/merge_requests\/new\?/)
    expect(await page.locator('#new-mr-commits li strong').allTextContents()).toEqual(['Rework app'])
    expect(await page.locator('#new-mr-diff .diff-add pre').allTextContents()).toEqual(['+TWO', '+FOUR', '+six'])
    expect(await page.inputValue('#issuable-title')).toBe('Rework app')
    expect(await page.inputValue('#issuable-description')).toBe('Two and four change.')
    await shot('mr-new')
    await click('#issuable-submit', /\/-\/merge_requests\/1$/)
    const mr = (await alice.api.get(`/projects/${project.id}/merge_requests/1`)).body
    expect([mr.source_branch, mr.target_branch, mr.title, mr.force_remove_source_branch]).toEqual(['feature', 'main', 'Rework app', true])
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('comments on three lines of the split diff as a review and submits it at once', async () => {
    await page.goto(url('/alice/review/-/merge_requests/1/diffs?view=parallel'))
    const comments = [['2', 'Why upper case?'], ['4', `Same here ${XSS}`], ['6', 'New line: fine']]
    for (const [line, text] of comments) {
      // The right-hand (new) side's line number opens the line's form.
      await click(`#diff-0 tr td:nth-child(3) a.line-comment:text-is("${line}")`, /line=0--\d#line-form$/)
      await page.fill('#line-note', text)
      await click('#add-to-review', /diffs\?view=parallel#draft_\d+$/)
    }
    expect(await page.textContent('#review-count')).toBe('3 pending comments')
    expect(await page.locator('.diff-discussion .note.draft').count()).toBe(3)
    // Nobody else sees a draft before it is submitted.
    expect((await alice.api.get(`/projects/${project.id}/merge_requests/1/discussions`)).body.filter((d: any) => !d.notes[0].system)).toEqual([])
    await shot('mr-review-pending')
    await click('#submit-review', /diffs\?view=parallel$/)
    const threads = (await alice.api.get(`/projects/${project.id}/merge_requests/1/discussions`)).body.filter((d: any) => !d.notes[0].system)
    expect(threads.map((d: any) => [d.notes[0].type, d.notes[0].body, d.notes[0].position.new_line])).toEqual([
      ['DiffNote', 'Why upper case?', 2], ['DiffNote', `Same here ${XSS}`, 4], ['DiffNote', 'New line: fine', 6],
    ])
    expect(await page.locator('#review-bar').count()).toBe(0)
    expect(await page.locator('.diff-discussion .thread').count()).toBe(3)
    await expectNoScriptRan(page, dialogs)
  }, 90_000)

  it('replies to and resolves a thread, approves and merges', async () => {
    await page.goto(url('/alice/review/-/merge_requests/1'))
    const thread = page.locator('section.thread').first()
    await thread.locator('summary').click()
    await thread.locator('textarea').fill('Because it shouts')
    await click('section.thread >> nth=0 >> .reply-now', /\/merge_requests\/1#discussion_[0-9a-f]{40}$/)
    await click('section.thread >> nth=0 >> .resolve-thread', /\/merge_requests\/1#discussion_[0-9a-f]{40}$/)
    expect(await page.locator('section.thread.resolved').count()).toBe(1)
    const [first] = (await alice.api.get(`/projects/${project.id}/merge_requests/1/discussions`)).body.filter((d: any) => !d.notes[0].system)
    expect(first.notes.map((n: any) => [n.body, n.resolved])).toEqual([['Why upper case?', true], ['Because it shouts', true]])
    await click('#approve-button', /\/merge_requests\/1#approvals$/)
    expect(await page.textContent('#approved-by')).toContain('@alice')
    expect((await alice.api.get(`/projects/${project.id}/merge_requests/1/approvals`)).body.approved_by.map((a: any) => a.user.username)).toEqual(['alice'])
    await shot('mr-approved')
    await click('#merge-button', /\/merge_requests\/1$/)
    expect(await page.textContent('#mr-state')).toBe('Merged')
    expect((await alice.api.get(`/projects/${project.id}/merge_requests/1`)).body.state).toBe('merged')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)
})
