// A real headless Chromium reviews and merges a merge request: signs in, opens the hostile merge request, reads its
// changes (unified and split), comments, then merges another with "Delete source branch" and checks the API agrees.
// Screenshots mr-overview and mr-diffs go to .scratch/web-screenshots/. Skipped when no chromium is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumPath, expectNoScriptRan, openBrowserPage } from '../helpers/browser.js'
import { branchHead } from '../helpers/repository.js'
import { HOSTILE_BRANCH, HOSTILE_FILE } from '../server/web/fixture.js'
import { HOSTILE_CHANGED, mrFixture, type MrFixture } from '../server/web/mr-fixture.js'

describe.skipIf(!chromiumPath)('merge requests in a real browser', () => {
  let f: MrFixture
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>

  beforeAll(async () => {
    f = await mrFixture()
    ;({ close, page, dialogs, shot } = await openBrowserPage(900))
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await f?.server.close()
  })

  it('signs in and opens the merge request from the list; hostile title and branch stay text', async () => {
    await page.goto(`${f.server.url}/users/sign_in`)
    await page.fill('input[name="user[login]"]', 'alice')
    await page.fill('input[name="user[password]"]', f.alice.password)
    await Promise.all([page.waitForURL(`${f.server.url}/`), page.click('#sign-in button[type=submit]')])
    await page.goto(`${f.server.url}/alice/demo`)
    await Promise.all([page.waitForURL(/\/-\/merge_requests$/), page.click('nav a:text("Merge requests")')])
    expect(await page.locator('#merge-requests li').count()).toBe(4)
    await Promise.all([page.waitForURL(/\/-\/merge_requests\/1$/), page.click('#merge-requests a:has-text("Broken")')])
    expect(await page.textContent('#mr-title')).toBe(f.hostile.title)
    expect(await page.textContent('#mr-source')).toBe(HOSTILE_BRANCH)
    expect(await page.textContent('#merge-status')).toBe('Ready to merge.')
    expect(await page.locator('#mr-description input.task-list-item-checkbox').count()).toBe(2)
    await shot('mr-overview')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('reads the changes through the file list, unified and split', async () => {
    await Promise.all([page.waitForURL(/\/merge_requests\/1\/diffs$/), page.click('#tab-diffs')])
    expect(await page.locator('#mr-files li a').allTextContents()).toEqual([HOSTILE_CHANGED, HOSTILE_FILE])
    await page.click(`#mr-files a:text-is(${JSON.stringify(HOSTILE_FILE)})`)
    expect(page.url()).toMatch(/#diff-1$/)
    expect(await page.locator('#diff-1 .diff-add pre').textContent()).toBe('+hostile name, changed')
    expect(await page.locator('#diff-0 .diff-add pre').textContent()).toBe('+new <b>file</b>')
    await Promise.all([page.waitForURL(/\?view=parallel$/), page.click('#diff-view a:text("Split")')])
    expect(await page.locator('#diff-1 td.diff-del pre').textContent()).toBe('hostile name')
    expect(await page.locator('#diff-1 td.diff-add pre').textContent()).toBe('hostile name, changed')
    await shot('mr-diffs')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('comments on the merge request', async () => {
    await Promise.all([page.waitForURL(/\/merge_requests\/1$/), page.click('#tab-overview')])
    await page.fill('#comment-form textarea', 'Reviewed in a **browser** <img src=x onerror="window.__xss=1">')
    await Promise.all([page.waitForLoadState('load'), page.click('#comment-button')])
    expect(await page.locator('#notes .note:not(.system)').last().textContent()).toContain('Reviewed in a browser <img src=x onerror="window.__xss=1">')
    await expectNoScriptRan(page, dialogs)
    const notes = (await f.alice.api.get(`/projects/${f.pub.id}/merge_requests/1/notes`)).body
    expect(notes.map((n: any) => n.body)).toEqual(['Reviewed in a **browser** <img src=x onerror="window.__xss=1">'])
  }, 60_000)

  it('merges another merge request with "Delete source branch"', async () => {
    await page.goto(`${f.server.url}/alice/demo/-/merge_requests/${f.topic.iid}`)
    expect(await page.isChecked('#remove-source-branch')).toBe(false)
    await page.check('#remove-source-branch')
    await Promise.all([page.waitForURL(new RegExp(`/merge_requests/${f.topic.iid}$`)), page.click('#merge-button')])
    expect(await page.textContent('#mr-state')).toBe('Merged')
    expect(await page.textContent('#merge-status')).toContain('Merged by @alice')
    await shot('mr-merged')
    const mr = (await f.alice.api.get(`/projects/${f.pub.id}/merge_requests/${f.topic.iid}`)).body
    expect([mr.state, mr.merged_by.username, mr.should_remove_source_branch]).toEqual(['merged', 'alice', true])
    expect(await branchHead(f.alice.api, f.pub.id, 'topic')).toBeNull()
    const main = (await f.alice.api.get(`/projects/${f.pub.id}/repository/commits/main`)).body
    expect(main.id).toBe(mr.merge_commit_sha)
    await expectNoScriptRan(page, dialogs)
  }, 60_000)
})
