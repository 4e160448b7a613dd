// The Pipelines API: POST /pipeline and its errors, reads, variables, latest, retry, cancel, delete and permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, expectStatus, type TestUser } from '../../../helpers/api.js'
import { ciProject, jobStates, runPipeline } from '../../../helpers/ci.js'
import { commit, create } from '../../../helpers/repository.js'
import { fixedClock, type TestServer } from '../../../helpers/server.js'
import { startCiServer } from '../../../helpers/ci.js'

const NOW = '2024-01-02T03:04:05.000Z'
const TWO_STAGES = `stages: [build, test]
build:
  stage: build
  script: [echo build]
test:
  stage: test
  script: [echo test]
`

let server: TestServer
let reporter: TestUser
let developer: TestUser
let guest: TestUser

beforeAll(async () => {
  server = await startCiServer({ clock: fixedClock(NOW) })
  reporter = await createUser(server, 'reporter1')
  developer = await createUser(server, 'developer1')
  guest = await createUser(server, 'guest1')
})
afterAll(() => server.close())

async function addMembers(root: any, projectId: number) {
  for (const [u, level] of [[reporter, 20], [developer, 30], [guest, 10]] as const) {
    expectStatus(await root.post(`/projects/${projectId}/members`, { user_id: u.id, access_level: level }), 201)
  }
}

describe('POST /projects/:id/pipeline', () => {
  it('creates an api pipeline whose first stage is pending and answers the full entity', async () => {
    const { project, root, sha } = await ciProject(server, 'create-one', TWO_STAGES)
    // The commit that brought the config made a push pipeline first.
    await server.app.tasks.idle()
    const res = expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 201)
    const id = res.body.id
    expect(res.body).toEqual({
      id, iid: 2, project_id: project.id, sha, ref: 'master', status: 'pending', source: 'api', created_at: NOW, updated_at: NOW,
      web_url: `${server.url}/root/create-one/-/pipelines/${id}`, before_sha: '0000000000000000000000000000000000000000', tag: false,
      yaml_errors: null, user: { id: 1, username: 'root', name: 'Administrator', state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/1/identicon.svg`, web_url: `${server.url}/root` },
      started_at: null, finished_at: null, committed_at: expect.any(String), duration: null, queued_duration: null, coverage: null,
      detailed_status: {
        icon: 'status_pending', text: 'pending', label: 'pending', group: 'pending', tooltip: 'pending', has_details: true,
        details_path: `/root/create-one/-/pipelines/${id}`, illustration: null, favicon: '/assets/ci_favicons/favicon_status_pending.png',
      },
    })
    expect(jobStates(server, id)).toEqual(['build:pending', 'test:created'])
  })

  it('keeps the variables given, shown by …/variables', async () => {
    const { project, root } = await ciProject(server, 'with-vars', TWO_STAGES)
    const p = await runPipeline(root, project.id, 'master', [{ key: 'B', value: 'two' }, { key: 'A', value: '1', variable_type: 'file' }])
    const vars = expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}/variables`), 200).body
    expect(vars).toEqual([{ key: 'A', value: '1', variable_type: 'file' }, { key: 'B', value: 'two', variable_type: 'env_var' }])
  })

  it('answers GitLab\'s base errors: unknown ref, missing config, no jobs, filtered by workflow', async () => {
    const { project, root } = await ciProject(server, 'errors', null, { 'README.md': 'hi' })
    const base = async (ref: string) => {
      const res = expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref }), 400)
      return res.body
    }
    expect(await base('nope')).toEqual({ message: { base: ['Reference not found'] } })
    expect(await base('master')).toEqual({ message: { base: ['Missing .gitlab-ci.yml file'] } })
    await commit(root, project.id, { commit_message: 'only pushes', actions: [create('.gitlab-ci.yml', 'job:\n  script: [x]\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\n')] })
    expect(await base('master')).toEqual({ message: { base: ['No stages / jobs for this pipeline.'] } })
    await commit(root, project.id, {
      commit_message: 'workflow', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: 'workflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "other"\njob:\n  script: [x]\n' }],
    })
    expect(await base('master')).toEqual({ message: { base: ['Pipeline filtered out by workflow rules.'] } })
    const list = expectStatus(await root.get(`/projects/${project.id}/pipelines`, { query: { source: 'api' } }), 200).body
    expect(list).toEqual([])
  })

  it('answers a broken config with its error and records nothing', async () => {
    const { project, root } = await ciProject(server, 'broken', 'job: [\n')
    const res = expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 400)
    expect(Object.keys(res.body)).toEqual(['message'])
    expect(res.body.message.base).toHaveLength(1)
    expect(typeof res.body.message.base[0]).toBe('string')
  })

  it('reads the config from the project\'s ci_config_path', async () => {
    const { project, root } = await ciProject(server, 'custom-path', null, { 'ci/pipeline.yml': TWO_STAGES })
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 400)
    expectStatus(await root.put(`/projects/${project.id}`, { ci_config_path: 'ci/pipeline.yml' }), 200)
    const p = await runPipeline(root, project.id)
    expect(jobStates(server, p.id)).toEqual(['build:pending', 'test:created'])
  })

  it('refuses new pipelines in an archived project', async () => {
    const { project, root } = await ciProject(server, 'archived', TWO_STAGES)
    expectStatus(await root.post(`/projects/${project.id}/archive`), 201)
    expect(expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 403).body).toEqual({ message: '403 Forbidden' })
  })

  it('refuses bad input with 400s, never a 500', async () => {
    const { project, root } = await ciProject(server, 'bad-input', TWO_STAGES)
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, {}), 400)
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master', variables: 'nope' }), 400)
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master', variables: [{ key: 'A' }] }), 400)
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master', variables: [{ key: 'A', value: 'b', variable_type: 'bogus' }] }), 400)
    for (const key of ['', 'A B', 'A=B', 'Ä']) {
      expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master', variables: [{ key, value: 'b' }] }), 400)
    }
    for (const ref of ['../etc', 'a\u0000b', 'x'.repeat(1024), 'refs/heads/master', '']) {
      const res = await root.post(`/projects/${project.id}/pipeline`, { ref })
      expect(res.status, ref).toBe(400)
    }
    expectStatus(await root.get(`/projects/${project.id}/pipelines/abc`), 400)
    expectStatus(await root.get(`/projects/${project.id}/pipelines/99999999999999999999`), 400)
  })

  it('ignores [skip ci] in the commit message', async () => {
    const { project, root } = await ciProject(server, 'skip-api', null, { 'a.txt': 'a' })
    await commit(root, project.id, { commit_message: 'add ci [skip ci]', actions: [create('.gitlab-ci.yml', TWO_STAGES)] })
    expect((await runPipeline(root, project.id)).status).toBe('pending')
  })
})

describe('reading, retrying, canceling and deleting', () => {
  it('reads one pipeline, the latest of a ref, and answers 404 Not found for others', async () => {
    const { project, root } = await ciProject(server, 'reads', TWO_STAGES)
    const p = await runPipeline(root, project.id)
    const one = expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 200).body
    expect(one).toEqual(p)
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/latest`), 200).body).toEqual(p)
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/latest`, { query: { ref: 'nope' } }), 404).body).toEqual({ message: '404 Not found' })
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/999999`), 404).body).toEqual({ message: '404 Not found' })
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}/test_report`), 200).body).toEqual({
      total_time: 0, total_count: 0, success_count: 0, failed_count: 0, skipped_count: 0, error_count: 0, test_suites: [],
    })
  })

  it('cancels every waiting job (200) and retries the canceled ones (201)', async () => {
    const { project, root } = await ciProject(server, 'cancel-retry', TWO_STAGES)
    const p = await runPipeline(root, project.id)
    const canceled = expectStatus(await root.post(`/projects/${project.id}/pipelines/${p.id}/cancel`), 200).body
    expect(canceled.status).toBe('canceled')
    expect(canceled.finished_at).toBe(NOW)
    expect(jobStates(server, p.id)).toEqual(['build:canceled', 'test:canceled'])
    // Nothing left to cancel is no error.
    expect(expectStatus(await root.post(`/projects/${project.id}/pipelines/${p.id}/cancel`), 200).body.status).toBe('canceled')
    const retried = expectStatus(await root.post(`/projects/${project.id}/pipelines/${p.id}/retry`), 201).body
    expect(retried.status).toBe('pending')
    expect(retried.finished_at).toBeNull()
    expect(jobStates(server, p.id)).toEqual(['build:pending', 'test:created'])
  })

  it('deletes a pipeline for owners only (204), then answers 404', async () => {
    const { project, root } = await ciProject(server, 'delete', TWO_STAGES)
    await addMembers(root, project.id)
    const p = await runPipeline(root, project.id)
    expect(expectStatus(await developer.api.del(`/projects/${project.id}/pipelines/${p.id}`), 403).body).toEqual({ message: '403 Forbidden' })
    expectStatus(await root.del(`/projects/${project.id}/pipelines/${p.id}`), 204)
    expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 404)
    expect(jobStates(server, p.id)).toEqual([])
  })
})

describe('permissions', () => {
  it('lets reporters read and developers act on a private project', async () => {
    const { project, root } = await ciProject(server, 'private-perms', TWO_STAGES, {}, { visibility: 'private' })
    await addMembers(root, project.id)
    const p = await runPipeline(root, project.id)
    expectStatus(await reporter.api.get(`/projects/${project.id}/pipelines/${p.id}`), 200)
    // GitLab's public_builds (public_jobs, on by default) lets guests read pipelines too: permissions-reads/ci-public-jobs.test.ts.
    expectStatus(await guest.api.get(`/projects/${project.id}/pipelines`), 200)
    expectStatus(await reporter.api.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 403)
    expectStatus(await reporter.api.post(`/projects/${project.id}/pipelines/${p.id}/cancel`), 403)
    // The pipeline runs on master, protected for maintainers: developers may not cancel or retry it.
    expectStatus(await developer.api.post(`/projects/${project.id}/pipelines/${p.id}/cancel`), 403)
    expectStatus(await developer.api.post(`/projects/${project.id}/pipelines/${p.id}/retry`), 403)
    expectStatus(await root.request('PATCH', `/projects/${project.id}/protected_branches/master`, { json: { merge_access_level: 30 } }), 200)
    expectStatus(await developer.api.post(`/projects/${project.id}/pipelines/${p.id}/cancel`), 200)
    expectStatus(await root.request('PATCH', `/projects/${project.id}/protected_branches/master`, { json: { merge_access_level: 40 } }), 200)
    // master is protected for maintainers again: a developer runs pipelines on other branches only.
    expect(expectStatus(await developer.api.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 400).body).toEqual({
      message: { base: ["You do not have sufficient permission to run a pipeline on 'master'. Please select a different branch or contact your administrator for assistance."] },
    })
    expectStatus(await root.post(`/projects/${project.id}/repository/branches`, { branch: 'dev-branch', ref: 'master' }), 201)
    expectStatus(await developer.api.post(`/projects/${project.id}/pipeline`, { ref: 'dev-branch' }), 201)
    expectStatus(await developer.api.get(`/projects/${project.id}/pipelines/${p.id}/variables`), 200)
    expectStatus(await reporter.api.get(`/projects/${project.id}/pipelines/${p.id}/variables`), 403)
    const anonymous = await fetch(`${server.url}/api/v4/projects/${project.id}/pipelines`)
    expect(anonymous.status).toBe(404)
  })

  it('shows a public project\'s pipelines to anyone unless public_jobs is off', async () => {
    const { project, root } = await ciProject(server, 'public-perms', TWO_STAGES, {}, { visibility: 'public' })
    await runPipeline(root, project.id)
    const anonymous = () => fetch(`${server.url}/api/v4/projects/${project.id}/pipelines`)
    expect((await anonymous()).status).toBe(200)
    expectStatus(await root.put(`/projects/${project.id}`, { public_jobs: false }), 200)
    expect((await anonymous()).status).toBe(403)
    expectStatus(await guest.api.get(`/projects/${project.id}/pipelines`), 403)
  })

  it('refuses pipelines of a project with CI turned off', async () => {
    const { project, root } = await ciProject(server, 'no-jobs', TWO_STAGES)
    expectStatus(await root.put(`/projects/${project.id}`, { jobs_enabled: false }), 200)
    expectStatus(await root.get(`/projects/${project.id}/pipelines`), 403)
  })
})
