// A real headless Chromium reads a wiki page (and follows the page list to a nested one), a snippet with its raw link,
// a group and a user, all over content built to run script if anything rendered it as markup. Screenshots wiki-page,
// snippet, group and user go to .scratch/web-screenshots/ (git-ignored). Skipped when no chromium is installed.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumPath, expectNoScriptRan, openBrowserPage } from '../helpers/browser.js'
import { HOSTILE_NAME, pagesFixture, XSS, type PagesFixture } from '../server/web/wiki-snippet-fixture.js'

describe.skipIf(!chromiumPath)('wiki, snippet, group and user pages in a real browser', () => {
  let f: PagesFixture
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>

  beforeAll(async () => {
    f = await pagesFixture()
    ;({ close, page, dialogs, shot } = await openBrowserPage(800))
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await f?.server.close()
  })

  it('opens the wiki at its home page, rendered, and follows the page list to a nested page', async () => {
    await page.goto(`${f.server.url}/alice/demo/-/wikis`)
    expect(page.url()).toBe(`${f.server.url}/alice/demo/-/wikis/home`)
    expect(await page.textContent('#wiki-content h1')).toBe('Welcome')
    expect(await page.textContent('#wiki-content')).toContain(XSS)
    expect(await page.getAttribute('#wiki-content a.gfm-reference', 'href')).toBe(`${f.server.url}/alice/demo/-/issues/1`)
    await shot('wiki-page')
    await expectNoScriptRan(page, dialogs)
    await Promise.all([page.waitForURL(/\/-\/wikis\/docs\/setup$/), page.click('#wiki-pages a:text("setup")')])
    expect(await page.textContent('#wiki-content em')).toBe('steps')
    await page.goto(`${f.server.url}/alice/demo/-/wikis/guide`)
    expect(await page.textContent('pre#wiki-content')).toBe(`= Guide\n\n${XSS}\n`)
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('reads a snippet: highlighted files with hostile names as text, notes, and a raw link serving plain text', async () => {
    await page.goto(`${f.server.url}/alice/demo/-/snippets/${f.snippet.id}`)
    expect(await page.textContent('#snippet-title')).toBe(`Snip ${XSS}`)
    expect(await page.locator('.snippet-file .file-name').allTextContents()).toEqual(['app.js', HOSTILE_NAME])
    expect(await page.locator('.snippet-file .hljs-keyword').first().textContent()).toBe('const')
    expect(await page.textContent('#notes .markdown')).toContain(`A note ${XSS}`)
    await shot('snippet')
    await expectNoScriptRan(page, dialogs)
    await Promise.all([page.waitForURL(/\/raw\/main\/app\.js$/), page.locator('.raw-link').first().click()])
    expect(await page.textContent('body')).toBe('const a = "</script><script>window.__xss=1</script>"\n')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)

  it('shows a group with its subgroup and project, and a user profile', async () => {
    await page.goto(`${f.server.url}/groups/team`)
    expect(await page.locator('#subgroups li').count()).toBe(1)
    expect(await page.textContent('#projects')).toContain(`Tool ${XSS}`)
    await shot('group')
    await expectNoScriptRan(page, dialogs)
    await page.goto(`${f.server.url}/alice`)
    expect(await page.textContent('#user-name')).toBe('Alice <b>A</b>')
    expect(await page.textContent('#user-bio')).toBe(`Bio ${XSS}`)
    expect(await page.locator('#projects li').count()).toBe(1)
    await shot('user')
    await expectNoScriptRan(page, dialogs)
  }, 60_000)
})
