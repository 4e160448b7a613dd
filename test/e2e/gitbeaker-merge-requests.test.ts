// @gitbeaker/rest creates, updates, comments on and merges a merge request against collab unchanged.
import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe('@gitbeaker/rest merge requests against collab', () => {
  let server: TestServer
  let api: InstanceType<typeof Gitlab>

  beforeAll(async () => {
    server = await startTestServer()
    api = new Gitlab({ host: server.url, token: server.rootToken })
  })
  afterAll(() => server.close())

  it('creates, updates, comments on and merges a merge request', async () => {
    const project = await api.Projects.create({ name: 'gb-mr' })
    await api.Commits.create(project.id, 'master', 'init', [{ action: 'create', filePath: 'README.md', content: 'hi\n' }])
    await api.Commits.create(project.id, 'feature', 'Add a', [{ action: 'create', filePath: 'a.txt', content: 'a\n' }], { startBranch: 'master' })
    const mr = await api.MergeRequests.create(project.id, 'feature', 'master', 'Feature', { description: 'first' })
    expect([mr.iid, mr.state, mr.merge_status, mr.detailed_merge_status]).toEqual([1, 'opened', 'can_be_merged', 'mergeable'])
    const edited = await api.MergeRequests.edit(project.id, mr.iid, { description: 'second', labels: 'gb' })
    expect([edited.description, edited.labels]).toEqual(['second', ['gb']])
    const note = await api.MergeRequestNotes.create(project.id, mr.iid, 'Ship it')
    expect([note.body, note.noteable_type]).toEqual(['Ship it', 'MergeRequest'])
    const listed = await api.MergeRequests.all({ projectId: project.id, state: 'opened', labels: 'gb' })
    expect(listed.map((m) => m.iid)).toEqual([1])
    const merged = await api.MergeRequests.merge(project.id, mr.iid, { shouldRemoveSourceBranch: true })
    expect([merged.state, (merged.merged_by as { username: string }).username]).toEqual(['merged', 'root'])
    await expect(api.MergeRequests.merge(project.id, mr.iid)).rejects.toMatchObject({ cause: { response: { status: 406 } } })
    const notes = await api.MergeRequestNotes.all(project.id, mr.iid)
    expect(notes.map((n) => n.body)).toEqual(['merged', 'Ship it', 'added ~1 label', 'changed the description'])
  })
})
