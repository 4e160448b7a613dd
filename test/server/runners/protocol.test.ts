// The runner protocol over raw HTTP, as gitlab-runner speaks it (spec/compat-runner.md): a runner created through the
// API takes a pending job, reports it running, appends its log by byte offset, uploads artifacts and finishes it.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import yazl from 'yazl'
import { api, createUser, expectStatus, request, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let alice: TestUser

const runnerCall = (method: string, path: string, json: unknown, headers: Record<string, string> = {}) =>
  request(server, method, `/api/v4${path}`, { json, headers })

async function instanceRunner(settings: Record<string, unknown> = {}) {
  return expectStatus(await root.post('/user/runners', { runner_type: 'instance_type', ...settings }), 201).body as { id: number; token: string }
}

function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name)
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
  })
}

function multipart(field: string, filename: string, data: Buffer) {
  const boundary = 'collab-runner-test-boundary'
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/zip\r\n\r\n`),
    data, Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { body, type: `multipart/form-data; boundary=${boundary}` }
}

/** The pipeline the project's first push made (ciProject's commit), whose jobs wait for a runner. */
const pushPipeline = async (projectId: number) => (await projectPipelines(server, root, projectId))[0] as { id: number }

beforeAll(async () => {
  server = await startCiServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

describe('runner creation and the Runners API', () => {
  it('creates an instance runner for an administrator only, with a glrt- token shown once', async () => {
    const denied = await alice.api.post('/user/runners', { runner_type: 'instance_type' })
    expect(denied.status).toBe(403)
    const created = await instanceRunner({ description: 'shell one', tag_list: 'linux,docker', run_untagged: false })
    expect(created.token).toMatch(/^glrt-/)
    const shown = expectStatus(await root.get(`/runners/${created.id}`), 200).body
    expect(shown).toMatchObject({
      id: created.id, description: 'shell one', runner_type: 'instance_type', is_shared: true, paused: false, active: true,
      tag_list: ['docker', 'linux'], run_untagged: false, access_level: 'not_protected', status: 'never_contacted', online: false,
    })
    expect(JSON.stringify(shown)).not.toContain(created.token)
  })

  it('lets a Maintainer create, list and remove a project runner; others get 403', async () => {
    const p = expectStatus(await alice.api.post('/projects', { name: 'runner-owned' }), 201).body
    const created = expectStatus(await alice.api.post('/user/runners', { runner_type: 'project_type', project_id: p.id }), 201).body
    const listed = expectStatus(await alice.api.get(`/projects/${p.id}/runners`, { query: { type: 'project_type' } }), 200).body
    expect(listed.map((r: { id: number }) => r.id)).toEqual([created.id])
    expect(expectStatus(await alice.api.get('/runners'), 200).body.map((r: { id: number }) => r.id)).toEqual([created.id])
    const bob = await createUser(server, 'bob-runners')
    expect((await bob.api.get(`/runners/${created.id}`)).status).toBe(403)
    expect((await bob.api.put(`/runners/${created.id}`, { paused: true })).status).toBe(403)
    expect(expectStatus(await alice.api.put(`/runners/${created.id}`, { paused: true, maximum_timeout: 3600 }), 200).body)
      .toMatchObject({ paused: true, active: false, maximum_timeout: 3600 })
    const tooShort = await alice.api.put(`/runners/${created.id}`, { maximum_timeout: 60 })
    expect(tooShort.status).toBe(400)
    expectStatus(await alice.api.del(`/runners/${created.id}`), 204)
    expect((await root.get(`/runners/${created.id}`)).status).toBe(404)
  })

  it('registers a runner with the instance registration token (legacy flow); verify and unregister by its token', async () => {
    const reg = expectStatus(await root.post('/runners/reset_registration_token'), 201).body.token as string
    expect((await runnerCall('POST', '/runners', { token: 'wrong' })).status).toBe(403)
    const r = expectStatus(await runnerCall('POST', '/runners', { token: reg, description: 'legacy', tag_list: 'a,b', info: { version: '17.0.0' } }), 201).body
    expect(r.token).toMatch(/^glrt-/)
    expect(expectStatus(await root.get(`/runners/${r.id}`), 200).body).toMatchObject({ description: 'legacy', tag_list: ['a', 'b'], version: '17.0.0' })
    expect((await runnerCall('POST', '/runners/verify', { token: r.token })).status).toBe(200)
    expectStatus(await runnerCall('DELETE', '/runners', { token: r.token }), 204)
    expect((await runnerCall('POST', '/runners/verify', { token: r.token })).status).toBe(403)
  })
})

describe('a job through the protocol', () => {
  it('hands a pending job to a runner with its payload, takes its log by offset, its artifacts, and its end', async () => {
    const yaml = 'build:\n  script: [echo hi]\n  variables:\n    CACHE_DIR: "$CI_PROJECT_DIR/.cache"\n  artifacts:\n    paths: [out.txt]\n'
    const { project } = await ciProject(server, 'protocol-demo', yaml)
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'SECRET_TOKEN', value: 'hunter2-very-secret', masked: true }), 201)
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'RAW_ONE', value: 'a$CACHE_DIR', raw: true }), 201)
    const pipeline = await pushPipeline(project.id)
    const runner = await instanceRunner()
    const got = await runnerCall('POST', '/jobs/request', { token: runner.token, info: { name: 'test', version: '17.0.0', executor: 'shell' } })
    expect(got.status).toBe(201)
    expect(got.headers.get('content-type')).toBe('application/json')
    const job = got.body
    expect(job.id).toBe(jobNamed(server, pipeline.id, 'build').id)
    expect(job.token).toMatch(/^glcbt-/)
    expect(job.git_info).toMatchObject({ ref: 'master', ref_type: 'branch', refspecs: ['+refs/heads/master:refs/remotes/origin/master'], repo_object_format: 'sha1' })
    expect(job.git_info.repo_url).toBe(`${server.url.replace('//', `//gitlab-ci-token:${job.token}@`)}/root/protocol-demo.git`)
    expect(job.steps[0]).toMatchObject({ name: 'script', script: ['echo hi'], when: 'on_success', allow_failure: false })
    expect(job.variables).toContainEqual({ key: 'SECRET_TOKEN', value: 'hunter2-very-secret', public: false, masked: true, file: false, raw: false })
    // As GitLab sends them: raw flagged, and what only the runner knows left for it to expand (it sets CI_PROJECT_DIR).
    expect(job.variables).toContainEqual({ key: 'RAW_ONE', value: 'a$CACHE_DIR', public: false, masked: false, file: false, raw: true })
    expect(job.variables).toContainEqual({ key: 'CACHE_DIR', value: '$CI_PROJECT_DIR/.cache', public: true, masked: false, file: false, raw: false })
    expect(job.variables.filter((v: { key: string }) => ['CI_PROJECT_DIR', 'CI_BUILDS_DIR'].includes(v.key))).toEqual([])
    expect(job.variables).toContainEqual(expect.objectContaining({ key: 'CI_JOB_TOKEN', value: job.token }))
    expect(JSON.stringify(job)).not.toContain(server.dataDir)
    // Nothing else is pending: no job, and the queue's state to send back next time.
    const none = await runnerCall('POST', '/jobs/request', { token: runner.token })
    expect(none.status).toBe(204)
    expect(none.headers.get('x-gitlab-last-update')).toMatch(/^\d+$/)

    const auth = { 'JOB-TOKEN': job.token }
    expect(expectStatus(await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'running' }), 200).text).toBe('200')
    const trace = (start: number, text: string) => request(server, 'PATCH', `/api/v4/jobs/${job.id}/trace`, {
      body: text, headers: { ...auth, 'Content-Type': 'text/plain', 'Content-Range': `${start}-${start + Buffer.byteLength(text) - 1}` },
    })
    const first = await trace(0, 'hello ')
    expect(first.status).toBe(202)
    expect(first.headers.get('range')).toBe('0-6')
    expect(first.headers.get('job-status')).toBe('running')
    const wrong = await trace(3, 'again')
    expect(wrong.status).toBe(416)
    expect(wrong.headers.get('range')).toBe('0-6')
    // The runner masks before it sends (the payload says which values); the server keeps the bytes as sent, so its
    // Range always equals what the runner counted.
    expect(expectStatus(await trace(6, 'world [MASKED]\n'), 202).headers.get('range')).toBe('0-21')

    const zip = await zipOf({ 'out.txt': 'built\n' })
    const form = multipart('file', 'artifacts.zip', zip)
    const uploaded = await request(server, 'POST', `/api/v4/jobs/${job.id}/artifacts`, { query: { artifact_format: 'zip', artifact_type: 'archive' }, body: form.body, headers: { ...auth, 'Content-Type': form.type } })
    expect(uploaded.status).toBe(201)
    expect(expectStatus(await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success', exit_code: 0 }), 200).headers.get('job-status')).toBe('success')

    await waitForFinished(server, pipeline.id)
    const shown = expectStatus(await root.get(`/projects/${project.id}/jobs/${job.id}`), 200).body
    expect(shown).toMatchObject({ status: 'success', runner: expect.objectContaining({ id: runner.id }) })
    const log = expectStatus(await root.get(`/projects/${project.id}/jobs/${job.id}/trace`), 200).text
    expect(log).toBe('hello world [MASKED]\n')
    const artifact = await root.get(`/projects/${project.id}/jobs/${job.id}/artifacts/out.txt`)
    expect(artifact.text).toBe('built\n')
    // The token died with the job: runner routes answer 403, which is what stops gitlab-runner.
    expect((await trace(21, 'late')).status).toBe(403)
    expect((await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).status).toBe(403)
    const listed = expectStatus(await root.get(`/runners/${runner.id}/jobs`), 200).body
    expect(listed.map((j: { id: number }) => j.id)).toEqual([job.id])
  })

  it('holds a request that knows the latest queue state until a job arrives', async () => {
    const { project } = await ciProject(server, 'long-poll-demo', null, { 'README.md': 'poll\n' })
    const runner = await instanceRunner({ tag_list: ['long-poll'], run_untagged: false })
    const idle = expectStatus(await runnerCall('POST', '/jobs/request', { token: runner.token }), 204)
    const lastUpdate = idle.headers.get('x-gitlab-last-update')!
    const waiting = runnerCall('POST', '/jobs/request', { token: runner.token, last_update: lastUpdate })
    const ci = 'poll:\n  tags: [long-poll]\n  script: [echo polled]\n'
    expectStatus(await root.post(`/projects/${project.id}/repository/commits`, {
      branch: 'master', commit_message: 'Add CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }],
    }), 201)
    const got = await waiting
    expect(got.status).toBe(201)
    expect(got.body.job_info).toMatchObject({ name: 'poll', project_id: project.id })
  })

  it('answers 400, not a server error, to artifacts that are no zip', async () => {
    const { project } = await ciProject(server, 'bad-zip-demo', 'zipper:\n  tags: [bad-zip]\n  script: [echo z]\n')
    const runner = await instanceRunner({ tag_list: ['bad-zip'], run_untagged: false })
    const job = expectStatus(await runnerCall('POST', '/jobs/request', { token: runner.token }), 201).body
    expect(job.job_info.project_id).toBe(project.id)
    const form = multipart('file', 'artifacts.zip', Buffer.from('this is not a zip archive'))
    const answer = await request(server, 'POST', `/api/v4/jobs/${job.id}/artifacts`, { body: form.body, headers: { 'JOB-TOKEN': job.token, 'Content-Type': form.type } })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ message: '400 Bad request - the artifacts archive is not a zip file' })
  })

  it('streams artifacts to disk and refuses an archive over max_artifacts_size with 413', async () => {
    const { project } = await ciProject(server, 'big-zip-demo', 'bigzip:\n  tags: [big-zip]\n  script: [echo z]\n')
    const runner = await instanceRunner({ tag_list: ['big-zip'], run_untagged: false })
    const job = expectStatus(await runnerCall('POST', '/jobs/request', { token: runner.token }), 201).body
    expect(job.job_info.project_id).toBe(project.id)
    expectStatus(await root.put('/application/settings', { max_artifacts_size: 1 }), 200)
    try {
      const form = multipart('file', 'artifacts.zip', Buffer.alloc(1024 * 1024 + 1, 'x'))
      const answer = await request(server, 'POST', `/api/v4/jobs/${job.id}/artifacts`, { body: form.body, headers: { 'JOB-TOKEN': job.token, 'Content-Type': form.type } })
      expect(answer.status).toBe(413)
    } finally {
      expectStatus(await root.put('/application/settings', { max_artifacts_size: 100 }), 200)
    }
    // Nothing of the refused upload is left beside the artifacts.
    expect(readdirSync(join(server.dataDir, 'artifacts')).filter((n) => n.startsWith('.incoming-'))).toEqual([])
  })

  it('refuses an unknown runner token with 403', async () => {
    expect((await runnerCall('POST', '/jobs/request', { token: 'glrt-nope' })).status).toBe(403)
  })

  it('gives tagged jobs only to runners with every tag, and one job to one runner', async () => {
    const { project } = await ciProject(server, 'tags-demo', 'tagged:\n  tags: [gpu]\n  script: [nvidia-smi]\nplain:\n  script: [echo plain]\n')
    const pipeline = await pushPipeline(project.id)
    const untaggedOnly = await instanceRunner()
    const gpu = await instanceRunner({ tag_list: ['gpu'], run_untagged: false })
    const forGpu = await runnerCall('POST', '/jobs/request', { token: gpu.token })
    expect(forGpu.status).toBe(201)
    expect(forGpu.body.id).toBe(jobNamed(server, pipeline.id, 'tagged').id)
    // Two runners ask at once for the one untagged job left: exactly one gets it.
    const other = await instanceRunner()
    const answers = await Promise.all([untaggedOnly, other].map((r) => runnerCall('POST', '/jobs/request', { token: r.token })))
    expect(answers.map((a) => a.status).sort()).toEqual([201, 204])
    expect(answers.find((a) => a.status === 201)!.body.id).toBe(jobNamed(server, pipeline.id, 'plain').id)
  })

  it('tells the runner a canceled job is canceled in Job-Status', async () => {
    const { project } = await ciProject(server, 'cancel-demo', 'long:\n  script: [sleep 100]\n')
    const pipeline = await pushPipeline(project.id)
    const runner = await instanceRunner({ tag_list: ['cancel-only'], run_untagged: true })
    const job = expectStatus(await runnerCall('POST', '/jobs/request', { token: runner.token }), 201).body
    expect(job.id).toBe(jobNamed(server, pipeline.id, 'long').id)
    expectStatus(await root.post(`/projects/${project.id}/jobs/${job.id}/cancel`), 201)
    const patched = await request(server, 'PATCH', `/api/v4/jobs/${job.id}/trace`, {
      body: 'x', headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': '0-0' },
    })
    expect(patched.status).toBe(202)
    expect(patched.headers.get('job-status')).toBe('canceled')
    expect(expectStatus(await runnerCall('PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed', failure_reason: 'script_failure' }), 200)
      .headers.get('job-status')).toBe('canceled')
  })
})
