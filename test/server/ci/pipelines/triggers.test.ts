// What creates pipelines: a real `git push` through the real server (branches, tags, deletions, [skip ci]), API
// commits and branches, merges, and merge-request events; and the joins: a commit's last_pipeline, a merge
// request's pipelines and head_pipeline.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../../helpers/api.js'
import { ciProject, jobStates, projectPipelines, startCiServer } from '../../../helpers/ci.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../../helpers/git-cli.js'
import { commit, create } from '../../../helpers/repository.js'
import type { TestServer } from '../../../helpers/server.js'

const CONFIG = 'build:\n  script: [echo build]\n'
const MR_CONFIG = `build:
  script: [echo build]
mr-check:
  script: [echo mr]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`
const ZERO = '0000000000000000000000000000000000000000'

let server: TestServer
let git: GitCli

beforeAll(async () => {
  server = await startCiServer()
  git = gitCli()
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

const summary = (list: any[]) => list.map((p) => `${p.source} ${p.ref} ${p.status}`)

describe('pushes over HTTP', () => {
  it('creates a push pipeline per pushed branch or tag, none for deletions or [skip ci]', async () => {
    const { project, root, sha } = await ciProject(server, 'pushed', CONFIG)
    const dir = join(git.root, 'pushed')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/pushed.git', 'root', server.rootToken), dir)
    await git.run(dir, 'checkout', '-q', '-b', 'feature')
    const head = await git.commit(dir, 'feature work', { 'a.txt': 'a' })
    await git.run(dir, 'push', '-q', 'origin', 'feature')
    await git.run(dir, 'tag', '-a', '-m', 'release', 'v1.0')
    await git.run(dir, 'push', '-q', 'origin', 'v1.0')
    await git.commit(dir, 'docs only [skip ci]', { 'b.txt': 'b' })
    await git.run(dir, 'push', '-q', 'origin', 'feature')
    await git.commit(dir, 'also skipped [CI SKIP]', { 'c.txt': 'c' })
    await git.run(dir, 'push', '-q', 'origin', 'feature')
    await git.run(dir, 'push', '-q', 'origin', '--delete', 'v1.0')
    const list = await projectPipelines(server, root, project.id)
    expect(summary(list)).toEqual(['push master pending', 'push feature pending', 'push v1.0 pending'])
    const feature = expectStatus(await root.get(`/projects/${project.id}/pipelines/${list[1].id}`), 200).body
    expect([feature.sha, feature.before_sha, feature.tag, feature.user.username]).toEqual([head, ZERO, false, 'root'])
    const tag = expectStatus(await root.get(`/projects/${project.id}/pipelines/${list[2].id}`), 200).body
    expect([tag.sha, tag.tag]).toEqual([head, true])
    // The first push pipeline came from the API commit, whose parent is none.
    expect(list[0].sha).toBe(sha)
  })

  it('records a broken config pushed as a failed pipeline with yaml_errors and no jobs', async () => {
    const { project, root } = await ciProject(server, 'broken-push', null, { 'README.md': 'x' })
    await commit(root, project.id, { commit_message: 'bad ci', actions: [create('.gitlab-ci.yml', 'build:\n  script: 12\n  when: sometimes\n')] })
    const list = await projectPipelines(server, root, project.id)
    expect(summary(list)).toEqual(['push master failed'])
    const p = expectStatus(await root.get(`/projects/${project.id}/pipelines/${list[0].id}`), 200).body
    expect(typeof p.yaml_errors).toBe('string')
    expect(p.yaml_errors.length).toBeGreaterThan(0)
    expect(p.finished_at).not.toBeNull()
    expect(jobStates(server, list[0].id)).toEqual([])
    const filtered = expectStatus(await root.get(`/projects/${project.id}/pipelines`, { query: { yaml_errors: true } }), 200).body
    expect(filtered.map((x: any) => x.id)).toEqual([list[0].id])
  })
})

describe('rules:changes', () => {
  it('compares a push with the commit before it; a new branch matches every changes rule', async () => {
    const config = 'always:\n  script: [x]\ndocs:\n  script: [x]\n  rules:\n    - changes: [docs/**/*]\n'
    const { project, root } = await ciProject(server, 'changes', config, { 'docs/a.md': 'a', 'src/a.ts': 'a' })
    await commit(root, project.id, { commit_message: 'code', actions: [{ action: 'update', file_path: 'src/a.ts', content: 'b' }] })
    await commit(root, project.id, { commit_message: 'docs', actions: [{ action: 'update', file_path: 'docs/a.md', content: 'b' }] })
    const list = await projectPipelines(server, root, project.id)
    expect(list.map((p) => jobStates(server, p.id).map((j) => j.split(':')[0]))).toEqual([['always', 'docs'], ['always'], ['always', 'docs']])
  })
})

describe('redundant pipelines', () => {
  it('cancels older unfinished pipelines of the branch when only interruptible jobs have run', async () => {
    const config = 'quick:\n  script: [x]\n  interruptible: true\n'
    const { project, root } = await ciProject(server, 'redundant', config)
    await commit(root, project.id, { commit_message: 'second', actions: [create('b.txt', 'b')] })
    const list = await projectPipelines(server, root, project.id)
    expect(summary(list)).toEqual(['push master canceled', 'push master pending'])
    // The next push cancels an API pipeline of the branch too.
    expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 201)
    await commit(root, project.id, { commit_message: 'third', actions: [create('c.txt', 'c')] })
    expect(summary(await projectPipelines(server, root, project.id)).slice(1)).toEqual(['push master canceled', 'api master canceled', 'push master pending'])
  })

  it('keeps older pipelines whose jobs are not interruptible', async () => {
    const { project, root } = await ciProject(server, 'not-redundant', CONFIG)
    await commit(root, project.id, { commit_message: 'second', actions: [create('b.txt', 'b')] })
    expect(summary(await projectPipelines(server, root, project.id))).toEqual(['push master pending', 'push master pending'])
  })
})

describe('API writes', () => {
  it('creates pipelines for API commits and new branches, not for branch deletions, nor with CI off', async () => {
    const { project, root } = await ciProject(server, 'api-writes', CONFIG)
    expectStatus(await root.post(`/projects/${project.id}/repository/branches`, { branch: 'topic', ref: 'master' }), 201)
    expectStatus(await root.del(`/projects/${project.id}/repository/branches/topic`), 204)
    expect(summary(await projectPipelines(server, root, project.id))).toEqual(['push master pending', 'push topic pending'])
    expectStatus(await root.put(`/projects/${project.id}`, { jobs_enabled: false }), 200)
    await commit(root, project.id, { commit_message: 'quiet', actions: [create('q.txt', 'q')] })
    await server.app.tasks.idle()
    expectStatus(await root.put(`/projects/${project.id}`, { jobs_enabled: true }), 200)
    expect(summary(await projectPipelines(server, root, project.id))).toHaveLength(2)
  })

  it('creates a tag pipeline for a tag made through the API, at the tagged commit', async () => {
    const { project, root, sha } = await ciProject(server, 'api-tag', CONFIG)
    expectStatus(await root.post(`/projects/${project.id}/repository/tags`, { tag_name: 'v2', ref: 'master', message: 'annotated' }), 201)
    const list = await projectPipelines(server, root, project.id)
    expect(list.map((p) => [p.ref, p.sha])).toEqual([['master', sha], ['v2', sha]])
    expect(expectStatus(await root.get(`/projects/${project.id}/pipelines/${list[1].id}`), 200).body.tag).toBe(true)
  })

  it('shows the newest pipeline of a commit as its last_pipeline', async () => {
    const { project, root, sha } = await ciProject(server, 'last-pipeline', CONFIG)
    const [p] = await projectPipelines(server, root, project.id)
    const c = expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}`), 200).body
    expect(c.last_pipeline).toEqual({
      id: p.id, iid: 1, project_id: project.id, ref: 'master', sha, status: 'pending', web_url: `${server.url}/root/last-pipeline/-/pipelines/${p.id}`,
    })
  })
})

describe('merge requests', () => {
  it('runs a merge_request_event pipeline only when the config asks for one, and lists it with the branch pipelines', async () => {
    const { project, root } = await ciProject(server, 'mr-events', MR_CONFIG)
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
    const mr = expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }), 201).body
    const list = await projectPipelines(server, root, project.id)
    expect(summary(list)).toEqual(['push master pending', 'push topic pending', 'merge_request_event refs/merge-requests/1/head pending'])
    expect(jobStates(server, list[2].id)).toEqual(['mr-check:pending'])
    const mrPipelines = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`), 200).body
    expect(mrPipelines.map((p: any) => p.id)).toEqual([list[2].id, list[1].id])
    const single = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect(single.pipeline).toEqual(mrPipelines[0])
    expect(single.head_pipeline).toMatchObject({ id: list[2].id, status: 'pending', source: 'merge_request_event', yaml_errors: null })
    // A push to the source branch runs both again.
    await commit(root, project.id, { branch: 'topic', commit_message: 'more', actions: [create('u.txt', 'u')] })
    expect(summary(await projectPipelines(server, root, project.id)).slice(3)).toEqual(['push topic pending', 'merge_request_event refs/merge-requests/1/head pending'])
  })

  it('runs no merge_request_event pipeline for a config without such jobs', async () => {
    const { project, root } = await ciProject(server, 'mr-plain', CONFIG)
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
    expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }), 201)
    expect(summary(await projectPipelines(server, root, project.id))).toEqual(['push master pending', 'push topic pending'])
  })

  it('creates a pipeline for the target branch when a merge request is merged', async () => {
    const { project, root } = await ciProject(server, 'mr-merge', CONFIG)
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
    const mr = expectStatus(await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }), 201).body
    await server.app.tasks.idle()
    const merged = expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 200).body
    const list = await projectPipelines(server, root, project.id)
    expect(summary(list)).toEqual(['push master pending', 'push topic pending', 'push master pending'])
    expect(list[2].sha).toBe(merged.merge_commit_sha)
  })
})
