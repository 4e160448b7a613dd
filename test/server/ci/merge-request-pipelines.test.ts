// Detached merge request pipelines with the built-in runner: they run in the target project on
// refs/merge-requests/<iid>/head, their jobs name the source branch and check out the merge request's head, protected
// variables reach them only between two protected branches of one project, and merge when pipeline succeeds merges
// when such a pipeline succeeds. A fork's run in the fork with the fork's variables, unless a member of the target
// runs one there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrace } from '../../../src/server/ci/traces.js'
import { pipelinePayload } from '../../../src/server/services/hooks/webhook-payloads-ci.js'
import { findPipelineById } from '../../../src/server/store/pipelines.js'
import { findProjectById } from '../../../src/server/store/projects.js'
import { createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, startGates, waitForFinished } from '../../helpers/ci.js'
import { branchHead, commit, create, update } from '../../helpers/repository.js'
import type { TestServer } from '../../helpers/server.js'
import { until } from '../../helpers/wait.js'

const MR_ONLY = '  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n'
const CONFIG = `show:
  script:
    - echo "REF=$CI_COMMIT_REF_NAME SLUG=$CI_COMMIT_REF_SLUG BRANCH=\${CI_COMMIT_BRANCH:-unset} PROTECTED=$CI_COMMIT_REF_PROTECTED"
    - echo "IID=$CI_MERGE_REQUEST_IID PATH=$CI_MERGE_REQUEST_REF_PATH SOURCE=$CI_MERGE_REQUEST_SOURCE_PROJECT_PATH TARGET=$CI_MERGE_REQUEST_PROJECT_PATH IN=$CI_PROJECT_PATH"
    - echo "SECRET=\${GUARDED:-none} SHA=$CI_MERGE_REQUEST_SOURCE_BRANCH_SHA."
    - echo "HEAD=$(git rev-parse HEAD) FILE=$(cat feature.txt)"
    - echo "DRAFT=$CI_MERGE_REQUEST_DRAFT SQUASH=$CI_MERGE_REQUEST_SQUASH_ON_MERGE DESC=$CI_MERGE_REQUEST_DESCRIPTION CUT=$CI_MERGE_REQUEST_DESCRIPTION_IS_TRUNCATED WHO=\${CI_MERGE_REQUEST_ASSIGNEES:-unset} LABELS=\${CI_MERGE_REQUEST_LABELS:-unset}"
${MR_ONLY}`

let server: TestServer
let root: Api
let gates: Awaited<ReturnType<typeof startGates>>

beforeAll(async () => {
  server = await startCiServer({ runner: true })
  gates = await startGates()
})
afterAll(async () => {
  await server.close()
  await gates.close()
})

/** The job's trace once its pipeline finished successfully. */
async function traceOf(pipelineId: number, job: string): Promise<string> {
  const done = await waitForFinished(server, pipelineId, 60_000)
  const trace = (await readTrace(server.app.layout, jobNamed(server, pipelineId, job).id)).toString('utf8')
  expect(done.status, trace).toBe('success')
  return trace
}

/** The lines the script printed (the echo commands themselves start with `$ `). */
const printed = (trace: string, ...prefixes: string[]) =>
  prefixes.map((p) => trace.split(/\r?\n/).find((l) => l.startsWith(p)) ?? `no ${p} line in:\n${trace}`)

// The runner may have taken the job already: the status is not part of it.
const brief = (list: any[]) => list.map((p) => `${p.source} ${p.ref}`)

async function openMergeRequest(as: Api, projectId: number, body: Record<string, unknown>) {
  const mr = expectStatus(await as.post(`/projects/${projectId}/merge_requests`, body), 201).body
  await server.app.tasks.idle()
  return mr
}

async function addVariable(projectId: number, key: string, value: string, prot = false) {
  expectStatus(await root.post(`/projects/${projectId}/variables`, { key, value, protected: prot }), 201)
}

describe('merge request pipelines in the same project', () => {
  it('run on refs/merge-requests/<iid>/head, name the source branch and check out the merge request head', async () => {
    const ci = await ciProject(server, 'same', CONFIG, { 'feature.txt': 'none' })
    root = ci.root
    const { project } = ci
    await addVariable(project.id, 'GUARDED', 'guarded', true)
    const head = (await commit(root, project.id, {
      branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [update('feature.txt', 'topic work')],
    })).id
    const mr = await openMergeRequest(root, project.id, {
      source_branch: 'topic', target_branch: 'master', title: 'Topic', description: 'Does things', assignee_ids: [1], labels: 'ci,mr', squash: true,
    })
    const list = await projectPipelines(server, root, project.id)
    expect(brief(list)).toEqual(['merge_request_event refs/merge-requests/1/head'])
    expect(list[0].sha).toBe(head)
    const trace = await traceOf(list[0].id, 'show')
    expect(printed(trace, 'REF=', 'IID=', 'SECRET=', 'HEAD=', 'DRAFT=')).toEqual([
      'REF=topic SLUG=topic BRANCH=unset PROTECTED=false',
      'IID=1 PATH=refs/merge-requests/1/head SOURCE=root/same TARGET=root/same IN=root/same',
      // topic is not protected: the protected variable stays out.
      'SECRET=none SHA=.',
      `HEAD=${head} FILE=topic work`,
      'DRAFT=false SQUASH=true DESC=Does things CUT=false WHO=root LABELS=ci,mr',
    ])
    expect(trace).toContain(`Checking out ${head.slice(0, 8)} as detached HEAD (ref is refs/merge-requests/1/head)...`)

    const single = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect([single.head_pipeline.id, single.head_pipeline.ref, single.head_pipeline.status]).toEqual([list[0].id, 'refs/merge-requests/1/head', 'success'])
    const ofMr = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/pipelines`), 200).body
    expect(ofMr.map((p: any) => [p.id, p.ref, p.sha, p.status])).toEqual([[list[0].id, 'refs/merge-requests/1/head', head, 'success']])
    const jobs = expectStatus(await root.get(`/projects/${project.id}/pipelines/${list[0].id}/jobs`), 200).body
    expect(jobs.map((j: any) => [j.name, j.ref, j.status])).toEqual([['show', 'refs/merge-requests/1/head', 'success']])

    const hook = await pipelinePayload(server.app, findProjectById(server.app.db, project.id)!, findPipelineById(server.app.db, list[0].id)!)
    expect(hook.merge_request).toEqual({
      id: mr.id, iid: 1, title: 'Topic', source_branch: 'topic', source_project_id: project.id, target_branch: 'master',
      target_project_id: project.id, state: 'opened', merge_status: 'can_be_merged', detailed_merge_status: 'mergeable',
      url: `${server.url}/root/same/-/merge_requests/1`,
    })
    expect(hook.object_attributes.ref).toBe('refs/merge-requests/1/head')

    // Retried, the pipeline runs the same ref again.
    expectStatus(await root.post(`/projects/${project.id}/pipelines/${list[0].id}/retry`), 201)
    expect(printed(await traceOf(list[0].id, 'show'), 'HEAD=')).toEqual([`HEAD=${head} FILE=topic work`])

    // A new commit on the source branch makes a new pipeline at the new head, the merge request's head pipeline.
    const next = (await commit(root, project.id, { branch: 'topic', commit_message: 'more', actions: [update('feature.txt', 'more work')] })).id
    await server.app.tasks.idle()
    const after = await projectPipelines(server, root, project.id)
    expect([after.length, after[1].ref, after[1].sha]).toEqual([2, 'refs/merge-requests/1/head', next])
    expect(printed(await traceOf(after[1].id, 'show'), 'HEAD=')).toEqual([`HEAD=${next} FILE=more work`])
    const moved = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
    expect(moved.head_pipeline.id).toBe(after[1].id)
  })

  it('cancel the older unfinished pipeline of the merge request, not listed among branch pipelines', async () => {
    const config = `wait:\n  interruptible: true\n  script:\n    - until curl -sf "$GATE" > /dev/null; do sleep 0.1; done\n${MR_ONLY}`
    const { project } = await ciProject(server, 'redundant', config)
    await addVariable(project.id, 'GATE', gates.url('redundant'))
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
    await openMergeRequest(root, project.id, { source_branch: 'topic', target_branch: 'master', title: 'Topic' })
    const [first] = await projectPipelines(server, root, project.id)
    await commit(root, project.id, { branch: 'topic', commit_message: 'more', actions: [create('u.txt', 'u')] })
    const [, second] = await projectPipelines(server, root, project.id)
    expect((await waitForFinished(server, first.id, 60_000)).status).toBe('canceled')
    gates.open('redundant')
    expect((await waitForFinished(server, second.id, 60_000)).status).toBe('success')
    const branches = expectStatus(await root.get(`/projects/${project.id}/pipelines`, { query: { scope: 'branches' } }), 200).body
    expect(branches).toEqual([])
  })

  it('run again on request (200) for Developers, not Reporters (403)', async () => {
    const { project } = await ciProject(server, 'rerun', CONFIG, { 'feature.txt': 'none' })
    const [dev, rep] = [await createUser(server, 'rerun-dev'), await createUser(server, 'rerun-rep')]
    for (const [u, level] of [[dev, 30], [rep, 20]] as const) {
      expectStatus(await root.post(`/projects/${project.id}/members`, { user_id: u.id, access_level: level }), 201)
    }
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [update('feature.txt', 'topic')] })
    const mr = await openMergeRequest(root, project.id, { source_branch: 'topic', target_branch: 'master', title: 'Topic' })
    const url = `/projects/${project.id}/merge_requests/${mr.iid}/pipelines`
    const refused = await rep.api.post(url)
    expect([refused.status, refused.body]).toEqual([403, { message: '403 Forbidden' }])
    const ran = expectStatus(await dev.api.post(url), 200).body
    expect([ran.ref, ran.source, ran.user.username]).toEqual(['refs/merge-requests/1/head', 'merge_request_event', 'rerun-dev'])
    const listed = expectStatus(await dev.api.get(url), 200).body
    expect(listed.map((p: any) => p.id)).toEqual([ran.id, listed[1].id])
    await traceOf(ran.id, 'show')
  })

  it('see protected variables when both branches are protected', async () => {
    const { project } = await ciProject(server, 'guarded', CONFIG, { 'feature.txt': 'none' })
    await addVariable(project.id, 'GUARDED', 'guarded', true)
    expectStatus(await root.post(`/projects/${project.id}/protected_branches`, { name: 'release' }), 201)
    await commit(root, project.id, { branch: 'release', start_branch: 'master', commit_message: 'release', actions: [update('feature.txt', 'release')] })
    await openMergeRequest(root, project.id, { source_branch: 'release', target_branch: 'master', title: 'Draft: Release' })
    const [pipeline] = await projectPipelines(server, root, project.id)
    expect(printed(await traceOf(pipeline.id, 'show'), 'REF=', 'SECRET=', 'DRAFT=')).toEqual([
      'REF=release SLUG=release BRANCH=unset PROTECTED=true', 'SECRET=guarded SHA=.',
      'DRAFT=true SQUASH=false DESC= CUT=false WHO=unset LABELS=unset',
    ])
  })
})

describe('merge request pipelines from a fork', () => {
  let alice: TestUser
  let bob: TestUser

  beforeAll(async () => {
    alice = await createUser(server, 'alice')
    bob = await createUser(server, 'bob')
  })

  // The attack: a stranger forks, writes a config that prints the target's variables, and opens a merge request.
  it("run in the fork with the fork's variables, never the target's, and are the merge request's pipelines", async () => {
    const upstream = await createProject(alice.api, { name: 'upstream', visibility: 'public' })
    await commit(alice.api, upstream.id, {
      branch: 'master', commit_message: 'Initial', actions: [create('.gitlab-ci.yml', CONFIG), create('feature.txt', 'none')],
    })
    await addVariable(upstream.id, 'GUARDED', 'guarded', true)
    await addVariable(upstream.id, 'PLAIN', 'upstream-plain-secret')
    expectStatus(await root.post(`/projects/${upstream.id}/variables`, { key: 'MASKED', value: 'upstream-masked-secret', masked: true }), 201)
    const fork = expectStatus(await bob.api.post(`/projects/${upstream.id}/fork`, {}), 201).body
    await server.app.tasks.idle()
    const forkConfig = CONFIG.replace('show:', 'from-fork:').replace('  script:\n', '  script:\n    - echo "LEAK=${PLAIN:-none}/${MASKED:-none}/${OWN:-none}."\n')
    await addVariable(fork.id, 'OWN', 'fork-own')
    const head = (await commit(bob.api, fork.id, {
      branch: 'master', commit_message: 'Fork work', actions: [update('.gitlab-ci.yml', forkConfig), update('feature.txt', 'fork work')],
    })).id
    const mr = await openMergeRequest(bob.api, fork.id, { source_branch: 'master', target_branch: 'master', target_project_id: upstream.id, title: 'From the fork' })
    expect(await projectPipelines(server, alice.api, upstream.id)).toEqual([])
    const list = await projectPipelines(server, bob.api, fork.id)
    expect([brief(list), list[0].sha]).toEqual([['merge_request_event master'], head])
    const trace = await traceOf(list[0].id, 'from-fork')
    expect(trace).not.toContain('upstream-plain-secret')
    expect(trace).not.toContain('upstream-masked-secret')
    expect(printed(trace, 'LEAK=', 'REF=', 'IID=', 'SECRET=', 'HEAD=')).toEqual([
      'LEAK=none/none/fork-own.',
      'REF=master SLUG=master BRANCH=unset PROTECTED=false',
      `IID=${mr.iid} PATH=refs/merge-requests/${mr.iid}/head SOURCE=bob/upstream TARGET=alice/upstream IN=bob/upstream`,
      'SECRET=none SHA=.',
      `HEAD=${head} FILE=fork work`,
    ])
    // GitLab lists a merge request's pipelines from both projects, and its head pipeline is the fork's.
    const single = expectStatus(await alice.api.get(`/projects/${upstream.id}/merge_requests/${mr.iid}`), 200).body
    expect([single.head_pipeline.id, single.head_pipeline.project_id, single.head_pipeline.status]).toEqual([list[0].id, fork.id, 'success'])
    expect(single.head_pipeline.web_url).toBe(`${server.url}/bob/upstream/-/pipelines/${list[0].id}`)
    const ofMr = expectStatus(await alice.api.get(`/projects/${upstream.id}/merge_requests/${mr.iid}/pipelines`), 200).body
    expect(ofMr.map((p: any) => [p.id, p.project_id, p.ref])).toEqual([[list[0].id, fork.id, 'master']])

    // Only a member of the target runs it there: bob may not (403), alice (Maintainer) may, with the target's variables.
    const denied = await bob.api.post(`/projects/${upstream.id}/merge_requests/${mr.iid}/pipelines`)
    expect([denied.status, denied.body]).toEqual([403, { message: '403 Forbidden' }])
    expect(await projectPipelines(server, alice.api, upstream.id)).toEqual([])
    const ran = expectStatus(await alice.api.post(`/projects/${upstream.id}/merge_requests/${mr.iid}/pipelines`), 200).body
    expect([ran.project_id, ran.ref, ran.sha, ran.source, ran.user.username]).toEqual([upstream.id, `refs/merge-requests/${mr.iid}/head`, head, 'merge_request_event', 'alice'])
    const inParent = await traceOf(ran.id, 'from-fork')
    expect(printed(inParent, 'LEAK=', 'IID=')).toEqual([
      'LEAK=upstream-plain-secret/[MASKED]/none.',
      `IID=${mr.iid} PATH=refs/merge-requests/${mr.iid}/head SOURCE=bob/upstream TARGET=alice/upstream IN=alice/upstream`,
    ])
    const both = expectStatus(await alice.api.get(`/projects/${upstream.id}/merge_requests/${mr.iid}/pipelines`), 200).body
    expect(both.map((p: any) => [p.id, p.project_id])).toEqual([[ran.id, upstream.id], [list[0].id, fork.id]])
    const now = expectStatus(await alice.api.get(`/projects/${upstream.id}/merge_requests/${mr.iid}`), 200).body
    expect([now.head_pipeline.id, now.head_pipeline.web_url]).toEqual([ran.id, `${server.url}/alice/upstream/-/pipelines/${ran.id}`])

    // A push to the fork's branch runs the merge request's pipeline again, in the fork.
    const next = (await commit(bob.api, fork.id, { branch: 'master', commit_message: 'More', actions: [update('feature.txt', 'more')] })).id
    await server.app.tasks.idle()
    const after = await projectPipelines(server, bob.api, fork.id)
    expect([after.length, after[1].sha, after[1].ref]).toEqual([2, next, 'master'])
    expect((await projectPipelines(server, alice.api, upstream.id)).length).toBe(1)
    expect(printed(await traceOf(after[1].id, 'from-fork'), 'LEAK=', 'HEAD=')).toEqual(['LEAK=none/none/fork-own.', `HEAD=${next} FILE=more`])
  })
})

describe('merge when pipeline succeeds on a merge request pipeline', () => {
  it('merges once the merge request pipeline succeeds', async () => {
    const config = `wait:\n  script:\n    - until curl -sf "$GATE" > /dev/null; do sleep 0.1; done\n${MR_ONLY}`
    const { project } = await ciProject(server, 'mwps', config)
    await addVariable(project.id, 'GATE', gates.url('mwps'))
    await commit(root, project.id, { branch: 'topic', start_branch: 'master', commit_message: 'topic', actions: [create('t.txt', 't')] })
    const mr = await openMergeRequest(root, project.id, { source_branch: 'topic', target_branch: 'master', title: 'Topic' })
    const [pipeline] = await projectPipelines(server, root, project.id)
    expect(pipeline.ref).toBe('refs/merge-requests/1/head')
    const deferred = expectStatus(await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true }), 200).body
    expect([deferred.state, deferred.merge_when_pipeline_succeeds]).toEqual(['opened', true])
    gates.open('mwps')
    expect((await waitForFinished(server, pipeline.id, 60_000)).status).toBe('success')
    const merged = await until('the merge when the pipeline succeeded', async () => {
      await server.app.tasks.idle()
      const mr1 = expectStatus(await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`), 200).body
      return mr1.state !== 'opened' && mr1
    })
    expect([merged.state, merged.merged_by?.username]).toEqual(['merged', 'root'])
    expect(await branchHead(root, project.id, 'master')).toBe(merged.merge_commit_sha)
  })
})
