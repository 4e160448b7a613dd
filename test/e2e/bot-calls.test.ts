// The calls bots stop at (issue 23) through real clients: @gitbeaker/rest and python-gitlab 3.12 read a merge request's
// diffs, compare two refs and list a milestone's merge requests on collab unchanged; python-gitlab also reads merge_ref,
// awards gemoji names, reverts a commit and reads the project's storage and snapshot.
import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('@gitbeaker/rest', () => {
  it('reads MergeRequests.allDiffs, Repositories.compare and ProjectMilestones.allAssignedMergeRequests', async () => {
    const api = new Gitlab({ host: server.url, token: server.rootToken })
    const project = await api.Projects.create({ name: 'gb-bots' })
    await api.Commits.create(project.id, 'master', 'init', [{ action: 'create', filePath: 'README.md', content: 'hi\n' }])
    await api.Commits.create(project.id, 'feature', 'Add a', [{ action: 'create', filePath: 'a.txt', content: 'a\n' }], { startBranch: 'master' })
    const milestone = await api.ProjectMilestones.create(project.id, 'v1')
    const mr = await api.MergeRequests.create(project.id, 'feature', 'master', 'Feature', { milestoneId: milestone.id })
    const diffs = await api.MergeRequests.allDiffs(project.id, mr.iid)
    expect(diffs.map((d) => [d.new_path, d.new_file, d.diff])).toEqual([['a.txt', true, '@@ -0,0 +1 @@\n+a\n']])
    const compare = await api.Repositories.compare(project.id, 'master', 'feature')
    expect([(compare.commits ?? []).map((c) => c.title), (compare.diffs ?? []).map((d) => d.new_path), compare.compare_same_ref]).toEqual([['Add a'], ['a.txt'], false])
    const listed = await api.ProjectMilestones.allAssignedMergeRequests(project.id, milestone.id)
    expect(listed.map((m) => m.iid)).toEqual([mr.iid])
  })

  it('awards tractor, reverts with GitLab\'s message and reads Projects.allStoragePaths and downloadSnapshot', async () => {
    const api = new Gitlab({ host: server.url, token: server.rootToken })
    const project = await api.Projects.create({ name: 'gb-admin' })
    const head = await api.Commits.create(project.id, 'master', 'init', [{ action: 'create', filePath: 'README.md', content: 'hi\n' }])
    const issue = await api.Issues.create(project.id, 'Vote')
    expect((await api.IssueAwardEmojis.award(project.id, issue.iid, 'tractor')).name).toBe('tractor')
    const reverted = await api.Commits.revert(project.id, head.id, 'master')
    expect(reverted.message).toBe(`Revert "init"\n\nThis reverts commit ${head.id}`)
    expect(await api.Projects.allStoragePaths(project.id)).toEqual({ disk_path: String(project.id), project_id: project.id, repository_storage: 'default', created_at: project.created_at })
    const tar = Buffer.from(await (await api.Projects.downloadSnapshot(project.id) as unknown as Blob).arrayBuffer())
    // A ustar archive: the first entry is HEAD, "ustar" at offset 257.
    expect([tar.subarray(0, 4).toString(), tar.subarray(257, 262).toString()]).toEqual(['HEAD', 'ustar'])
  })
})

describe.skipIf(!hasPythonGitlab)('python-gitlab', () => {
  it('pages through /diffs, reads raw_diffs, repository_compare, milestone.merge_requests(), merge_ref, storage and snapshot, awards and reverts', async () => {
    expect(await runPythonGitlab('python-gitlab-bot-calls.py', server)).toEqual({
      diffs: [['README.md', false, '@@ -1 +1 @@\n-hi\n+hello\n'], ['a.txt', true, '@@ -0,0 +1 @@\n+a\n']],
      raw_starts: true,
      compare: [['Add a and b'], ['README.md', 'a.txt'], false],
      milestone_mrs: [1],
      merge_ref: [['commit_id'], true, "Merge branch 'feature' into 'master'"],
      awards: ['tractor', 'thumbsup', '8ball'],
      revert: true,
      storage: [true, 'default', true],
      snapshot: [true, true, true],
    })
  })
})
