// A pipeline on a protected tag runs on a protected ref: CI_COMMIT_REF_PROTECTED is true and protected variables are
// there (GitLab's Ci::Pipeline#protected_ref?), as they are on a protected branch; an unprotected tag has neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, expectStatus } from '../../helpers/api.js'
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

describe('a Developer and a protected tag they may not create', () => {
  const why = (ref: string) => `You do not have sufficient permission to run a pipeline on '${ref}'. Please select a different branch or contact your administrator for assistance.`

  it('may neither run a pipeline on it nor act on its pipelines, whose jobs see protected variables', async () => {
    const { project, root } = await ciProject(server, 'tag-attack', CONFIG)
    const dev = await createUser(server, 'tag-dev')
    expectStatus(await root.post(`/projects/${project.id}/members`, { user_id: dev.id, access_level: 30 }), 201)
    expectStatus(await root.post(`/projects/${project.id}/protected_tags`, { name: 'v*' }), 201)
    expectStatus(await root.post(`/projects/${project.id}/protected_tags`, { name: 'nightly-*', create_access_level: 30 }), 201)
    for (const tag of ['v1.0', 'beta', 'nightly-1']) expectStatus(await root.post(`/projects/${project.id}/repository/tags`, { tag_name: tag, ref: 'master' }), 201)
    await server.app.tasks.idle()

    const created = await dev.api.post(`/projects/${project.id}/pipeline`, { ref: 'v1.0' })
    expect([created.status, created.body]).toEqual([400, { message: { base: [why('v1.0')] } }])
    const tagPipeline = await runPipeline(root, project.id, 'v1.0')
    const cancel = await dev.api.post(`/projects/${project.id}/pipelines/${tagPipeline.id}/cancel`)
    expect([cancel.status, cancel.body]).toEqual([403, { message: '403 Forbidden' }])
    const [jobId] = expectStatus(await root.get(`/projects/${project.id}/pipelines/${tagPipeline.id}/jobs`), 200).body.map((j: { id: number }) => j.id)
    expect((await dev.api.post(`/projects/${project.id}/jobs/${jobId}/cancel`)).status).toBe(403)
    // A trigger runs as its owner: a Maintainer's, on a tag that No one may create, is refused as well.
    const maintainer = await createUser(server, 'tag-maintainer')
    expectStatus(await root.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 }), 201)
    expectStatus(await root.post(`/projects/${project.id}/repository/tags`, { tag_name: 'locked-1', ref: 'master' }), 201)
    expectStatus(await root.post(`/projects/${project.id}/protected_tags`, { name: 'locked-*', create_access_level: 0 }), 201)
    const trigger = expectStatus(await maintainer.api.post(`/projects/${project.id}/triggers`, { description: 'mine' }), 201).body
    const triggered = await maintainer.api.post(`/projects/${project.id}/trigger/pipeline`, { token: trigger.token, ref: 'locked-1' })
    expect([triggered.status, triggered.body]).toEqual([400, { message: { base: [why('locked-1')] } }])

    // Tags they may create, protected or not, are theirs to run.
    expect((await runPipeline(dev.api, project.id, 'beta')).ref).toBe('beta')
    expect((await runPipeline(dev.api, project.id, 'nightly-1')).ref).toBe('nightly-1')
  })
})
