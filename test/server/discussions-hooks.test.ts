// Notes written through the Discussions API fire the note hook like any other note.
import { expect, it } from 'vitest'
import { createProject, expectStatus } from '../helpers/api.js'
import { createIssue, issuePath } from '../helpers/issues.js'
import { deliveriesIdle } from '../../src/server/services/hooks/webhook-delivery.js'
import { useHookWorld } from './hooks/receiver.js'

const w = useHookWorld()

it('delivers a Note Hook for a new thread and for a reply', async () => {
  const { server, alice, rx } = w
  const project = await createProject(alice.api, { name: 'demo' })
  expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, note_events: true }), 201)
  const issue = await createIssue(alice.api, project.id, { title: 'Hooked' })
  const thread = expectStatus(await alice.api.post(issuePath(project.id, issue.iid, '/discussions'), { body: 'Thread' }), 201).body
  expectStatus(await alice.api.post(issuePath(project.id, issue.iid, `/discussions/${thread.id}/notes`), { body: 'Reply' }), 201)
  const got = await rx.waitFor(2)
  await deliveriesIdle(server.app)
  expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.object_kind, r.body.object_attributes.note, r.body.object_attributes.noteable_type, r.body.issue.iid]))
    .toEqual([['Note Hook', 'note', 'Thread', 'Issue', issue.iid], ['Note Hook', 'note', 'Reply', 'Issue', issue.iid]])
  // Both notes carry their thread's id and type, as GitLab's note payload does.
  expect(got.map((r) => [r.body.object_attributes.discussion_id, r.body.object_attributes.type])).toEqual([[thread.id, 'DiscussionNote'], [thread.id, 'DiscussionNote']])
})

it('gives a merge request note the merge request\'s thread and contribution state', async () => {
  const { server, alice, rx } = w
  const project = await createProject(alice.api, { name: 'reviewed', initialize_with_readme: true })
  expectStatus(await alice.api.put(`/projects/${project.id}`, { only_allow_merge_if_all_discussions_are_resolved: true }), 200)
  expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits`, {
    branch: 'topic', start_branch: project.default_branch, commit_message: 'Topic', actions: [{ action: 'create', file_path: 't.txt', content: 't' }],
  }), 201)
  const mr = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: project.default_branch, title: 'Topic' }), 201).body
  expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/mr`, push_events: false, note_events: true }), 201)
  const before = rx.received.length
  expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/discussions`, { body: 'Please fix' }), 201)
  const [hook] = (await rx.waitFor(before + 1)).slice(before)
  await deliveriesIdle(server.app)
  expect([hook.body.object_attributes.type, hook.body.merge_request.blocking_discussions_resolved, hook.body.merge_request.detailed_merge_status,
    hook.body.merge_request.first_contribution, hook.body.merge_request.draft]).toEqual(['DiscussionNote', false, 'discussions_not_resolved', true, false])
})
