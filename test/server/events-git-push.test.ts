// Pushes with the real git command line land in the events feed: several commits to a branch, a new branch counted
// against the default branch, deleting a branch and a tag in one push (one event per ref), and a push of more refs
// of one type and action than GitLab's push_event_activities_limit (3) as one bulk event.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus, type Api } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe('events of git pushes', () => {
  let server: TestServer
  let root: Api
  let git: GitCli
  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    git = gitCli()
  })
  afterAll(async () => {
    await server.close()
    git.cleanup()
  })

  it('records one push event per ref with the pushed commits counted', async () => {
    const project = await createProject(root, { name: 'pushed', initialize_with_readme: true })
    const dir = join(git.root, 'pushed')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/pushed.git', 'root', server.rootToken), dir)
    const start = await git.run(dir, 'rev-parse', 'HEAD')
    await git.commit(dir, 'one', { 'one.txt': '1\n' })
    await git.commit(dir, 'two', { 'two.txt': '2\n' })
    const three = await git.commit(dir, 'three\n\nbody', { 'three.txt': '3\n' })
    await git.run(dir, 'push', '-q', 'origin', 'main')
    await git.run(dir, 'checkout', '-q', '-b', 'side')
    const side = await git.commit(dir, 'side work', { 'side.txt': 's\n' })
    await git.run(dir, 'tag', 'v1')
    await git.run(dir, 'push', '-q', 'origin', 'side', 'v1')
    await git.run(dir, 'push', '-q', 'origin', ':side', ':v1')
    await server.app.tasks.idle()
    const listed = expectStatus(await root.get(`/projects/${project.id}/events`, { query: { action: 'pushed', sort: 'asc' } }), 200).body as any[]
    const rows = listed.map((e) => [e.action_name, e.push_data.ref_type, e.push_data.ref, e.push_data.commit_count, e.push_data.commit_from, e.push_data.commit_to, e.push_data.commit_title])
    // A push of several refs is recorded ref by ref; their order within one push is git's.
    expect(rows.slice(0, 1)).toEqual([['pushed to', 'branch', 'main', 3, start, three, 'three']])
    expect(rows.slice(1, 3).sort()).toEqual([
      ['pushed new', 'branch', 'side', 1, null, side, 'side work'],
      ['pushed new', 'tag', 'v1', 1, null, side, 'side work'],
    ])
    expect(rows.slice(3).sort()).toEqual([
      ['deleted', 'branch', 'side', 0, side, null, null],
      ['deleted', 'tag', 'v1', 0, side, null, null],
    ])
    expect(listed.every((e) => e.author_username === 'root' && e.target_type === null)).toBe(true)
  })

  it('records a push of four new branches as one bulk event, and of three as three', async () => {
    const project = await createProject(root, { name: 'bulk', initialize_with_readme: true })
    const dir = join(git.root, 'bulk')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/bulk.git', 'root', server.rootToken), dir)
    for (const b of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await git.run(dir, 'branch', b)
    await git.run(dir, 'push', '-q', 'origin', 'a', 'b', 'c', 'd')
    await git.run(dir, 'push', '-q', 'origin', 'e', 'f', 'g')
    await server.app.tasks.idle()
    const listed = expectStatus(await root.get(`/projects/${project.id}/events`, { query: { action: 'pushed', sort: 'asc' } }), 200).body as any[]
    const bulk = listed[0].push_data
    expect([listed[0].action_name, bulk]).toEqual(['pushed new', {
      commit_count: 0, action: 'created', ref_type: 'branch', commit_from: null, commit_to: null, ref: null, commit_title: null, ref_count: 4,
    }])
    expect(listed.slice(1).map((e) => e.push_data.ref).sort()).toEqual(['e', 'f', 'g'])
  })
})
