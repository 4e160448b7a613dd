// The variables a job receives: GitLab's predefined CI_* set, project variables (protected ones on protected refs
// only, masked ones masked), pipeline variables, the job's own expanded, and CI_MERGE_REQUEST_* on MR pipelines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import type { JobPayload } from '../../../../src/server/ci/runner/protocol.js'
import { expectStatus } from '../../../helpers/api.js'
import { ciProject, jobStates, runPipeline, startCiServer } from '../../../helpers/ci.js'
import { commit, create } from '../../../helpers/repository.js'
import { fixedClock, type TestServer } from '../../../helpers/server.js'

const NOW = '2024-01-02T03:04:05.000Z'
let server: TestServer
let coordinator: ReturnType<typeof createCoordinator>

beforeAll(async () => {
  server = await startCiServer({ clock: fixedClock(NOW) })
  coordinator = createCoordinator(server.app)
})
afterAll(() => server.close())

/** The queued job of `pipelineId` named `name`; jobs of other pipelines met on the way are canceled. */
async function takeJob(pipelineId: number, name: string): Promise<JobPayload> {
  await server.app.tasks.idle()
  for (;;) {
    const p = await coordinator.requestJob({ id: 'vars', concurrency: 1 })
    if (!p) throw new Error(`no queued job ${name} in pipeline ${pipelineId}`)
    if (p.job_info.name === name && p.variables.some((v) => v.key === 'CI_PIPELINE_ID' && v.value === String(pipelineId))) return p
    await coordinator.updateJob(p.id, p.token, { state: 'canceled' })
  }
}

const valuesOf = (p: JobPayload) => Object.fromEntries(p.variables.map((v) => [v.key, v.value]))

const CONFIG = `job:
  script: [x]
  variables:
    GREETING: "hi $CI_PROJECT_NAME from \${CI_COMMIT_REF_NAME}"
    DOLLAR: "$$HOME"
    FROM_PROJECT: "saw $PLAIN_ONE"
    PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"
`

describe('job variables', () => {
  it('sets the predefined variables of compat-notes §6', async () => {
    const { project, root, sha } = await ciProject(server, 'predefined', CONFIG)
    const p = await runPipeline(root, project.id)
    const job = await takeJob(p.id, 'job')
    const v = valuesOf(job)
    const base = server.url
    const u = new URL(base)
    expect(v).toMatchObject({
      CI: 'true', GITLAB_CI: 'true', CI_SERVER: 'yes', CI_SERVER_URL: base, CI_SERVER_HOST: u.hostname, CI_SERVER_PORT: u.port,
      CI_SERVER_PROTOCOL: 'http', CI_SERVER_FQDN: u.hostname, CI_SERVER_NAME: 'GitLab', CI_SERVER_VERSION: '17.0.0',
      CI_SERVER_VERSION_MAJOR: '17', CI_SERVER_VERSION_MINOR: '0', CI_SERVER_VERSION_PATCH: '0', CI_API_V4_URL: `${base}/api/v4`,
      CI_PROJECT_ID: String(project.id), CI_PROJECT_NAME: 'predefined', CI_PROJECT_PATH: 'root/predefined', CI_PROJECT_PATH_SLUG: 'root-predefined',
      CI_PROJECT_NAMESPACE: 'root', CI_PROJECT_ROOT_NAMESPACE: 'root', CI_PROJECT_URL: `${base}/root/predefined`, CI_PROJECT_TITLE: 'predefined',
      CI_PROJECT_VISIBILITY: 'private', CI_DEFAULT_BRANCH: 'master', CI_CONFIG_PATH: '.gitlab-ci.yml',
      CI_COMMIT_SHA: sha, CI_COMMIT_SHORT_SHA: sha.slice(0, 8), CI_COMMIT_REF_NAME: 'master', CI_COMMIT_REF_SLUG: 'master',
      CI_COMMIT_BRANCH: 'master', CI_COMMIT_BEFORE_SHA: '0000000000000000000000000000000000000000', CI_COMMIT_MESSAGE: 'Initial commit\n',
      CI_COMMIT_TITLE: 'Initial commit', CI_COMMIT_DESCRIPTION: '', CI_COMMIT_AUTHOR: 'Administrator <root@localhost>', CI_COMMIT_REF_PROTECTED: 'true',
      CI_PIPELINE_ID: String(p.id), CI_PIPELINE_IID: String(p.iid), CI_PIPELINE_SOURCE: 'api', CI_PIPELINE_URL: `${base}/root/predefined/-/pipelines/${p.id}`,
      CI_PIPELINE_CREATED_AT: '2024-01-02T03:04:05Z',
      CI_JOB_ID: String(job.id), CI_JOB_NAME: 'job', CI_JOB_NAME_SLUG: 'job', CI_JOB_STAGE: 'test', CI_JOB_URL: `${base}/root/predefined/-/jobs/${job.id}`,
      CI_JOB_TOKEN: job.token, CI_JOB_STARTED_AT: '2024-01-02T03:04:05Z', CI_JOB_STATUS: 'running', CI_NODE_TOTAL: '1',
      CI_REPOSITORY_URL: `http://gitlab-ci-token:${job.token}@${u.host}/root/predefined.git`, CI_REGISTRY_USER: 'gitlab-ci-token', CI_REGISTRY_PASSWORD: job.token,
      GITLAB_USER_ID: '1', GITLAB_USER_LOGIN: 'root', GITLAB_USER_NAME: 'Administrator',
      GREETING: 'hi predefined from master',
      // Left for the runner, as GitLab sends them: `$$` is its escape, and CI_PROJECT_DIR is where it puts the job.
      DOLLAR: '$$HOME', PIP_CACHE_DIR: '$CI_PROJECT_DIR/.cache/pip',
    })
    expect([v.CI_COMMIT_TAG, v.CI_PROJECT_DIR, v.CI_BUILDS_DIR]).toEqual([undefined, undefined, undefined])
    expect(job.git_info).toEqual({
      repo_url: `http://gitlab-ci-token:${job.token}@${u.host}/root/predefined.git`, ref: 'master', sha,
      before_sha: '0000000000000000000000000000000000000000', ref_type: 'branch', refspecs: ['+refs/heads/master:refs/remotes/origin/master'], depth: 20,
    })
    const masked = job.variables.filter((x) => x.masked).map((x) => x.key)
    expect(masked).toEqual(['CI_JOB_TOKEN', 'CI_REGISTRY_PASSWORD'])
  })

  it('adds project variables (protected only on protected refs, masked kept masked) and pipeline variables', async () => {
    const { project, root } = await ciProject(server, 'project-vars', CONFIG)
    const add = async (body: Record<string, unknown>) => expectStatus(await root.post(`/projects/${project.id}/variables`, body), 201)
    await add({ key: 'PLAIN_ONE', value: 'plain' })
    await add({ key: 'SECRET_ONE', value: 'sekrit-value', masked: true })
    await add({ key: 'PROTECTED_ONE', value: 'guarded', protected: true })
    await add({ key: 'A_FILE', value: 'file body', variable_type: 'file' })
    await commit(root, project.id, { branch: 'feature', start_branch: 'master', commit_message: 'f', actions: [create('f', 'f')] })
    const onMaster = await runPipeline(root, project.id, 'master', [{ key: 'PIPE_VAR', value: 'from pipeline $PLAIN_ONE' }])
    const master = await takeJob(onMaster.id, 'job')
    const mv = valuesOf(master)
    expect([mv.PLAIN_ONE, mv.SECRET_ONE, mv.PROTECTED_ONE, mv.A_FILE, mv.PIPE_VAR, mv.FROM_PROJECT]).toEqual(['plain', 'sekrit-value', 'guarded', 'file body', 'from pipeline plain', 'saw plain'])
    expect(master.variables.find((x) => x.key === 'SECRET_ONE')).toEqual({ key: 'SECRET_ONE', value: 'sekrit-value', public: false, masked: true, file: false })
    expect(master.variables.find((x) => x.key === 'A_FILE')?.file).toBe(true)
    const onFeature = await runPipeline(root, project.id, 'feature')
    const fv = valuesOf(await takeJob(onFeature.id, 'job'))
    expect([fv.PLAIN_ONE, fv.PROTECTED_ONE, fv.CI_COMMIT_REF_PROTECTED]).toEqual(['plain', undefined, 'false'])
  })

  it('lets project variables win over the YAML, pipeline variables over both, and a play over all (GitLab precedence)', async () => {
    const yaml = `job:\n  script: [x]\n  variables:\n    LEVEL: yaml\n    BOTH: yaml\n    ALL: yaml\n    REFERS: "sees $LEVEL"\nmanual:\n  script: [x]\n  when: manual\n  variables:\n    ALL: yaml\n`
    const { project, root } = await ciProject(server, 'precedence', yaml)
    for (const key of ['LEVEL', 'BOTH', 'ALL']) expectStatus(await root.post(`/projects/${project.id}/variables`, { key, value: 'project' }), 201)
    const p = await runPipeline(root, project.id, 'master', [{ key: 'BOTH', value: 'pipeline' }, { key: 'ALL', value: 'pipeline' }])
    const v = valuesOf(await takeJob(p.id, 'job'))
    expect([v.LEVEL, v.BOTH, v.ALL, v.REFERS]).toEqual(['project', 'pipeline', 'pipeline', 'sees project'])
    const manual = expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}/jobs`), 200).body.find((j: { name: string }) => j.name === 'manual')
    expectStatus(await root.post(`/projects/${project.id}/jobs/${manual.id}/play`, { job_variables_attributes: [{ key: 'ALL', value: 'play' }] }), 200)
    expect(valuesOf(await takeJob(p.id, 'manual')).ALL).toBe('play')
  })

  it('lets rules see project and pipeline variables', async () => {
    const config = 'gated:\n  script: [x]\n  rules:\n    - if: $DEPLOY_ON == "yes" || $FORCE == "1"\nalways:\n  script: [x]\n'
    const { project, root } = await ciProject(server, 'rule-vars', config)
    const names = (p: { id: number }) => jobStates(server, p.id).map((j) => j.split(':')[0])
    expect(names(await runPipeline(root, project.id))).toEqual(['always'])
    expect(names(await runPipeline(root, project.id, 'master', [{ key: 'FORCE', value: '1' }]))).toEqual(['gated', 'always'])
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'DEPLOY_ON', value: 'yes' }), 201)
    expect(names(await runPipeline(root, project.id))).toEqual(['gated', 'always'])
  })

  it('describes the merge request on merge_request_event pipelines', async () => {
    const { project, root } = await ciProject(server, 'mr-vars', 'check:\n  script: [x]\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n')
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t', 't')] })
    const mr = expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic MR' }), 201).body
    await server.app.tasks.idle()
    const list = expectStatus(await root.get(`/projects/${project.id}/pipelines`, { query: { source: 'merge_request_event' } }), 200).body
    const v = valuesOf(await takeJob(list[0].id, 'check'))
    expect(v).toMatchObject({
      CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_ID: String(mr.id), CI_MERGE_REQUEST_IID: String(mr.iid), CI_MERGE_REQUEST_TITLE: 'Topic MR',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'topic', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'master', CI_MERGE_REQUEST_PROJECT_PATH: 'root/mr-vars',
      CI_COMMIT_REF_NAME: 'topic',
    })
  })
})
