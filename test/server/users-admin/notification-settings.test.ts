// GET and PUT /notification_settings, /groups/:id/notification_settings and /projects/:id/notification_settings.
import { describe, expect, it } from 'vitest'
import { api, createGroup, createProject } from '../../helpers/api.js'
import { adminFixture, answer } from './fixture.js'

const f = adminFixture()

const CUSTOM_DEFAULTS = {
  new_release: false, new_note: false, new_issue: false, reopen_issue: false, close_issue: false, reassign_issue: false,
  issue_due: false, new_merge_request: false, push_to_merge_request: false, reopen_merge_request: false,
  close_merge_request: false, reassign_merge_request: false, change_reviewer_merge_request: false, merge_merge_request: false,
  failed_pipeline: true, fixed_pipeline: true, success_pipeline: false, moved_project: true, merge_when_pipeline_succeeds: false,
}

describe('global notification settings', () => {
  it('start at participating with the primary email, and change level and email', async () => {
    expect((await f.alice.api.get('/notification_settings')).body).toEqual({ level: 'participating', notification_email: 'alice@example.com' })
    await f.root.post(`/users/${f.alice.id}/emails`, { email: 'alice@alerts.example', skip_confirmation: true })
    const put = await f.alice.api.put('/notification_settings', { level: 'watch', notification_email: 'alice@alerts.example' })
    expect([put.status, put.body]).toEqual([200, { level: 'watch', notification_email: 'alice@alerts.example' }])
    expect((await f.alice.api.get('/notification_settings')).body).toEqual({ level: 'watch', notification_email: 'alice@alerts.example' })
  })

  it('show every event for the custom level, with the ones given changed', async () => {
    const put = await f.bob.api.put('/notification_settings', { level: 'custom', new_note: true, failed_pipeline: false })
    expect(put.body).toEqual({ level: 'custom', events: { ...CUSTOM_DEFAULTS, new_note: true, failed_pipeline: false }, notification_email: 'bob@example.com' })
  })

  it('refuse an unknown level, an email that is not verified, and anonymous callers', async () => {
    expect(answer(await f.alice.api.put('/notification_settings', { level: 'loud' }))).toEqual([400, `{"message":"'loud' is not a valid level"}`])
    await f.alice.api.post('/user/emails', { email: 'alice@unverified.example' })
    expect(answer(await f.alice.api.put('/notification_settings', { notification_email: 'alice@unverified.example' })))
      .toEqual([400, '{"message":{"notification_email":["must be an email you have verified"]}}'])
    expect(answer(await f.alice.api.put('/notification_settings', { new_note: 'maybe' }))).toEqual([400, '{"message":{"new_note":["is invalid"]}}'])
    expect(answer(await api(f.server).get('/notification_settings'))).toEqual([401, '{"message":"401 Unauthorized"}'])
  })
})

describe('group and project notification settings', () => {
  it('start at global and are kept per source and per user', async () => {
    const group = await createGroup(f.alice.api, { name: 'Notify', path: 'notify', visibility: 'public' })
    const project = await createProject(f.alice.api, { name: 'loud', namespace_id: group.id, visibility: 'public' })
    expect((await f.alice.api.get(`/groups/${group.id}/notification_settings`)).body).toEqual({ level: 'global' })
    expect((await f.alice.api.put('/groups/notify/notification_settings', { level: 'disabled' })).body).toEqual({ level: 'disabled' })
    const custom = await f.alice.api.put(`/projects/${project.id}/notification_settings`, { level: 'custom', new_issue: true })
    expect(custom.body).toEqual({ level: 'custom', events: { ...CUSTOM_DEFAULTS, new_issue: true } })
    expect((await f.alice.api.get('/projects/notify%2Floud/notification_settings')).body).toEqual(custom.body)
    expect((await f.bob.api.get(`/projects/${project.id}/notification_settings`)).body).toEqual({ level: 'global' })
    expect((await f.alice.api.get(`/groups/${group.id}/notification_settings`)).body).toEqual({ level: 'disabled' })
  })

  it('answer 404 for sources the caller may not see', async () => {
    const hidden = await createGroup(f.alice.api, { name: 'Quiet', path: 'quiet' })
    const project = await createProject(f.alice.api, { name: 'secret' })
    expect(answer(await f.bob.api.get(`/groups/${hidden.id}/notification_settings`))).toEqual([404, '{"message":"404 Group Not Found"}'])
    expect(answer(await f.bob.api.put(`/projects/${project.id}/notification_settings`, { level: 'watch' }))).toEqual([404, '{"message":"404 Project Not Found"}'])
  })
})
