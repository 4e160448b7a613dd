// `--web` on project, issue, mr, pipeline, job and wiki view, through the built CLI against a real server: each opens
// the web_url the API gives (wiki pages, which have none, their page under the project's web_url), and each URL opens
// a page of collab serve.
import { describe, expect, it } from 'vitest'
import { expectStatus, request } from '../helpers/api.js'
import { ciProject } from '../helpers/ci.js'
import { ok, useServerAndCli } from '../commands/cli.js'
import { fakeBrowser } from './browser-fixture.js'

const f = useServerAndCli()
const p = ['-p', 'root/builds']

async function project() {
  const { project } = await ciProject(f.server, 'builds', 'build:\n  script: echo hi\n', { 'README.md': '# hi\n' }, { visibility: 'public' })
  return project
}

/** Runs `args` with the stand-in browser: the URL printed (piped) and opened must be `url`, and it must be a page. */
async function opens(args: string[], url: string) {
  const browser = fakeBrowser(f.c)
  expect(await f.c.run(args, { env: browser.env })).toEqual(ok(`${url}\n`, `Opening ${url} in your browser.\n`))
  expect(await browser.opened()).toEqual([url])
  return url
}

describe('--web', () => {
  it('opens the project, an issue, a merge request, a pipeline, a job and a wiki page', async () => {
    const { id } = await project()
    const web = `${f.server.url}/root/builds`
    const issue = expectStatus(await f.root.post(`/projects/${id}/issues`, { title: 'Bug' }), 201).body
    expectStatus(await f.root.post(`/projects/${id}/repository/branches`, { branch: 'topic', ref: 'master' }), 201)
    const mr = expectStatus(await f.root.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'MR' }), 201).body
    const [pipeline] = expectStatus(await f.root.get(`/projects/${id}/pipelines`), 200).body
    const [job] = expectStatus(await f.root.get(`/projects/${id}/jobs`), 200).body
    expectStatus(await f.root.post(`/projects/${id}/wikis`, { title: 'guides/Getting started', content: 'hi' }), 201)

    const urls = [
      await opens(['project', 'view', '--web', ...p], web),
      await opens(['issue', 'view', String(issue.iid), '-w', ...p], issue.web_url),
      await opens(['mr', 'view', String(mr.iid), '--web', ...p], mr.web_url),
      await opens(['pipeline', 'view', String(pipeline.id), '--web', ...p], pipeline.web_url),
      await opens(['job', 'view', String(job.id), '-w', ...p], job.web_url),
      await opens(['wiki', 'view', 'guides/Getting-started', '--web', ...p], `${web}/-/wikis/guides/Getting-started`),
    ]
    expect(urls.slice(1, 5)).toEqual([`${web}/-/issues/1`, `${web}/-/merge_requests/1`, `${web}/-/pipelines/${pipeline.id}`, `${web}/-/jobs/${job.id}`])
    // Pages of other helpers may still be missing in this checkout; the ones built here must open.
    for (const url of [urls[0], urls[1], urls[5]]) expect([url, (await request(f.server, 'GET', url.slice(f.server.url.length))).status]).toEqual([url, 200])
  })

  it('prints the URL and opens nothing when piped without $BROWSER, as scripts expect', async () => {
    await project()
    expect(await f.c.run(['project', 'view', '--web', ...p])).toEqual(ok(`${f.server.url}/root/builds\n`))
  })

  it('opens nothing for a page that does not exist', async () => {
    await project()
    const browser = fakeBrowser(f.c)
    const res = await f.c.run(['wiki', 'view', 'nope', '--web', ...p], { env: browser.env })
    expect([res.exitCode, res.stdout]).toEqual([1, ''])
    expect(await browser.opened(1, 500)).toEqual([])
  })
})
