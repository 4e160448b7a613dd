// A pipeline on a protected tag runs on a protected ref: CI_COMMIT_REF_PROTECTED is true and protected variables are
// there (GitLab's Ci::Pipeline#protected_ref?), as they are on a protected branch; an unprotected tag has neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, jobStates, runPipeline, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startCiServer()
})
afterAll(() => server.close())

const CONFIG = `protected-ref:
  script: [x]
  rules:
    - if: $CI_COMMIT_REF_PROTECTED == "true"
sees-secret:
  script: [x]
  rules:
    - if: $DEPLOY_TOKEN == "guarded"
always:
  script: [x]
`

describe('pipelines on tags', () => {
  it('see the ref as protected, and protected variables, only when a protected tag rule matches the tag', async () => {
    const { project, root } = await ciProject(server, 'tag-pipelines', CONFIG)
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'DEPLOY_TOKEN', value: 'guarded', protected: true }), 201)
    expectStatus(await root.post(`/projects/${project.id}/protected_tags`, { name: 'v*' }), 201)
    for (const tag of ['v1.0', 'beta']) expectStatus(await root.post(`/projects/${project.id}/repository/tags`, { tag_name: tag, ref: 'master' }), 201)
    await server.app.tasks.idle()
    const names = (p: { id: number }) => jobStates(server, p.id).map((j) => j.split(':')[0])
    expect(names(await runPipeline(root, project.id, 'v1.0'))).toEqual(['protected-ref', 'sees-secret', 'always'])
    expect(names(await runPipeline(root, project.id, 'beta'))).toEqual(['always'])
  })
})
