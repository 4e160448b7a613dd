// The pipeline and job pages over a real server with the built-in runner: lists, stages and jobs, the job log with
// ANSI colours as escaped HTML in classes, the follow script and its trace.json only while a job runs (anonymous viewers of a
// public project too), durations, and 404s for outsiders and unknown ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, expectStatus, request, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, projectPipelines, runPipeline, startCiServer, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { traceHtml } from '../../../src/server/web/pages/job-log.js'
import { HOSTILE_BRANCH, signIn } from './fixture.js'

const HOSTILE_JOB = '<script>window.__xss=1</script>'
const CI = `
stages: [build, test]
"${HOSTILE_JOB}":
  stage: build
  script:
    - printf '\\033[31mred <b>bold</b>\\033[0m plain <img src=x onerror=window.__xss=1>\\n'
    - printf '\\033]8;;https://evil.example/\\033\\\\link\\033]8;;\\033\\\\ end\\n'
    - echo built > out.txt
  artifacts:
    paths: [out.txt]
slow:
  stage: test
  script:
    - echo first
    - sleep 2
    - echo second
`

let server: TestServer
let bob: TestUser
let bobCookie: string
let pub: any
let pipeline: any
let privPath: string
let root: Api

beforeAll(async () => {
  server = await startCiServer({ runner: true })
  bob = await createUser(server, 'bob')
  bobCookie = await signIn(server, bob)
  const made = await ciProject(server, 'demo', CI, {}, { visibility: 'public' })
  pub = made.project
  root = made.root
  const priv = await ciProject(server, 'secret', 'job:\n  script: [echo hi]\n')
  privPath = priv.project.path_with_namespace
  pipeline = (await projectPipelines(server, made.root, pub.id))[0]
}, 60_000)
afterAll(() => server?.close())

const get = (path: string, cookie?: string, headers: Record<string, string> = {}) =>
  request(server, 'GET', path, { headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } })
const jobsOf = async () => expectStatus(await root.get(`/projects/${pub.id}/pipelines/${pipeline.id}/jobs`), 200).body as any[]

function expectNoInjection(text: string) {
  expect(text).not.toMatch(/<script>/i)
  expect(text).not.toMatch(/<img src=x/i)
  expect(text).not.toContain('<b>')
}

describe('pipeline and job pages', () => {
  it('follows a running job for every viewer who may see it, with the same-origin script under a CSP that allows only it', async () => {
    const slow = (await jobsOf()).find((j) => j.name === 'slow')
    for (const cookie of [undefined, bobCookie]) {
      const res = await get(`/${pub.path_with_namespace}/-/jobs/${slow.id}`, cookie)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
      expect(res.text).toContain(`data-follow="1"`)
      expect(res.text).toContain(`data-trace-url="${server.url}/${pub.path_with_namespace}/-/jobs/${slow.id}/trace.json"`)
      const src = /<script src="([^"]+)" defer><\/script>/.exec(res.text)![1]
      const script = await get(src.slice(server.url.length))
      expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8'])
      expect(script.text).toContain("traceUrl + '?offset=' + offset")
      const sheet = /<link rel="stylesheet" href="([^"]+\/log-[0-9a-f]{16}\.css)">/.exec(res.text)![1]
      const css = await get(sheet.slice(server.url.length))
      expect([css.status, css.text]).toEqual([200, expect.stringContaining('.ansi-bold{font-weight:700}')])
    }
  })

  it('answers trace.json with the whole lines after the offset and the status, to an anonymous viewer of a public project', async () => {
    const slow = (await jobsOf()).find((j) => j.name === 'slow')
    const url = `/${pub.path_with_namespace}/-/jobs/${slow.id}/trace.json`
    let first: any
    for (let i = 0; i < 100 && !first?.html.includes('first'); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100))
      first = (await get(`${url}?offset=0`)).body
    }
    expect(first).toMatchObject({ id: slow.id, append: true, html: expect.stringContaining('first\n') })
    expect(first.offset).toBeGreaterThan(0)
    let last = first
    for (let i = 0; i < 100 && !last.complete; i++) {
      await new Promise((r) => setTimeout(r, 100))
      const next = (await get(`${url}?offset=${last.offset}`)).body
      expect(next.append).toBe(true)
      expect(next.html).not.toContain('first')
      expect(next.offset).toBeGreaterThanOrEqual(last.offset)
      last = { ...next, html: last.html + next.html }
    }
    expect([last.complete, last.status, last.offset, last.size]).toEqual([true, 'success', last.size, last.size])
    expect(last.html).toMatch(/first\n[^]*second\n/)
    const res = await get(`${url}?offset=${last.size + 10}`)
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'application/json', 'no-store'])
    expect(res.body).toMatchObject({ append: false, complete: true, offset: last.size, html: expect.stringContaining('first') })
    const done = await get(`/${pub.path_with_namespace}/-/jobs/${slow.id}`)
    expect([done.text.includes('<script'), done.text.includes('data-follow="0"')]).toEqual([false, true])
    expect(done.text).toMatch(/<p class="muted" id="job-times">Duration <span class="duration" title="\d+ seconds?">\d+s<\/span>/)
  }, 30_000)

  it('renders bold, italic, underline and 256 and true colours as classes, never inline styles', () => {
    const log = '\u001b[1mbold\u001b[0m \u001b[3;4mit\u001b[0m \u001b[38;5;196mc196\u001b[0m \u001b[48;5;244mg\u001b[0m \u001b[38;2;250;10;5mtrue\u001b[0m \u001b[1;31mbr\u001b[0m'
    expect(traceHtml(log).text).toBe('<span class="ansi-bold">bold</span> <span class="ansi-italic ansi-underline">it</span> '
      + '<span class="ansi-196-fg">c196</span> <span class="ansi-244-bg">g</span> <span class="ansi-196-fg">true</span> <span class="ansi-red-fg ansi-bold">br</span>')
  })

  it('lists the pipelines with status, ref, sha and source', async () => {
    await waitForFinished(server, pipeline.id)
    const res = await get(`/${pub.path_with_namespace}/-/pipelines`)
    expect(res.status).toBe(200)
    const row = /<tr><td><span class="ci-status ci-(\w+)">\w+<\/span><\/td><td><a href="[^"]+\/-\/pipelines\/(\d+)">#\d+<\/a><\/td>\s*<td><a [^>]+>(\w+)<\/a><\/td><td><a [^>]+><code>(\w+)<\/code><\/a><\/td>\s*<td>(\w+)<\/td>/.exec(res.text)
    expect(row?.slice(1)).toEqual(['success', String(pipeline.id), pipeline.ref, pipeline.sha.slice(0, 8), 'push'])
  }, 30_000)

  it('shows a pipeline\'s stages and jobs with links, the hostile job name as text', async () => {
    const res = await get(`/${pub.path_with_namespace}/-/pipelines/${pipeline.id}`)
    expect(res.status).toBe(200)
    expectNoInjection(res.text)
    const jobs = await jobsOf()
    const hostile = jobs.find((j) => j.name === HOSTILE_JOB)
    expect(res.text).toContain(`<h3>build</h3><ul class="list"><li><span class="ci-status ci-success">success</span> <a href="${server.url}/${pub.path_with_namespace}/-/jobs/${hostile.id}">&lt;script&gt;window.__xss=1&lt;/script&gt;</a> <span class="duration" title=`)
    expect(res.text).toMatch(/· duration <span id="pipeline-duration"><span class="duration" title="\d+ seconds?">\d+s<\/span><\/span>/)
    expect(res.text).toContain('<h3>test</h3>')
  })

  it('renders a finished job\'s log with colours and escapes, without the script', async () => {
    const hostile = (await jobsOf()).find((j) => j.name === HOSTILE_JOB)
    const res = await get(`/${pub.path_with_namespace}/-/jobs/${hostile.id}`)
    expect(res.status).toBe(200)
    expectNoInjection(res.text)
    expect(res.text).toContain('<span class="ansi-red-fg">red &lt;b&gt;bold&lt;/b&gt;</span> plain &lt;img src=x onerror=window.__xss=1&gt;')
    expect(res.text).not.toContain('\u001b')
    const trace = /<pre class="trace"[^>]*>([^]*?)<\/pre>/.exec(res.text)![1]
    expect(trace).not.toContain('<a ')
    expect(trace).toContain('link end')
    expect(res.text).not.toContain('<script src=')
    expect(res.text).toContain('data-follow="0"')
    // The follower's JSON carries the same escaped rendering, to an anonymous viewer as to anyone.
    const json = await get(`/${pub.path_with_namespace}/-/jobs/${hostile.id}/trace.json?offset=0`)
    expect(json.body.html).toContain('<span class="ansi-red-fg">red &lt;b&gt;bold&lt;/b&gt;</span> plain &lt;img src=x onerror=window.__xss=1&gt;')
    expectNoInjection(json.body.html)
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'self';/)
    const download = `${server.url}/api/v4/projects/${pub.id}/jobs/${hostile.id}/artifacts`
    expect(res.text).toMatch(new RegExp(`<a href="${download}" id="artifacts-download">Download artifacts</a>\\n<span class="muted">\\(\\d+ bytes, 1 files\\)</span>`))
    expect(res.text).toContain(`<li><a href="${download}/out.txt">out.txt</a> <span class="muted">6 bytes</span></li>`)
    const entry = await get(`${download.slice(server.url.length)}/out.txt`, bobCookie)
    expect([entry.status, entry.text]).toEqual([200, 'built\n'])
    const zip = await get(download.slice(server.url.length), bobCookie)
    expect([zip.status, zip.headers.get('content-type')]).toEqual([200, 'application/octet-stream'])
  })

  it('answers the follower\'s range request with only the new bytes, for a session cookie', async () => {
    const slow = (await jobsOf()).find((j) => j.name === 'slow')
    const whole = await get(`/api/v4/projects/${pub.id}/jobs/${slow.id}/trace`, bobCookie)
    const at = whole.text.indexOf('second')
    const tail = await get(`/api/v4/projects/${pub.id}/jobs/${slow.id}/trace`, bobCookie, { Range: `bytes=${Buffer.byteLength(whole.text.slice(0, at))}-` })
    expect(tail.status).toBe(206)
    expect(tail.text.startsWith('second')).toBe(true)
  })

  it('answers 404 pages to outsiders of a private project and for unknown ids', async () => {
    for (const path of [`/${privPath}/-/pipelines`, `/${privPath}/-/pipelines/1`, `/${privPath}/-/jobs/1`, `/${privPath}/-/jobs/1/trace.json`]) {
      expect([path, (await get(path, bobCookie)).status]).toEqual([path, 404])
      expect([path, (await get(path)).status]).toEqual([path, 404])
    }
    for (const path of ['/-/pipelines/999999', '/-/jobs/999999', '/-/pipelines/abc', '/-/jobs/1/x', '/-/pipelines/1/nope']) {
      expect([path, (await get(`/${pub.path_with_namespace}${path}`)).status]).toEqual([path, 404])
    }
  })

  it('shows a pipeline of a hostile branch name as text in the list and on its page', async () => {
    expectStatus(await root.post(`/projects/${pub.id}/repository/branches`, { branch: HOSTILE_BRANCH, ref: pipeline.ref }), 201)
    const made = await runPipeline(root, pub.id, HOSTILE_BRANCH)
    const escaped = 'x&quot;&gt;&lt;svg/onload=window.__xss=1&gt;'
    const list = await get(`/${pub.path_with_namespace}/-/pipelines`)
    expect(list.text).toContain(`<td><a href="${server.url}/${pub.path_with_namespace}/-/commits/x%22%3E%3Csvg/onload%3Dwindow.__xss%3D1%3E">${escaped}</a></td>`)
    const one = await get(`/${pub.path_with_namespace}/-/pipelines/${made.id}`)
    expect(one.text).toContain(`id="pipeline-ref">${escaped}</a>`)
    for (const text of [list.text, one.text]) expect(text).not.toMatch(/<svg/i)
    await waitForFinished(server, made.id)
  }, 30_000)
})
