// The pages' polish in a real headless Chromium (issue 27 item 3), one server with the built-in runner and a public
// project: the project page's clone URL and its Copy button, last commit and README; relative dates with the exact
// time on hover; and a running job followed live by an anonymous viewer, its bold and colours as classes, with no CSP
// complaint in the console. Screenshots go to .scratch/web-screenshots/ (git-ignored). Skipped without chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleMessage, Page } from 'playwright-core'
import { chromiumPath, expectNoScriptRan, openBrowserPage } from '../helpers/browser.js'
import { expectStatus, type Api } from '../helpers/api.js'
import { ciProject, projectPipelines, startCiServer, waitForFinished } from '../helpers/ci.js'
import type { TestServer } from '../helpers/server.js'

// Bold, italic and underline, a 16-colour, a 256-colour and a truecolour; the job waits for the page to be open.
const CI = `
build:
  script:
    - printf '\\033[1mBold\\033[0m \\033[3;4mslanted\\033[0m \\033[32mgreen\\033[0m <img src=x onerror=window.__xss=1>\\n'
    - sleep 4
    - printf '\\033[1;31mlater\\033[0m \\033[38;5;208mamber\\033[0m \\033[38;2;10;200;250mtrue\\033[0m\\n'
`
const README = '# Polish readme\n\nSome *words* here.\n'

describe.skipIf(!chromiumPath)('polished pages in a real browser', () => {
  let server: TestServer
  let root: Api
  let project: any
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>
  const consoleMessages: string[] = []

  beforeAll(async () => {
    server = await startCiServer({ runner: true })
    ;({ project, root } = await ciProject(server, 'polish', CI, { 'README.md': README, 'src/app.js': 'x\n' },
      { visibility: 'public', description: 'A project <b>to polish</b>' }))
    project = expectStatus(await root.get(`/projects/${project.id}`), 200).body
    ;({ close, page, dialogs, shot } = await openBrowserPage(900))
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    // Chromium's own favicon request (not a page's resource: never seen by the response listener) is the one 404 left out.
    page.on('console', (m: ConsoleMessage) => {
      if ((m.type() === 'error' || m.type() === 'warning') && !m.text().startsWith('Failed to load resource: the server responded with a status of 404')) consoleMessages.push(m.text())
    })
    page.on('response', (r) => { if (r.status() === 404) consoleMessages.push(`404 ${r.url()}`) })
    page.on('pageerror', (e) => consoleMessages.push(e.message))
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await server?.close()
  })

  it('follows a running job\'s log for an anonymous viewer, coloured with classes, with no CSP error', async () => {
    const [pipeline] = await projectPipelines(server, root, project.id)
    const [job] = expectStatus(await root.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`), 200).body
    // Opened while the job runs: the first line is there, the last not yet.
    for (let i = 0; i < 200; i++) {
      const trace = await root.get(`/projects/${project.id}/jobs/${job.id}/trace`)
      if (trace.text.includes('green')) break
      await new Promise((r) => setTimeout(r, 50))
    }
    await page.goto(`${server.url}${new URL(project.web_url).pathname}/-/jobs/${job.id}`)
    expect(await page.getAttribute('#trace', 'data-follow')).toBe('1')
    expect(await page.locator('header a', { hasText: 'Sign in' }).count()).toBe(1)
    await page.locator('#trace .ansi-red-fg', { hasText: /^later$/ }).waitFor({ timeout: 20_000 })
    await page.locator('#trace[data-follow="done"]').waitFor({ timeout: 20_000 })
    expect(await page.textContent('#job-status')).toBe('success')
    expect(await page.locator('#trace .ansi-bold', { hasText: /^Bold$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-italic.ansi-underline', { hasText: /^slanted$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-green-fg', { hasText: /^green$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-red-fg.ansi-bold', { hasText: /^later$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-208-fg', { hasText: /^amber$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-45-fg', { hasText: /^true$/ }).count()).toBe(1)
    expect(await page.locator('#trace [style]').count()).toBe(0)
    // The stylesheet applied: bold is bold, green is a colour (the CSP let both through).
    expect(await page.locator('#trace .ansi-bold').first().evaluate((e) => (globalThis as any).getComputedStyle(e).fontWeight)).toBe('700')
    expect(await page.locator('#trace .ansi-green-fg').first().evaluate((e) => (globalThis as any).getComputedStyle(e).color)).toBe('rgb(85, 204, 85)')
    await shot('polish-job-live')
    await waitForFinished(server, pipeline.id)

    await page.reload()
    expect(await page.getAttribute('#trace', 'data-follow')).toBe('0')
    expect(await page.locator('#trace .ansi-bold', { hasText: /^Bold$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-208-fg', { hasText: /^amber$/ }).count()).toBe(1)
    expect(await page.locator('#job-times .duration').first().textContent()).toMatch(/^\d+s$/)
    expect(consoleMessages).toEqual([])
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined')
  }, 90_000)

  it('shows the project page: clone URL with a working Copy button, last commit, description, README, icons', async () => {
    const path = new URL(project.web_url).pathname
    await page.goto(`${server.url}${path}`)
    const clone = `${server.url}${path}.git`
    expect(await page.inputValue('#clone-http')).toBe(clone)
    await page.click('#copy-clone-http')
    await page.locator('#copy-clone-http', { hasText: 'Copied' }).waitFor({ timeout: 5_000 })
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(clone)
    expect(await page.textContent('#description')).toBe('A project <b>to polish</b>')
    expect(await page.textContent('#last-commit strong')).toBe('Initial commit')
    expect(await page.locator('#last-commit .ci-icon-success[title^="Pipeline #"]').count()).toBe(1)
    expect(await page.textContent('#readme h1')).toBe('Polish readme')
    // Icons are drawn (not an emoji that needs a font) and hidden from screen readers, which read the word beside them.
    const folder = page.locator('#tree tr', { hasText: 'src' }).locator('svg.icon-folder')
    expect([await folder.getAttribute('aria-hidden'), (await folder.boundingBox())!.width]).toEqual(['true', 16])
    expect(await page.locator('#tree tr', { hasText: 'README.md' }).locator('.sr-only').textContent()).toBe('File')
    await shot('polish-project')
    await expectNoScriptRan(page, dialogs)
    expect(consoleMessages).toEqual([])
  }, 60_000)

  it('shows dates as relative words with the exact time on hover', async () => {
    const path = new URL(project.web_url).pathname
    for (const [url, where] of [[`${path}/-/commits/${project.default_branch}`, '#commits time'], [`${path}/-/pipelines`, '#pipelines time'], [path, '#last-commit time']]) {
      await page.goto(`${server.url}${url}`)
      const time = page.locator(where).first()
      expect([url, await time.textContent()]).toEqual([url, expect.stringMatching(/^(just now|\d+ (minute|hour)s? ago)$/)])
      const title = (await time.getAttribute('title'))!
      expect(title).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
      expect(new Date(title.replace(' UTC', 'Z').replace(' ', 'T')).toISOString().slice(0, 19)).toBe((await time.getAttribute('datetime'))!.slice(0, 19))
    }
    expect(await page.locator('#last-commit time').getAttribute('title')).toMatch(/UTC$/)
    expect(consoleMessages).toEqual([])
  }, 60_000)
})
