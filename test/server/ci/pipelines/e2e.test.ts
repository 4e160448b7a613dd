// End to end with the built-in shell executor: a push runs real jobs that pass artifacts on, call the API with the
// job token, post a commit status, report coverage, and keep a masked variable out of the trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrace } from '../../../../src/server/ci/traces.js'
import { expectStatus } from '../../../helpers/api.js'
import { ciProject, jobNamed, jobStates, projectPipelines, startCiServer, waitForFinished } from '../../../helpers/ci.js'
import type { TestServer } from '../../../helpers/server.js'

const CONFIG = `stages: [build, report]
build:
  stage: build
  script:
    - mkdir -p out
    - echo "hello $CI_COMMIT_SHORT_SHA" > out/greeting.txt
    - 'echo "Coverage: 75.5%"'
  coverage: '/Coverage: (\\d+\\.\\d+)%/'
  artifacts:
    paths: [out/]
report:
  stage: report
  script:
    - test "$(cat out/greeting.txt)" = "hello $CI_COMMIT_SHORT_SHA"
    - 'curl -sf -H "JOB-TOKEN: $CI_JOB_TOKEN" "$CI_API_V4_URL/job" | grep -q ''"name":"report"'''
    - echo "secret is $STATUS_TOKEN"
    - 'curl -sf -X POST -H "PRIVATE-TOKEN: $STATUS_TOKEN" "$CI_API_V4_URL/projects/$CI_PROJECT_ID/statuses/$CI_COMMIT_SHA?state=success&name=from-job&ref=$CI_COMMIT_REF_NAME" > /dev/null'
    - 'curl -sf -X POST -H "JOB-TOKEN: $CI_JOB_TOKEN" "$CI_API_V4_URL/projects/$CI_PROJECT_ID/statuses/$CI_COMMIT_SHA?state=success&name=with-job-token&ref=$CI_COMMIT_REF_NAME" > /dev/null'
`

let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ runner: true })
})
afterAll(() => server.close())

describe('the built-in runner', () => {
  it('runs a pushed pipeline to success: artifacts passed on, job token and API calls, coverage, masking', async () => {
    // The variable must exist before the commit that brings the config starts the pipeline.
    const { project, root, sha } = await ciProject(server, 'e2e', null, { 'README.md': 'x' })
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'STATUS_TOKEN', value: server.rootToken, masked: true }), 201)
    const added = expectStatus(await root.post(`/projects/${project.id}/repository/commits`, {
      branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG }],
    }), 201).body
    expect(added.parent_ids).toEqual([sha])
    const [p] = await projectPipelines(server, root, project.id)
    const done = await waitForFinished(server, p.id, 60_000)
    expect(done.yaml_errors).toBeNull()
    const report = jobNamed(server, p.id, 'report')
    const trace = (await readTrace(server.app.layout, report.id)).toString('utf8')
    expect(done.status, trace).toBe('success')
    expect(jobStates(server, p.id)).toEqual(['build:success', 'report:success'])
    expect(trace).toContain('secret is [MASKED]')
    expect(trace).not.toContain(server.rootToken)
    expect(done.coverage).toBe('75.50')
    expect(jobNamed(server, p.id, 'build').artifacts_file).not.toBeNull()
    expect(report.token_hash).toBeNull()
    const statuses = expectStatus(await root.get(`/projects/${project.id}/repository/commits/${added.id}/statuses`), 200).body
    expect(statuses.map((s: any) => [s.name, s.status, s.pipeline_id])).toEqual([['build', 'success', p.id], ['report', 'success', p.id], ['from-job', 'success', p.id], ['with-job-token', 'success', p.id]])
    const full = expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 200).body
    expect([full.status, full.coverage, typeof full.duration, full.started_at !== null]).toEqual(['success', '75.50', 'number', true])
  }, 90_000)
})
