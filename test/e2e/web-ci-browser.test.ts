// A real headless Chromium (Debian's, through playwright-core) watches a running job's log grow on the job page: the
// page's one script asks the page's trace.json only for the lines after the offset it has shown, appends them coloured
// (classes of the log stylesheet, no inline style), and stops when the job ends. Screenshots go to .scratch/web-screenshots/ (git-ignored). Skipped when no chromium is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { chromiumPath, openBrowserPage } from '../helpers/browser.js'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { startCiServer, waitForFinished } from '../helpers/ci.js'
import { commit, create } from '../helpers/repository.js'
import type { TestServer } from '../helpers/server.js'

const CI = `
"echo <b>twice</b>":
  script:
    - printf '\\033[32mfirst\\033[0m <img src=x onerror=window.__xss=1>\\n'
    - sleep 1
    - printf '\\033[31msecond\\033[0m <b>bold</b>\\n'
`

describe.skipIf(!chromiumPath)('a running job in a real browser', () => {
  let server: TestServer
  let alice: TestUser
  let close: (() => Promise<void>) | undefined
  let page: Page
  let dialogs: string[] = []
  let shot: (name: string) => Promise<Buffer>

  beforeAll(async () => {
    server = await startCiServer({ runner: true })
    alice = await createUser(server, 'alice')
    ;({ close, page, dialogs, shot } = await openBrowserPage(800))
  }, 120_000)

  afterAll(async () => {
    await close?.()
    await server?.close()
  })

  it('follows the log as it grows, reading only new bytes, and stops when the job ends', async () => {
    await page.goto(`${server.url}/users/sign_in`)
    await page.fill('input[name="user[login]"]', 'alice')
    await page.fill('input[name="user[password]"]', alice.password)
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('#sign-in button[type=submit]')])

    const project = await createProject(alice.api, { name: 'ci', path: 'ci', visibility: 'private' })
    await commit(alice.api, project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CI)] })
    await server.app.tasks.idle()
    const [pipeline] = expectStatus(await alice.api.get(`/projects/${project.id}/pipelines`), 200).body
    const [job] = expectStatus(await alice.api.get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`), 200).body

    const offsets: number[] = []
    page.on('request', (r) => {
      const m = new RegExp(`/-/jobs/${job.id}/trace\\.json\\?offset=(\\d+)$`).exec(r.url())
      if (m) offsets.push(Number(m[1]))
    })
    await page.goto(`${server.url}/alice/ci/-/jobs/${job.id}`)
    expect(await page.getAttribute('#trace', 'data-follow')).toBe('1')
    expect(await page.textContent('#trace')).not.toContain('second')

    // Locators, not page functions: the page's CSP (script-src 'self') refuses the eval these would need.
    await page.locator('#trace', { hasText: 'first' }).waitFor({ timeout: 20_000 })
    await page.locator('#trace[data-follow="done"]').waitFor({ timeout: 20_000 })
    const text = (await page.textContent('#trace'))!
    expect(text).toMatch(/first <img src=x onerror=window.__xss=1>\n[^]*second <b>bold<\/b>\n/)
    expect(text).not.toContain('\u001b')
    expect(await page.textContent('#job-status')).toBe('success')
    // The lines that came while following are coloured as the server colours a reload.
    expect(await page.locator('#trace .ansi-red-fg', { hasText: /^second$/ }).count()).toBe(1)
    await shot('job-trace-live')

    // Each read asked for what came after the last one's: the offsets only grow, and the last is the log's length.
    expect(offsets.length).toBeGreaterThan(1)
    expect(offsets.every((n, i) => i === 0 || n >= offsets[i - 1])).toBe(true)
    await waitForFinished(server, pipeline.id)
    const log = await alice.api.get(`/projects/${project.id}/jobs/${job.id}/trace`)
    expect(Number(await page.getAttribute('#trace', 'data-offset'))).toBe(Buffer.byteLength(log.text))

    // Reloaded, the finished log is coloured by the server and the page carries no script.
    await page.reload()
    expect(await page.locator('#trace .ansi-green-fg', { hasText: /^first$/ }).count()).toBe(1)
    expect(await page.locator('#trace .ansi-red-fg', { hasText: /^second$/ }).count()).toBe(1)
    expect(await page.locator('script, img[src="x"], #trace b').count()).toBe(0)
    await shot('job-trace')
    await page.goto(`${server.url}/alice/ci/-/pipelines/${pipeline.id}`)
    expect(await page.textContent('#stages')).toContain('echo <b>twice</b>')
    await shot('pipeline')
    await page.goto(`${server.url}/alice/ci/-/commit/${pipeline.sha}?view=parallel`)
    expect(await page.textContent('.diff-parallel')).toContain('echo <b>twice</b>')
    await shot('commit-split')
    expect(await page.evaluate('typeof window.__xss')).toBe('undefined')
    expect(dialogs).toEqual([])
  }, 90_000)
})
