// Merge when pipeline succeeds: the merge waits for an unfinished head pipeline, happens when it succeeds, and is
// aborted with a system note when it fails; cancelling clears it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import { expectStatus, type Api } from '../../../helpers/api.js'
import { ciProject, projectPipelines, startCiServer, waitForFinished } from '../../../helpers/ci.js'
import { commit, create } from '../../../helpers/repository.js'
import type { TestServer } from '../../../helpers/server.js'

let server: TestServer
let coordinator: ReturnType<typeof createCoordinator>

beforeAll(async () => {
  server = await startCiServer()
  coordinator = createCoordinator(server.app)
})
afterAll(() => server.close())

/** Finishes every queued job: those of `name`'s pipelines as `state`, anything else canceled. */
async function finishQueued(pipelineId: number, state: 'success' | 'failed') {
  await server.app.tasks.idle()
  for (;;) {
    const p = await coordinator.requestJob({ id: 'test', concurrency: 1 })
    if (!p) return
    const mine = p.variables.find((v) => v.key === 'CI_PIPELINE_ID')?.value === String(pipelineId)
    await coordinator.updateJob(p.id, p.token, mine ? { state, ...(state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {}) } : { state: 'canceled' })
  }
}

async function openMergeRequest(name: string) {
  const { project, root } = await ciProject(server, name, 'build:\n  script: [x]\n')
  await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
  const mr = expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }), 201).body
  const pipelines = await projectPipelines(server, root, project.id)
  const head = pipelines.find((p) => p.ref === 'topic')
  return { project, root, mr, head }
}

const notes = async (root: Api, projectId: number, iid: number) =>
  expectStatus(await root.get(`/projects/${projectId}/merge_requests/${iid}/notes`, { query: { sort: 'asc' } }), 200).body
    .filter((n: any) => n.system).map((n: any) => n.body)

describe('merge when pipeline succeeds', () => {
  it('waits for the running head pipeline and merges when it succeeds', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-success')
    const waiting = expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200).body
    expect([waiting.state, waiting.merge_when_pipeline_succeeds, waiting.merge_user?.username]).toEqual(['opened', true, 'root'])
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    await server.app.tasks.idle()
    const merged = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([merged.state, merged.merge_when_pipeline_succeeds, merged.merged_by?.username]).toEqual(['merged', false, 'root'])
    expect(await notes(root, project.id, mr.iid)).toEqual([`enabled an automatic merge when the pipeline for ${head.sha} succeeds`, 'merged'])
  })

  it('merges later with the squash and commit messages that were asked for', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-messages')
    expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, {
      merge_when_pipeline_succeeds: true, squash: true, merge_commit_message: 'Merge topic, as asked', squash_commit_message: 'Topic, squashed',
    }), 200)
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    await server.app.tasks.idle()
    const merged = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([merged.state, merged.squash]).toEqual(['merged', true])
    const message = async (sha: string) => expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}`), 200).body.message.trimEnd()
    expect(await message(merged.merge_commit_sha)).toBe('Merge topic, as asked')
    expect(await message(merged.squash_commit_sha)).toBe('Topic, squashed')
  })

  it('leaves the merge request open with a note when the pipeline fails', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-failure')
    expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200)
    await finishQueued(head.id, 'failed')
    await waitForFinished(server, head.id)
    await server.app.tasks.idle()
    const after = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([after.state, after.merge_when_pipeline_succeeds]).toEqual(['opened', false])
    expect((await notes(root, project.id, mr.iid)).slice(1)).toEqual(['aborted the automatic merge because the pipeline did not succeed'])
  })

  it('is cancelled by cancel_merge_when_pipeline_succeeds, after which success merges nothing', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-cancel')
    expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200)
    const cancelled = expectStatus(await root.post(`/projects/${project.id}/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`), 201).body
    expect([cancelled.iid, cancelled.merge_when_pipeline_succeeds]).toEqual([mr.iid, false])
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    await server.app.tasks.idle()
    const after = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([after.state, after.merge_when_pipeline_succeeds]).toEqual(['opened', false])
  })

  it('is aborted by new commits on the source branch', async () => {
    const { project, root, mr } = await openMergeRequest('mwps-push')
    expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200)
    await commit(root, project.id, { branch: 'topic', commit_message: 'more', actions: [create('u.txt', 'u')] })
    await server.app.tasks.idle()
    const after = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([after.state, after.merge_when_pipeline_succeeds]).toEqual(['opened', false])
    // Both notes come from hooks of the same push, in no fixed order.
    expect((await notes(root, project.id, mr.iid)).slice(1).sort()).toEqual(['aborted the automatic merge because source branch was updated', 'added 1 commit'])
  })

  it('is aborted by closing the merge request, as MergeRequests::CloseService does', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-close')
    expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200)
    const closed = expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { state_event: 'close' }), 200).body
    expect([closed.state, closed.merge_when_pipeline_succeeds, closed.merge_user]).toEqual(['closed', false, null])
    expect((await notes(root, project.id, mr.iid)).slice(1)).toEqual(['closed', 'aborted the automatic merge because merge request was closed'])
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    await server.app.tasks.idle()
    expect(expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body.state).toBe('closed')
  })

  it('refuses a plain merge without a successful pipeline when the project asks for one (405)', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-required')
    expectStatus(await root.put(`/projects/${project.id}`, { only_allow_merge_if_pipeline_succeeds: true }), 200)
    expect(expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 405).body).toEqual({ message: '405 Method Not Allowed' })
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    expect(expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 200).body.state).toBe('merged')
  })

  it('merges at once when the head pipeline has already finished', async () => {
    const { project, root, mr, head } = await openMergeRequest('mwps-finished')
    await finishQueued(head.id, 'success')
    await waitForFinished(server, head.id)
    const merged = expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200).body
    expect(merged.state).toBe('merged')
  })
})
