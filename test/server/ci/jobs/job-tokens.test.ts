// Job tokens: JOB-TOKEN, job_token and Bearer on the routes GitLab allows, GET /job, git as gitlab-ci-token, the pipeline
// user's rights in the job's own project only, and 401 once the job has ended.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus } from '../../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../../helpers/git-cli.js'
import { fixedClock, startTestServer, type TestServer } from '../../../helpers/server.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld, type Taken } from './fixture.js'

let server: TestServer
let w: CiWorld
let pid: number
let producer: number
let running: Taken
let git: GitCli

const asJob = (token: string) => ({ 'JOB-TOKEN': token })

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  w = await ciWorld(server)
  pid = w.project.id
  git = gitCli()
  const { jobs: [p] } = seedPipeline(w, [jobSpec('produce', 0), jobSpec('consume', 1)], { user: w.developer })
  producer = p.id
  await finish(w, await takeJob(w), { files: { 'out.txt': 'made by produce\n' } })
  running = await takeJob(w)
})
afterAll(async () => {
  git?.cleanup()
  await server?.close()
})

describe('GET /job', () => {
  it('answers the job of the token, from the header, the query or a Bearer', async () => {
    for (const opts of [{ headers: asJob(running.token) }, { query: { job_token: running.token } }, { headers: { Authorization: `Bearer ${running.token}` } }]) {
      const res = expectStatus(await api(server).get('/job', opts), 200)
      expect([res.body.id, res.body.name, res.body.status, res.body.user.username]).toEqual([running.id, 'consume', 'running', w.developer.username])
    }
  })

  it("answers 404 'Job Not Found' to a personal token (also beside a job token) and 401 to no or a wrong token", async () => {
    const pat = await w.developer.api.get('/job')
    expect([pat.status, pat.body]).toEqual([404, { message: '404 Job Not Found' }])
    const both = await w.developer.api.get('/job', { headers: asJob(running.token) })
    expect([both.status, both.body]).toEqual([404, { message: '404 Job Not Found' }])
    for (const headers of [{}, asJob('glcbt-not-a-token')]) {
      const res = await api(server).get('/job', { headers })
      expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
    }
  })
})

describe('routes that take a job token', () => {
  it("downloads another job's artifacts of its pipeline: one file by header, the zip by query parameter", async () => {
    const byId = await api(server).get(`/projects/${pid}/jobs/${producer}/artifacts/out.txt`, { headers: asJob(running.token) })
    expect([byId.status, byId.text]).toEqual([200, 'made by produce\n'])
    const zip = await api(server).get(`/projects/${pid}/jobs/${producer}/artifacts`, { query: { job_token: running.token } })
    expect(zip.status).toBe(200)
  })

  it('reads branches, tags, a commit, a raw file and merge requests of its project', async () => {
    const paths = [
      `/projects/${pid}/repository/branches`, `/projects/${pid}/repository/tags`, `/projects/${pid}/repository/commits/${w.sha}`,
      `/projects/${pid}/repository/files/README.md/raw?ref=main`, `/projects/${pid}/merge_requests`,
    ]
    for (const path of paths) expect([path, (await api(server).get(path, { headers: asJob(running.token) })).status]).toEqual([path, 200])
  })

  it('is not a credential anywhere else: 401 where a user is needed', async () => {
    const calls = [
      ['GET', '/user'], ['GET', `/projects/${pid}/jobs`], ['GET', `/projects/${pid}/variables`], ['PUT', `/projects/${pid}`],
    ]
    for (const [method, path] of calls) {
      const res = await api(server).request(method, path, { headers: asJob(running.token) })
      expect([path, res.status, res.body]).toEqual([path, 401, { message: '401 Unauthorized' }])
    }
  })

  it('posts a commit status of its project, as its user (a deliberate extension of GitLab 17, for CI scripts)', async () => {
    const res = expectStatus(await api(server).post(`/projects/${pid}/statuses/${w.sha}`, { state: 'success', name: 'from-job' }, { headers: asJob(running.token) }), 201)
    expect([res.body.name, res.body.status, res.body.author.username]).toEqual(['from-job', 'success', w.developer.username])
  })

  it("reaches only the job's own project, even one its user may read", async () => {
    const other = await createProject(w.developer.api, { name: 'elsewhere', initialize_with_readme: true })
    expectStatus(await w.developer.api.get(`/projects/${other.id}/repository/branches`), 200)
    const res = await api(server).get(`/projects/${other.id}/repository/branches`, { headers: asJob(running.token) })
    expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    const status = await api(server).post(`/projects/${other.id}/statuses/${w.sha}`, { state: 'success' }, { headers: asJob(running.token) })
    expect([status.status, status.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it("acts with the rights of the pipeline's user", async () => {
    seedPipeline(w, [jobSpec('outsider', 0)], { user: w.stranger })
    const t = await takeJob(w)
    try {
      const res = await api(server).get(`/projects/${pid}/jobs/${producer}/artifacts`, { headers: asJob(t.token) })
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }])
    } finally {
      await finish(w, t)
    }
  })
})

describe('git over HTTP as gitlab-ci-token', () => {
  const repoUrl = (token: string) => urlWithCredentials(server.url, `/${w.project.path_with_namespace}.git`, 'gitlab-ci-token', token)

  it('clones the project while the job runs, and may not push', async () => {
    const dir = join(git.root, 'clone')
    await git.run(git.root, 'clone', '-q', repoUrl(running.token), dir)
    expect(await git.run(dir, 'rev-parse', 'HEAD')).toBe(w.sha)
    await git.commit(dir, 'from a job', { 'job.txt': 'x\n' })
    const push = await git.attempt(dir, 'push', 'origin', 'HEAD:main')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain('You are not allowed to push code to this project.')
  })

  it('takes a personal token under that name too, as GitLab goes on to the other credentials', async () => {
    const url = urlWithCredentials(server.url, `/${w.project.path_with_namespace}.git`, 'gitlab-ci-token', w.reporter.token)
    await git.run(git.root, 'clone', '-q', url, join(git.root, 'by-pat'))
    expect(await git.run(join(git.root, 'by-pat'), 'rev-parse', 'HEAD')).toBe(w.sha)
  })

  it("does not clone another project, even one the pipeline's user may read", async () => {
    const other = await createProject(w.developer.api, { name: 'side', initialize_with_readme: true })
    const url = urlWithCredentials(server.url, `/${other.path_with_namespace}.git`, 'gitlab-ci-token', running.token)
    const clone = await git.attempt(git.root, 'clone', '-q', url, join(git.root, 'side'))
    expect(clone.exitCode).not.toBe(0)
    expect(clone.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.")
  })
})

describe('after the job ends', () => {
  it('answers 401 everywhere, git included', async () => {
    const token = running.token
    await finish(w, running)
    for (const path of ['/job', `/projects/${pid}/jobs/${producer}/artifacts`, `/projects/${pid}/repository/branches`]) {
      const res = await api(server).get(path, { headers: asJob(token) })
      expect([path, res.status, res.body]).toEqual([path, 401, { message: '401 Unauthorized' }])
    }
    const clone = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, `/${w.project.path_with_namespace}.git`, 'gitlab-ci-token', token), join(git.root, 'late'))
    expect(clone.exitCode).not.toBe(0)
    expect(clone.stderr).toContain('HTTP Basic: Access denied')
  })
})
