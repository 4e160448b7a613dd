// Hostile content in every field a page renders (world.ts), then every page behind a web_url plus the pages no API
// link names (wikis, trees, blobs, lists): no markup the data brought survives, each page carries the strict CSP, and
// in a real browser over the worst pages no script runs and no dialog opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request } from '../../helpers/api.js'
import { chromiumPath, openBrowserPage } from '../../helpers/browser.js'
import { closeBidi, closeBidiInMarkup, unclosedBidi } from '../../../src/server/web/bidi.js'
import { icon, ICON_NAMES } from '../../../src/server/web/icons.js'
import { PAGE_SCRIPT_PATH } from '../../../src/server/web/pages/job-follow.js'
import { collectWebUrls } from './collect-urls.js'
import { signIn } from './fixture.js'
import { HOSTILE_FILE, HOSTILE_REF, HOSTILE_TAG, seedWorld, type World } from './world.js'

let w: World
let cookie: string
let pages: string[]

const enc = encodeURIComponent

/** The pages no web_url names: the project's lists, refs and files with hostile names, wiki pages, MR tabs. */
function extraPages(w: World): string[] {
  const demo = '/alice/demo'
  return [
    '/', '/alice', '/bob', '/groups/team', '/groups/team/sub', '/groups/team/-/milestones', `${demo}/-/milestones`,
    `${demo}/-/tree/main`, `${demo}/-/tree/main/docs/very/deep`, `${demo}/-/blob/main/README.md`, `${demo}/-/blob/main/src/app.js`,
    `${demo}/-/blob/main/${enc(HOSTILE_FILE)}`, `${demo}/-/blob/main/.gitlab-ci.yml`, `${demo}/-/tree/${enc(HOSTILE_REF)}`,
    `${demo}/-/tree/${enc(HOSTILE_TAG)}`, `${demo}/-/commits/main`, `${demo}/-/commits/${enc(HOSTILE_REF)}`, `${demo}/-/commit/${w.sha}`,
    `${demo}/-/commit/${w.sha}?view=parallel`, `${demo}/-/issues`, `${demo}/-/issues?state=all`, `${demo}/-/merge_requests`,
    `${demo}/-/merge_requests?state=all`, `${demo}/-/merge_requests/${w.mr.iid}/commits`, `${demo}/-/merge_requests/${w.mr.iid}/diffs`,
    `${demo}/-/merge_requests/${w.mr.iid}/diffs?view=parallel`, `${demo}/-/pipelines`, `${demo}/-/wikis/pages`,
    `${demo}/-/snippets`, `/-/snippets/${w.personal.id}`, `/team/sub/inner`,
    // The create, edit and review pages: forms filled from hostile rows, a line's open comment form, the pending review.
    '/projects/new', `${demo}/-/issues/new`, `${demo}/-/issues/${w.issue.iid}/edit`, `${demo}/-/merge_requests/new`,
    `${demo}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${enc(HOSTILE_REF)}`, `${demo}/-/merge_requests/${w.mr.iid}/edit`,
    `${demo}/-/merge_requests/${w.mr.iid}/diffs?line=0-1-`, `${demo}/-/merge_requests/${w.mr.iid}/diffs?view=parallel&line=0--1`,
  ]
}

beforeAll(async () => {
  w = await seedWorld()
  cookie = await signIn(w.server, w.alice)
  const walk = await collectWebUrls(w)
  const wikis = (await w.alice.api.get(`/projects/${w.pub.id}/wikis`)).body as { slug: string }[]
  const wikiPages = wikis.map((p) => `/alice/demo/-/wikis/${enc(p.slug).replace(/%2F/g, '/')}`)
  pages = [...new Set([...[...walk.urls].map((u) => u.slice(w.server.url.length)), ...extraPages(w), ...wikiPages])]
}, 180_000)
afterAll(() => w?.server.close())

const get = (path: string) => request(w.server, 'GET', path, { headers: { Cookie: cookie } })

const ENTITIES: Record<string, string> = { colon: ':', tab: '', newline: '', amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' }
/** An attribute value as the browser reads it: entities decoded, the blanks and controls a scheme may hide behind dropped. */
const decoded = (v: string) => v
  .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
  .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
  .replace(/&([a-z]+);/gi, (m, n) => ENTITIES[n.toLowerCase()] ?? m)
  .replace(/[\u0000-\u0020]/g, '')

/** Our own icons' opening tags: the only svg a page may hold (data cannot make one: it is always escaped). */
const OWN_SVG = new Set(ICON_NAMES.map((n) => /^<svg[^>]*>/.exec(icon(n).text)![0]))

/**
 * What in the page is live markup the data brought: a script other than the pages' own, an svg other than our icons, an event handler
 * attribute on any tag, a URL attribute with a script scheme. Text between tags is never read, so the hostile strings
 * shown escaped (as they must be) do not count.
 */
function hostileMarkup(page: string, baseUrl: string): string[] {
  const found: string[] = []
  const ownScript = `<script src="${baseUrl}${PAGE_SCRIPT_PATH}" defer>`
  for (const [tag] of page.matchAll(/<[a-zA-Z][^>]*>/g)) {
    const name = /^<([a-zA-Z][\w:-]*)/.exec(tag)![1].toLowerCase()
    if (name === 'script' && tag !== ownScript) found.push(tag)
    if (name === 'svg' && OWN_SVG.has(tag)) continue
    if (['svg', 'iframe', 'object', 'embed', 'math', 'base', 'meta'].includes(name) && !tag.startsWith('<meta charset') && !tag.startsWith('<meta name="viewport"')) found.push(tag)
    const unquoted = tag.replace(/"[^"]*"|'[^']*'/g, '""')
    if (/[\s/"]on[a-z]+\s*=/i.test(unquoted)) found.push(tag)
    for (const m of tag.matchAll(/\s(href|src|action|formaction|xlink:href|srcset|poster|data)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const value = decoded(m[2] ?? m[3] ?? m[4] ?? '')
      if (/^(javascript|vbscript|data:text\/html)/i.test(value)) found.push(tag)
    }
  }
  return found
}

describe('every page over hostile content', () => {
  it('shows no live markup the data brought and sends the strict CSP', async () => {
    const bad: string[] = []
    for (const path of pages) {
      const res = await get(path)
      if (res.status !== 200) { bad.push(`${res.status} ${path}`); continue }
      const csp = res.headers.get('content-security-policy') ?? ''
      if (!csp.startsWith("default-src 'none'; ") || /unsafe-inline|unsafe-eval/.test(csp)) bad.push(`CSP ${csp} ${path}`)
      for (const tag of hostileMarkup(res.text, w.server.url)) bad.push(`${path}: ${tag.slice(0, 200)}`)
      // An ANSI escape or other control character is invalid HTML and would hide as nothing: shown as its picture.
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(res.text)) bad.push(`control character in ${path}`)
      // A right-to-left override the data brought ends with the text it came in, never reversing the page's own.
      for (const [, text] of res.text.matchAll(/>([^<]*)/g)) if (unclosedBidi(text)) bad.push(`open bidi control in ${path}: ${text.slice(0, 80)}`)
    }
    expect(bad).toEqual([])
    expect(pages.length).toBeGreaterThan(60)
  }, 120_000)

  it('shows the hostile text as text: escaped markup, the template expression untouched', async () => {
    const escaped = '&lt;script&gt;window.__xss=1&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; {{7*7}} \u241b[31mred\u241b[0m \u202eevil.exe'
    for (const path of ['/alice/demo', `/alice/demo/-/issues/${w.issue.iid}`, `/alice/demo/-/merge_requests/${w.mr.iid}`, '/alice',
      `/alice/demo/-/issues/${w.issue.iid}/edit`, `/alice/demo/-/merge_requests/${w.mr.iid}/edit`, `/alice/demo/-/merge_requests/${w.mr.iid}/diffs?view=parallel`]) {
      expect([path, (await get(path)).text.includes(escaped)]).toEqual([path, true])
    }
  })

  it('catches what it is meant to catch', () => {
    const base = 'http://h'
    expect(hostileMarkup('<p>&lt;script&gt; onerror=alert(1)</p><a title="x onerror=1" href="/a">', base)).toEqual([])
    expect(hostileMarkup(`<script src="${base}${PAGE_SCRIPT_PATH}" defer></script>${icon('folder').text}`, base)).toEqual([])
    expect(hostileMarkup('<svg class="icon icon-folder" onload="alert(1)">', base)).toHaveLength(2)
    expect(hostileMarkup('<script>alert(1)</script>', base)).toHaveLength(1)
    expect(hostileMarkup('<img src=x onerror=alert(1)>', base)).toHaveLength(1)
    expect(hostileMarkup('<a href="jav&#x09;ascript&colon;alert(1)">', base)).toHaveLength(1)
    expect(hostileMarkup('<svg/onload=alert(1)>', base)).toHaveLength(2)
    expect(closeBidi('\u202eevil.exe')).toBe('\u202eevil.exe\u202c')
    expect(closeBidi('a\u2067b\u202ac\u2069d\u202b')).toBe('a\u2067b\u202ac\u2069d\u202b\u202c')
    expect(closeBidi('\u202ab\u202c plain')).toBe('\u202ab\u202c plain')
    expect(closeBidiInMarkup('<p title="x">\u202ea</p><p>b\u2066</p>')).toBe('<p title="x">\u202ea\u202c</p><p>b\u2066\u2069</p>')
  })
})

describe.skipIf(!chromiumPath)('the worst pages in a real browser', () => {
  it('runs no script and opens no dialog', async () => {
    const { close, page, dialogs, shot } = await openBrowserPage(900)
    try {
      const [name, value] = cookie.split('=')
      await page.context().addCookies([{ name, value, url: w.server.url }])
      const worst = [
        `/alice/demo/-/issues/${w.issue.iid}`, `/alice/demo/-/merge_requests/${w.mr.iid}`, `/alice/demo/-/merge_requests/${w.mr.iid}/diffs`,
        `/alice/demo/-/jobs/${(await w.alice.api.get(`/projects/${w.pub.id}/jobs`)).body[0].id}`, `/alice/demo/-/blob/main/${enc(HOSTILE_FILE)}`,
        `/alice/demo/-/tree/${enc(HOSTILE_REF)}`, '/alice/demo/-/wikis/home', `/alice/demo/-/snippets/${w.snippet.id}`, '/alice/demo/-/milestones/1',
        '/alice', '/alice/demo', `/alice/demo/-/merge_requests/${w.mr.iid}/diffs?view=parallel&line=0--1`, `/alice/demo/-/issues/${w.issue.iid}/edit`,
        `/alice/demo/-/merge_requests/new?merge_request%5Bsource_branch%5D=${enc(HOSTILE_REF)}`,
      ]
      for (const path of worst) {
        const res = await page.goto(`${w.server.url}${path}`)
        expect([path, res?.status()]).toEqual([path, 200])
        expect([path, await page.evaluate('typeof window.__xss')]).toEqual([path, 'undefined'])
        expect([path, await page.locator('svg:not(.icon), img[src="x"], iframe').count()]).toEqual([path, 0])
        if (path === worst[0]) await shot('xss-sweep-issue')
      }
      expect(dialogs).toEqual([])
    } finally {
      await close()
    }
  }, 120_000)
})
