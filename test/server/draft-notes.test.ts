// The Draft Notes API: a reviewer's pending comments on a merge request, seen only by their author, then published one
// at a time or all at once into threads, diff threads and replies (which may resolve their thread), with note hooks.
import { expect, it } from 'vitest'
import { DraftNote } from '../../src/contract/endpoints/draft-notes.js'
import { api, createProject, createUser, expectStatus } from '../helpers/api.js'
import { deliveriesIdle } from '../../src/server/services/hooks/webhook-delivery.js'
import { useHookWorld } from './hooks/receiver.js'
import { branchWith, mrPath, openMergeRequest, seedMaster } from './merge-requests/fixtures.js'

const w = useHookWorld()

const NO_POSITION = {
  base_sha: null, start_sha: null, head_sha: null, old_path: null, new_path: null, position_type: 'text', old_line: null, new_line: null, line_range: null,
}

it('keeps drafts to their author, then publishes them as threads, diff threads and a resolving reply, with note hooks', async () => {
  const { server, alice, rx } = w
  const bob = await createUser(server, 'bob')
  const carol = await createUser(server, 'carol')
  const project = await createProject(alice.api, { name: 'drafts', visibility: 'public' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  const master = await seedMaster(alice.api, project.id)
  await branchWith(alice.api, project.id, 'feature', 'b.txt', 'alpha\nbeta\n')
  const mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
  const head = (await alice.api.get(mrPath(project.id, mr.iid))).body.sha
  const drafts = (rest = '') => mrPath(project.id, mr.iid, `/draft_notes${rest}`)
  const thread = expectStatus(await alice.api.post(mrPath(project.id, mr.iid, '/discussions'), { body: 'Is beta right?' }), 201).body
  expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, note_events: true }), 201)

  // A plain draft, a diff draft on an added line, a reply that resolves alice's thread.
  const plain = expectStatus(await bob.api.post(drafts(), { note: 'Overall fine' }), 201).body
  expect(DraftNote.strict().parse(plain)).toEqual({
    id: plain.id, author_id: bob.id, merge_request_id: mr.id, resolve_discussion: false, discussion_id: null, note: 'Overall fine',
    commit_id: null, line_code: null, position: NO_POSITION,
  })
  const position = { base_sha: master.id, start_sha: master.id, head_sha: head, position_type: 'text', new_path: 'b.txt', new_line: 2 }
  const onLine = expectStatus(await bob.api.post(drafts(), { note: 'Why beta?', position }), 201).body
  expect(onLine.position).toEqual({ ...NO_POSITION, ...position, old_path: 'b.txt' })
  const reply = expectStatus(await bob.api.post(drafts(), { note: 'Yes', in_reply_to_discussion_id: thread.id, resolve_discussion: true }), 201).body
  expect([reply.discussion_id, reply.resolve_discussion]).toEqual([thread.id, true])

  // Refusals: a line not on the diff, an unknown thread, a blank note, anonymous callers.
  expect((await bob.api.post(drafts(), { note: 'x', position: { ...position, new_line: 40 } })).status).toBe(400)
  expect((await bob.api.post(drafts(), { note: 'x', in_reply_to_discussion_id: 'f'.repeat(40) })).body).toEqual({ message: 'Thread to reply to cannot be found' })
  expect((await bob.api.post(drafts(), { note: ' ' })).status).toBe(400)
  expect((await api(server).get(drafts())).status).toBe(401)

  // Only their author sees or changes them.
  expect((await carol.api.get(drafts())).body).toEqual([])
  expect((await alice.api.get(drafts())).body).toEqual([])
  expect([(await carol.api.get(drafts(`/${plain.id}`))).status, (await alice.api.put(drafts(`/${plain.id}`), { note: 'mine' })).body])
    .toEqual([404, { message: '404 Draft Note Not Found' }])
  expect((await alice.api.post(drafts('/bulk_publish'))).status).toBe(204)
  expect((await bob.api.get(drafts())).body.map((d: any) => d.note)).toEqual(['Overall fine', 'Why beta?', 'Yes'])

  // Edit, delete, publish one.
  expect(expectStatus(await bob.api.put(drafts(`/${plain.id}`), { note: 'Overall good' }), 200).body).toEqual({ ...plain, note: 'Overall good' })
  const extra = expectStatus(await bob.api.post(drafts(), { note: 'Scratch that' }), 201).body
  expectStatus(await bob.api.del(drafts(`/${extra.id}`)), 204)
  expectStatus(await bob.api.put(drafts(`/${plain.id}/publish`)), 204)
  expect((await bob.api.get(drafts())).body.map((d: any) => d.id)).toEqual([onLine.id, reply.id])

  // Submit the review: the rest become notes at once, and the reply resolves its thread.
  expectStatus(await bob.api.post(drafts('/bulk_publish')), 204)
  expect((await bob.api.get(drafts())).body).toEqual([])
  const threads = (await alice.api.get(mrPath(project.id, mr.iid, '/discussions'))).body
  expect(threads.map((d: any) => d.notes.map((n: any) => [n.type, n.body, n.author.username, n.resolved]))).toEqual([
    [['DiscussionNote', 'Is beta right?', 'alice', true], ['DiscussionNote', 'Yes', 'bob', true]],
    [['DiscussionNote', 'Overall good', 'bob', false]],
    [['DiffNote', 'Why beta?', 'bob', false]],
  ])
  expect(threads[2].notes[0].position).toEqual(onLine.position)
  const got = await rx.waitFor(3)
  await deliveriesIdle(server.app)
  expect(got.map((r) => [r.headers['x-gitlab-event'], r.body.object_attributes.note]).sort()).toEqual([
    ['Note Hook', 'Overall good'], ['Note Hook', 'Why beta?'], ['Note Hook', 'Yes'],
  ])

  // A reply whose thread is deleted before the review is submitted starts a thread of its own.
  const gone = expectStatus(await bob.api.post(mrPath(project.id, mr.iid, '/discussions'), { body: 'Soon gone' }), 201).body
  expectStatus(await bob.api.post(drafts(), { note: 'Orphan', in_reply_to_discussion_id: gone.id }), 201)
  expectStatus(await bob.api.del(mrPath(project.id, mr.iid, `/discussions/${gone.id}/notes/${gone.notes[0].id}`)), 204)
  expectStatus(await bob.api.post(drafts('/bulk_publish')), 204)
  const last = (await alice.api.get(mrPath(project.id, mr.iid, '/discussions'))).body.at(-1)
  expect([last.individual_note, last.notes.map((n: any) => [n.type, n.body])]).toEqual([false, [['DiscussionNote', 'Orphan']]])
})
