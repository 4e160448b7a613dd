// Pipeline, job and wiki page hooks from the real CI runner and wiki services; a server closes promptly with a delivery
// hanging; `collab serve` on loopback allows local hooks unless an administrator decided.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus } from '../../helpers/api.js'
import { ciProject, startCiServer, waitForFinished } from '../../helpers/ci.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { startServer } from '../../../src/server/serve.js'
import { configureDeliveries, deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'
import { startReceiver, type Receiver } from './receiver.js'

let rx: Receiver
beforeAll(async () => { rx = await startReceiver() })
afterAll(() => rx.close())

const allowLocal = (server: TestServer) =>
  api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }).then((r) => expectStatus(r, 200))

describe('CI hooks', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startCiServer({ runner: true })
    await allowLocal(server)
  })
  afterAll(() => server.close())

  it('delivers Job Hooks when a job starts and finishes, and Pipeline Hooks when the pipeline starts and finishes', async () => {
    rx.received.length = 0
    const { project, root } = await ciProject(server, 'ci-hooks', null, { 'README.md': 'ci\n' })
    expectStatus(await root.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/ci`, push_events: false, pipeline_events: true, job_events: true }), 201)
    const yaml = 'build:\n  stage: build\n  script: echo built\n'
    expectStatus(await root.post(`/projects/${project.id}/repository/commits`, {
      branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: yaml }],
    }), 201)
    await server.app.tasks.idle()
    const [pipeline] = expectStatus(await root.get(`/projects/${project.id}/pipelines`), 200).body
    await waitForFinished(server, pipeline.id)
    // Running and finished, for the job and for the pipeline (its one job started it).
    const got = await rx.waitFor(4, 15_000)
    const seen = (event: string, status: (r: any) => string) => got.filter((r) => r.headers['x-gitlab-event'] === event).map((r) => status(r.body)).sort()
    expect(seen('Job Hook', (b) => b.build_status)).toEqual(['running', 'success'])
    expect(seen('Pipeline Hook', (b) => b.object_attributes.status)).toEqual(['running', 'success'])
    const job = got.find((r) => r.headers['x-gitlab-event'] === 'Job Hook' && r.body.build_status === 'success')!
    const pipe = got.find((r) => r.headers['x-gitlab-event'] === 'Pipeline Hook' && r.body.object_attributes.status === 'success')!
    expect(job.body).toMatchObject({
      object_kind: 'build', ref: 'master', build_name: 'build', build_stage: 'build', build_status: 'success', pipeline_id: pipeline.id,
      project_id: project.id, build_allow_failure: false, commit: { id: pipeline.id, sha: pipeline.sha, status: expect.any(String) },
    })
    expect(pipe.body).toMatchObject({
      object_kind: 'pipeline',
      object_attributes: { id: pipeline.id, ref: 'master', sha: pipeline.sha, status: 'success', detailed_status: 'passed', stages: ['build'], tag: false,
        url: `${server.url}/root/ci-hooks/-/pipelines/${pipeline.id}` },
      commit: { id: pipeline.sha, title: 'ci' },
      builds: [{ name: 'build', stage: 'build', status: 'success', manual: false, allow_failure: false }],
    })
  })
})

describe('wiki and shutdown', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    await allowLocal(server)
  })

  it('delivers Wiki Page Hooks for create, update and delete', async () => {
    rx.received.length = 0
    const alice = await createUser(server, 'alice')
    const project = await createProject(alice.api, { name: 'docs' })
    expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/wiki`, push_events: false, wiki_page_events: true }), 201)
    expectStatus(await alice.api.post(`/projects/${project.id}/wikis`, { title: 'Getting started', content: 'Hello' }), 201)
    expectStatus(await alice.api.put(`/projects/${project.id}/wikis/Getting-started`, { content: 'Hello again' }), 200)
    expectStatus(await alice.api.del(`/projects/${project.id}/wikis/Getting-started`), 204)
    const got = await rx.waitFor(3)
    expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.object_attributes.action, r.body.object_attributes.content])).toEqual([
      ['Wiki Page Hook', 'create', 'Hello'], ['Wiki Page Hook', 'update', 'Hello again'], ['Wiki Page Hook', 'delete', ''],
    ])
    expect(got[0].body).toMatchObject({
      object_kind: 'wiki_page', wiki: { path_with_namespace: 'alice/docs.wiki', web_url: `${server.url}/alice/docs/-/wikis/home` },
      object_attributes: { title: 'Getting started', slug: 'Getting-started', format: 'markdown', url: `${server.url}/alice/docs/-/wikis/Getting-started` },
    })
  })

  // A close that waited for the hanging delivery would wait out its ten-minute deadline and so the test's own timeout.
  it('closes while a delivery hangs, without waiting for its deadline', async () => {
    configureDeliveries(server.app, { timeoutMs: 600_000 })
    rx.received.length = 0
    rx.script('hang')
    const alice = api(server, server.rootToken)
    const project = await createProject(alice, { name: 'hang' })
    expectStatus(await alice.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hang`, push_events: false, issues_events: true }), 201)
    expectStatus(await alice.post(`/projects/${project.id}/issues`, { title: 'x' }), 201)
    await rx.waitFor(1)
    await server.close()
    await deliveriesIdle(server.app)
    expect(rx.received).toHaveLength(1)
  })
})

describe('collab serve', () => {
  it('on loopback leaves local hooks off, as GitLab does, and keeps an administrator\'s choice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'collab-hooks-serve-'))
    try {
      const opts = { host: '127.0.0.1', port: 0, dataDir, rootToken: 'glpat-hooks-serve-token-000000000', log: () => {}, runner: { enabled: false } }
      let s = await startServer(opts)
      const get = async () => (await fetch(`${s.url}/api/v4/application/settings`, { headers: { 'PRIVATE-TOKEN': opts.rootToken } }).then((r) => r.json()) as any).allow_local_requests_from_hooks_and_services
      expect(await get()).toBe(false)
      await fetch(`${s.url}/api/v4/application/settings?allow_local_requests_from_hooks_and_services=true`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': opts.rootToken } })
      await s.close()
      s = await startServer(opts)
      expect(await get()).toBe(true)
      await s.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
