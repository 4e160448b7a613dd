// Commit statuses and pipelines: a posted status joins the newest pipeline of its sha and ref or makes an external
// one, counts in the pipeline's status, and the commit's statuses list shows jobs too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import { expectStatus } from '../../../helpers/api.js'
import { ciProject, projectPipelines, startCiServer } from '../../../helpers/ci.js'
import type { TestServer } from '../../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startCiServer()
})
afterAll(() => server.close())

describe('statuses posted by external CI', () => {
  it('make an external pipeline when the commit has none, which follows their states', async () => {
    const { project, root, sha } = await ciProject(server, 'external', null, { 'README.md': 'x' })
    const posted = expectStatus(await root.post(`/projects/${project.id}/statuses/${sha}`, { state: 'running', name: 'jenkins' }), 201).body
    const [p] = await projectPipelines(server, root, project.id)
    expect([p.source, p.ref, p.sha, p.status]).toEqual(['external', 'master', sha, 'running'])
    expect(posted.pipeline_id).toBe(p.id)
    expectStatus(await root.post(`/projects/${project.id}/statuses/${sha}`, { state: 'success', name: 'jenkins' }), 201)
    const after = expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 200).body
    expect([after.status, after.finished_at !== null]).toEqual(['success', true])
    expect(expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}`), 200).body.status).toBe('success')
    expect(await projectPipelines(server, root, project.id)).toHaveLength(1)
  })

  it('join the newest pipeline of the sha and ref and count in its status; jobs are listed with them', async () => {
    const { project, root, sha } = await ciProject(server, 'joined', 'build:\n  script: [x]\n')
    const [p] = await projectPipelines(server, root, project.id)
    const coordinator = createCoordinator(server.app)
    const job = (await coordinator.requestJob({ id: 't', concurrency: 1 }))!
    expect(job.job_info.name).toBe('build')
    await coordinator.updateJob(job.id, job.token, { state: 'success' })
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 200).body.status).toBe('success')
    const posted = expectStatus(await root.post(`/projects/${project.id}/statuses/${sha}`, { state: 'failed', name: 'lint', ref: 'master' }), 201).body
    expect(posted.pipeline_id).toBe(p.id)
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/${p.id}`), 200).body.status).toBe('failed')
    const list = expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}/statuses`), 200).body
    expect(list.map((s: any) => [s.name, s.status, s.pipeline_id])).toEqual([['build', 'success', p.id], ['lint', 'failed', p.id]])
    // Deleting the pipeline takes its jobs and the statuses posted into it.
    expectStatus(await root.del(`/projects/${project.id}/pipelines/${p.id}`), 204)
    expect(expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}/statuses`), 200).body).toEqual([])
  })
})
