// The calls bots stop at (issue 23): a merge request's diffs page by page and as a patch, compare, merge_ref, a
// milestone's merge requests, the merge and cancel codes of api-v4.md, and a project's storage and snapshot.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Compare, DiffEntry } from '../../../src/contract/entities/repository.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, gitIn, remove, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { mrPath, openMergeRequest, seedMaster } from './fixtures.js'

let server: TestServer
let alice: TestUser
let bob: TestUser
let project: any
let mr: any
let base: string
let head: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  bob = await createUser(server, 'bob')
  project = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  base = (await seedMaster(alice.api, project.id)).id
  await commit(alice.api, project.id, { branch: 'master', commit_message: 'More files', actions: [create('old.txt', 'one\ntwo\nthree\nfour\n'), create('gone.txt', 'bye\n')] })
  base = (await alice.api.get(`${repo(project.id)}/branches/master`)).body.commit.id
  await commit(alice.api, project.id, {
    branch: 'feature', start_branch: 'master', commit_message: 'Change things',
    actions: [create('new.txt', 'fresh\n'), update('README.md', '# demo\n\nmore\n'), remove('gone.txt'), { action: 'move', previous_path: 'old.txt', file_path: 'moved.txt' }],
  })
  head = (await commit(alice.api, project.id, { branch: 'feature', commit_message: 'Second', actions: [create('z.txt', 'z\n')] })).id
  mr = await openMergeRequest(alice.api, project.id, { source_branch: 'feature', title: 'Feature' })
})
afterAll(() => server.close())

describe('GET …/merge_requests/:iid/diffs and raw_diffs', () => {
  it('pages the changed files with X-Total, as Entities::Diff shows them', async () => {
    const all = expectStatus(await bob.api.get(mrPath(project.id, mr.iid, '/diffs')), 200)
    expect(all.headers.get('x-total')).toBe('5')
    expect(all.body.map((d: any) => DiffEntry.strict().parse(d)).map((d: DiffEntry) => [d.old_path, d.new_path, d.new_file, d.renamed_file, d.deleted_file]))
      .toEqual([
        ['README.md', 'README.md', false, false, false], ['gone.txt', 'gone.txt', false, false, true], ['old.txt', 'moved.txt', false, true, false],
        ['new.txt', 'new.txt', true, false, false], ['z.txt', 'z.txt', true, false, false],
      ])
    expect(all.body[0]).toEqual({
      diff: '@@ -1 +1,3 @@\n # demo\n+\n+more\n', new_path: 'README.md', old_path: 'README.md', a_mode: '100644', b_mode: '100644',
      new_file: false, renamed_file: false, deleted_file: false, generated_file: false, collapsed: false, too_large: false,
    })
    const page = expectStatus(await bob.api.get(mrPath(project.id, mr.iid, '/diffs'), { query: { page: 2, per_page: 2, unidiff: true } }), 200)
    expect([page.headers.get('x-total'), page.headers.get('x-total-pages'), page.headers.get('x-page')]).toEqual(['5', '3', '2'])
    expect(page.body.map((d: any) => d.diff)).toEqual(['', '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+fresh\n'])
  })

  it('answers the patch git diff --full-index writes, as plain text', async () => {
    const res = expectStatus(await bob.api.get(mrPath(project.id, mr.iid, '/raw_diffs')), 200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.text).toBe(gitIn(server, project.id, ['diff', '--full-index', '-M', base, head]))
    expect((await bob.api.get(mrPath(project.id, 99, '/raw_diffs'))).status).toBe(404)
  })
})

describe('GET …/repository/compare', () => {
  const compare = (query: Record<string, string | number | boolean>, as = bob) => as.api.get(`${repo(project.id)}/compare`, { query })

  it('compares through the merge base: commits oldest first, commit the newest, the diff, web_url', async () => {
    const moved = (await commit(alice.api, project.id, { branch: 'master', commit_message: 'Master moves on', actions: [create('m.txt', 'm\n')] })).id
    const res = expectStatus(await compare({ from: 'master', to: 'feature' }), 200)
    const body = Compare.strict().parse(res.body)
    expect(body.commits.map((c) => c.title)).toEqual(['Change things', 'Second'])
    expect([body.commit?.id, body.compare_timeout, body.compare_same_ref]).toEqual([head, false, false])
    expect(body.diffs.map((d) => d.new_path)).toEqual(['README.md', 'gone.txt', 'moved.txt', 'new.txt', 'z.txt'])
    expect(body.web_url).toBe(`${server.url}/alice/demo/-/compare/${base}...${head}`)
    const straight = expectStatus(await compare({ from: 'master', to: 'feature', straight: true }), 200).body
    expect([straight.diffs.map((d: any) => [d.new_path, d.deleted_file]).find((d: any) => d[0] === 'm.txt'), straight.web_url])
      .toEqual([['m.txt', true], `${server.url}/alice/demo/-/compare/${moved}...${head}`])
  })

  it('answers the same ref, an unknown to (404) and a project outside the fork network (400)', async () => {
    const same = expectStatus(await compare({ from: 'feature', to: head }), 200).body
    expect([same.commit, same.commits, same.diffs, same.compare_same_ref]).toEqual([null, [], [], true])
    const missing = await compare({ from: 'master', to: 'nope' })
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Ref Not Found' }])
    const other = await createProject(bob.api, { name: 'other', visibility: 'public' })
    const outside = await compare({ from: 'master', to: 'feature', from_project_id: other.id })
    expect([outside.status, outside.body]).toEqual([400, { message: `Target project id:${other.id} is not a fork of project id:${project.id}` }])
  })

  it('compares a fork against its upstream with from_project_id, leaving no ref behind', async () => {
    const fork = expectStatus(await bob.api.post(`/projects/${project.id}/fork`, {}), 201).body
    await server.app.tasks.idle()
    const fix = (await commit(bob.api, fork.id, { branch: 'fix', start_branch: 'master', commit_message: 'Fix in fork', actions: [create('fix.txt', 'fix\n')] })).id
    const res = expectStatus(await bob.api.get(`${repo(fork.id)}/compare`, { query: { from: 'master', to: 'fix', from_project_id: project.id } }), 200).body
    expect([res.commits.map((c: any) => c.id), res.diffs.map((d: any) => d.new_path), res.web_url.startsWith(`${server.url}/alice/demo/-/compare/`)])
      .toEqual([[fix], ['fix.txt'], true])
    expect(gitIn(server, project.id, ['for-each-ref', 'refs/tmp'])).toBe('')
  })
})

describe("api-v4.md's merge codes and fields", () => {
  it('answers 406 Method Not Allowed to merging a closed merge request, 405 to cancelling its auto-merge', async () => {
    await commit(alice.api, project.id, { branch: 'shut', start_branch: 'master', commit_message: 'Shut', actions: [create('shut.txt', 's\n')] })
    const shut = await openMergeRequest(alice.api, project.id, { source_branch: 'shut', title: 'Shut' })
    expect([shut.allow_collaboration, shut.allow_maintainer_to_push]).toEqual([false, false])
    expectStatus(await alice.api.put(mrPath(project.id, shut.iid), { state_event: 'close' }), 200)
    const merge = await alice.api.put(mrPath(project.id, shut.iid, '/merge'))
    expect([merge.status, merge.body]).toEqual([406, { message: 'Method Not Allowed' }])
    for (const send of [alice.api.put, alice.api.post]) {
      const cancel = await send(mrPath(project.id, shut.iid, '/cancel_merge_when_pipeline_succeeds'))
      expect([cancel.status, cancel.body]).toEqual([405, { message: '405 Method Not Allowed' }])
    }
  })
})

describe('avatar_url', () => {
  it('is never null: a user without an avatar gets the identicon collab serves itself', async () => {
    const author = expectStatus(await bob.api.get(mrPath(project.id, mr.iid)), 200).body.author
    const url = `${server.url}/uploads/-/system/user/avatar/${alice.id}/identicon.svg`
    expect(author.avatar_url).toBe(url)
    expect((await bob.api.get(`/users/${alice.id}`)).body.avatar_url).toBe(url)
    const res = await fetch(url)
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml'])
    expect(await res.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">'
      + `<rect width="80" height="80" fill="${['#fcf1ef', '#f4f0ff', '#f1f1ff', '#e9f3fc', '#ecf4ee', '#fdf1dd', '#f0f0f0'][alice.id % 7]}"/>`
      + `<text x="40" y="40" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="36" fill="${['#8d1300', '#5b38b1', '#3b43a7', '#0f4f86', '#24663b', '#8e5900', '#333238'][alice.id % 7]}">U</text></svg>`)
    expect((await fetch(`${server.url}/uploads/-/system/user/avatar/999/identicon.svg`)).status).toBe(404)
  })
})

describe('GET /projects/:id/milestones/:milestone_id/merge_requests', () => {
  it("lists the milestone's merge requests by id, not by title, paginated", async () => {
    const m = expectStatus(await alice.api.post(`/projects/${project.id}/milestones`, { title: 'v1' }), 201).body
    expectStatus(await alice.api.put(mrPath(project.id, mr.iid), { milestone_id: m.id }), 200)
    const res = expectStatus(await bob.api.get(`/projects/${project.id}/milestones/${m.id}/merge_requests`), 200)
    expect([res.headers.get('x-total'), res.body.map((x: any) => [x.iid, x.milestone.title])]).toEqual(['1', [[mr.iid, 'v1']]])
    const missing = await bob.api.get(`/projects/${project.id}/milestones/${m.id + 100}/merge_requests`)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Milestone Not Found' }])
  })
})

describe('namespaces exists and descendant groups', () => {
  it('answers GET /namespaces/:id/exists with a free path suggested, at the top level or under parent_id', async () => {
    const team = expectStatus(await alice.api.post('/groups', { name: 'Team', path: 'team', visibility: 'public' }), 201).body
    expectStatus(await alice.api.post('/groups', { name: 'Team 1', path: 'team1' }), 201)
    const sub = expectStatus(await alice.api.post('/groups', { name: 'Sub', path: 'sub', parent_id: team.id, visibility: 'public' }), 201).body
    expectStatus(await alice.api.post('/groups', { name: 'Deep', path: 'deep', parent_id: sub.id, visibility: 'public' }), 201)
    const exists = (path: string, query: Record<string, number> = {}) => bob.api.get(`/namespaces/${path}/exists`, { query }).then((r) => expectStatus(r, 200).body)
    expect(await exists('TEAM')).toEqual({ exists: true, suggests: ['TEAM2'] })
    expect(await exists('alice')).toEqual({ exists: true, suggests: ['alice1'] })
    expect(await exists('sub')).toEqual({ exists: false, suggests: [] })
    expect(await exists('sub', { parent_id: team.id })).toEqual({ exists: true, suggests: ['sub1'] })
    expect((await api(server).get('/namespaces/team/exists')).status).toBe(401)
    const descendants = expectStatus(await bob.api.get(`/groups/${team.id}/descendant_groups`), 200)
    expect([descendants.headers.get('x-total'), descendants.body.map((g: any) => g.full_path)]).toEqual(['2', ['team/sub/deep', 'team/sub']])
    const searched = expectStatus(await bob.api.get(`/groups/${team.id}/descendant_groups`, { query: { search: 'dee' } }), 200).body
    expect(searched.map((g: any) => g.full_path)).toEqual(['team/sub/deep'])
    expect((await bob.api.get(`/groups/${team.id}/subgroups`)).body.map((g: any) => g.full_path)).toEqual(['team/sub'])
  })
})

describe('GET …/merge_requests/:iid/merge_ref', () => {
  const git = (...args: string[]) => gitIn(server, project.id, args).trim()
  const mergeRef = (iid: number) => bob.api.get(mrPath(project.id, iid, '/merge_ref'))

  it('answers the commit of refs/merge-requests/<iid>/merge: the source merged into the target as a merge commit would', async () => {
    const master = git('rev-parse', 'master')
    const res = expectStatus(await mergeRef(mr.iid), 200)
    expect(res.body).toEqual({ commit_id: git('rev-parse', `refs/merge-requests/${mr.iid}/merge`) })
    const sha = res.body.commit_id
    expect(git('log', '-1', '--format=%P%n%an%n%B', sha)).toBe(`${master} ${head}\nUser alice\nMerge branch 'feature' into 'master'\n\nFeature\n\nSee merge request alice/demo!${mr.iid}`)
    expect(git('rev-parse', `${sha}^{tree}`)).toBe(git('merge-tree', '--write-tree', master, head))
    expect(expectStatus(await mergeRef(mr.iid), 200).body.commit_id).toBe(sha)
  })

  it('merges again when the target moved, however it moved', async () => {
    const before = git('rev-parse', `refs/merge-requests/${mr.iid}/merge`)
    const moved = (await commit(alice.api, project.id, { branch: 'master', commit_message: 'Target moves', actions: [create('t.txt', 't\n')] })).id
    // The check after the commit rewrites the ref; a branch moved behind the server's back is seen by the recheck.
    await server.app.tasks.idle()
    expect(git('log', '-1', '--format=%P', `refs/merge-requests/${mr.iid}/merge`)).toBe(`${moved} ${head}`)
    const behind = git('commit-tree', `${moved}^{tree}`, '-p', moved, '-m', 'Behind the server')
    git('update-ref', 'refs/heads/master', behind)
    const res = expectStatus(await mergeRef(mr.iid), 200).body.commit_id
    expect([res === before, git('log', '-1', '--format=%P', res)]).toEqual([false, `${behind} ${head}`])
  })

  it('answers 400 when the merge request cannot be merged, 404 when there is none', async () => {
    await commit(alice.api, project.id, { branch: 'clash', start_branch: 'master', commit_message: 'Clash', actions: [update('t.txt', 'clash\n')] })
    await commit(alice.api, project.id, { branch: 'master', commit_message: 'Master clashes', actions: [update('t.txt', 'master\n')] })
    const clash = await openMergeRequest(alice.api, project.id, { source_branch: 'clash', title: 'Clash' })
    const res = await mergeRef(clash.iid)
    expect([res.status, res.body, git('for-each-ref', `refs/merge-requests/${clash.iid}/merge`)]).toEqual([400, { message: 'Merge request is not mergeable' }, ''])
    const missing = await mergeRef(999)
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Merge Request Not Found' }])
  })
})

describe('GET /projects/:id/storage and /snapshot (administrators)', () => {
  const snapshot = (query = '') => fetch(`${server.url}/api/v4/projects/${project.id}/snapshot${query}`, { headers: { 'PRIVATE-TOKEN': server.rootToken } })

  it("answers the repository's storage to administrators only", async () => {
    const res = expectStatus(await api(server, server.rootToken).get(`/projects/${project.id}/storage`), 200)
    expect(res.body).toEqual({ disk_path: String(project.id), project_id: project.id, repository_storage: 'default', created_at: project.created_at })
    for (const [who, status, message] of [[alice.api, 403, '403 Forbidden'], [api(server), 401, '401 Unauthorized']] as const) {
      for (const path of ['storage', 'snapshot']) expect((await who.get(`/projects/${project.id}/${path}`)).body).toEqual({ message })
      expect((await who.get(`/projects/${project.id}/storage`)).status).toBe(status)
    }
  })

  it('streams a tar of the bare repository that git reads as the same repository, and of its wiki with wiki=true', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'collab-snapshot-'))
    try {
      const res = await snapshot()
      expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition'), res.headers.get('content-length')])
        .toEqual([200, 'application/x-tar', 'attachment; filename="snapshot.tar"', null])
      writeFileSync(join(dir, 'repo.tar'), Buffer.from(await res.arrayBuffer()))
      execFileSync('mkdir', [join(dir, 'repo.git')])
      execFileSync('tar', ['-xf', join(dir, 'repo.tar'), '-C', join(dir, 'repo.git')])
      const copy = (...args: string[]) => execFileSync('git', ['--git-dir', join(dir, 'repo.git'), ...args], { encoding: 'utf8' })
      expect(copy('for-each-ref', '--format=%(objectname) %(refname)')).toBe(gitIn(server, project.id, ['for-each-ref', '--format=%(objectname) %(refname)']))
      copy('fsck', '--no-progress', '--connectivity-only')

      expect([(await snapshot('?wiki=true')).status]).toEqual([404])
      expectStatus(await alice.api.post(`/projects/${project.id}/wikis`, { title: 'home', content: 'Welcome' }), 201)
      writeFileSync(join(dir, 'wiki.tar'), Buffer.from(await (await snapshot('?wiki=true')).arrayBuffer()))
      execFileSync('mkdir', [join(dir, 'wiki.git')])
      execFileSync('tar', ['-xf', join(dir, 'wiki.tar'), '-C', join(dir, 'wiki.git')])
      expect(execFileSync('git', ['--git-dir', join(dir, 'wiki.git'), 'show', 'HEAD:home.md'], { encoding: 'utf8' })).toBe('Welcome')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
