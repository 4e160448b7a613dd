// A real headless Chromium (Debian's, driven by playwright-core, which downloads no browser) signs in, reads a file,
// comments on an issue and closes it, over content built to run script if anything rendered it as markup.
// Screenshots go to .scratch/web-screenshots/ (git-ignored). Skipped when no chromium is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumPath, expectNoScriptRan, openBrowserPage } from '../helpers/browser.js'
import { HOSTILE_BRANCH, HOSTILE_FILE, webFixture, type WebFixture } from '../server/web/fixture.js'

describe.skipIf(!chromiumPath)('the web pages in a real browser', () => {
  let f: WebFixture
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>

  beforeAll(async () => {
    f = await webFixture()
    ;({ close, page, dialogs, shot } = await openBrowserPage(900))
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await f?.server.close()
  })

  it('signs in through the form (after a wrong password) and lists the projects', async () => {
    await page.goto(`${f.server.url}/users/sign_in`)
    await shot('sign-in')
    await page.fill('input[name="user[login]"]', 'alice')
    await page.fill('input[name="user[password]"]', 'not her password')
    await Promise.all([page.waitForURL(/\/users\/sign_in\?failed=1$/), page.click('#sign-in button[type=submit]')])
    expect(await page.textContent('#sign-in-error')).toBe('Invalid login or password.')
    await page.fill('input[name="user[login]"]', 'alice')
    await page.fill('input[name="user[password]"]', f.alice.password)
    await Promise.all([page.waitForURL(`${f.server.url}/`), page.click('#sign-in button[type=submit]')])
    expect(await page.textContent('header')).toContain('@alice')
    expect(await page.locator('#projects li').count()).toBe(2)
    await shot('projects')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('reads the project, a directory and a highlighted file with line anchors', async () => {
    await page.goto(`${f.server.url}/alice/demo`)
    expect(await page.textContent('#readme h1')).toBe('Demo readme')
    await shot('project')
    await Promise.all([page.waitForURL(/\/-\/tree\/main\/src$/), page.click('#tree a:text("src")')])
    await Promise.all([page.waitForURL(/\/-\/blob\/main\/src\/app\.js$/), page.click('#tree a:text("app.js")')])
    expect(await page.locator('.hljs-keyword').first().textContent()).toBe('const')
    expect(await page.textContent('code.hljs')).toContain('"</script><script>window.__xss=1</script>"')
    await page.click('a#L2')
    expect(page.url()).toMatch(/#L2$/)
    await shot('blob')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('shows hostile branch and file names as text', async () => {
    await page.goto(`${f.server.url}/alice/demo/-/tree/${encodeURIComponent(HOSTILE_BRANCH)}`)
    expect(await page.textContent('#current-ref')).toBe(HOSTILE_BRANCH)
    await page.goto(`${f.server.url}/alice/demo/-/blob/main/${encodeURIComponent(HOSTILE_FILE)}`)
    expect(await page.textContent('#file-name')).toBe(HOSTILE_FILE)
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('comments on the issue and closes it; hostile title, description and comment stay text', async () => {
    await page.goto(`${f.server.url}/alice/demo/-/issues`)
    await Promise.all([page.waitForURL(/\/-\/issues\/1$/), page.click('#issues a:has-text("Broken")')])
    expect(await page.textContent('#issue-title')).toBe('Broken <script>window.__xss=1</script><img src=x onerror="window.__xss=1">')
    expect(await page.locator('#issue-description input.task-list-item-checkbox').count()).toBe(2)
    expect(await page.locator('#issue-description table td').first().textContent()).toBe('<b>1</b>')
    await page.fill('#comment-form textarea', 'A **browser** comment <img src=x onerror="window.__xss=1">')
    await Promise.all([page.waitForLoadState('load'), page.click('#comment-button')])
    expect(await page.locator('#notes .note:not(.system)').last().textContent()).toContain('A browser comment <img src=x onerror="window.__xss=1">')
    await Promise.all([page.waitForLoadState('load'), page.click('#close-button')])
    expect(await page.textContent('#issue-state')).toBe('Closed')
    expect(await page.locator('#reopen-button').count()).toBe(1)
    await shot('issue')
    await expectNoScriptRan(page, dialogs)
    const issue = (await f.alice.api.get(`/projects/${f.pub.id}/issues/1`)).body
    expect([issue.state, issue.user_notes_count]).toEqual(['closed', 1])
  }, 60_000)

  it('shows a release with hostile name and notes as text, and edits it through its form', async () => {
    const hostile = 'v1 <img src=x onerror="window.__xss=1">'
    const made = await f.alice.api.post(`/projects/${f.pub.id}/releases`, {
      tag_name: 'v1.0', name: hostile, description: 'Fixes #1 <script>window.__xss=1</script>',
      assets: { links: [{ name: 'Binary <b>x</b>', url: 'https://example.com/bin', direct_asset_path: '/bin' }] },
    })
    expect(made.status).toBe(201)
    await page.goto(`${f.server.url}/alice/demo/-/releases`)
    await Promise.all([page.waitForURL(/\/-\/releases\/v1\.0$/), page.click('#releases a')])
    expect(await page.textContent('#release-name')).toBe(hostile)
    expect(await page.locator('#release-notes a[href$="/-/issues/1"]').count()).toBe(1)
    expect(await page.locator('#release-assets a').first().textContent()).toBe('Binary <b>x</b>')
    await shot('release')
    await Promise.all([page.waitForURL(/\/edit$/), page.click('#edit-release')])
    await page.fill('#release-title', 'Version one')
    await Promise.all([page.waitForURL(/\/-\/releases\/v1\.0$/), page.click('#save-release')])
    expect(await page.textContent('#release-name')).toBe('Version one')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)
})
