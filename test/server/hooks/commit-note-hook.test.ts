// A comment on a commit delivers a Note Hook with the commit's attributes (noteable_type Commit, commit_id, commit{…}),
// as GitLab's; and a hook test of note_events whose latest note is on a commit answers with that payload (it was a 500).
import { expect, it } from 'vitest'
import { deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { useHookWorld } from './receiver.js'

const w = useHookWorld()

it('delivers a commit comment with the commit, and tests note_events with it', async () => {
  const { server, alice, rx } = w
  const project = await createProject(alice.api, { name: 'commented' })
  const made = await commit(alice.api, project.id, { branch: 'main', commit_message: 'Add a\n\nWith a body', actions: [create('a.txt', 'a\n')] })
  const hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, { url: `${rx.url}/hook`, push_events: false, note_events: true }), 201).body
  const note = expectStatus(await alice.api.post(`/projects/${project.id}/repository/commits/${made.id}/comments`, { note: 'Looks good' }), 201).body
  const [got] = await rx.waitFor(1)
  await deliveriesIdle(server.app)
  const attrs = got.body.object_attributes
  expect([got.headers['x-gitlab-event'], attrs.noteable_type, attrs.commit_id, attrs.noteable_id, attrs.note]).toEqual(['Note Hook', 'Commit', made.id, null, note.note])
  expect(attrs.url).toMatch(new RegExp(`/alice/commented/-/commit/${made.id}#note_\\d+$`))
  expect(got.body.commit).toEqual({
    id: made.id, title: 'Add a', message: 'Add a\n\nWith a body\n', timestamp: made.authored_date,
    url: `${server.url}/alice/commented/-/commit/${made.id}`, author: { name: made.author_name, email: made.author_email },
  })

  const tested = await alice.api.post(`/projects/${project.id}/hooks/${hook.id}/test/note_events`)
  expect(tested.status).toBe(201)
  const [sample] = (await rx.waitFor(2)).slice(1)
  expect([sample.body.object_attributes.noteable_type, sample.body.commit.id]).toEqual(['Commit', made.id])
})
