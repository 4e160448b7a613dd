// The job and pipeline pages' Retry / Cancel / Run forms over a real server (no runner: jobs wait in pending): shown
// only to who may act (Developers), refused without the CSRF token, and through the jobs and pipelines services.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser, expectStatus, request, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { formToken, signIn } from './fixture.js'

const CI = `
build:
  stage: build
  script: [echo build]
deploy:
  stage: build
  when: manual
  script: [echo deploy]
`

let server: TestServer
let root: Api
let pub: any
let pipelineId: number
let aliceCookie: string
let bobCookie: string

beforeAll(async () => {
  server = await startCiServer()
  const made = await ciProject(server, 'demo', CI, {}, { visibility: 'public' })
  ;({ project: pub, root } = made)
  const alice: TestUser = await createUser(server, 'alice')
  const bob: TestUser = await createUser(server, 'bob')
  expectStatus(await root.post(`/projects/${pub.id}/members`, { user_id: alice.id, access_level: 30 }), 201)
  aliceCookie = await signIn(server, alice)
  bobCookie = await signIn(server, bob)
  pipelineId = (await projectPipelines(server, root, pub.id))[0].id
}, 60_000)
afterAll(() => server?.close())

const get = (path: string, cookie?: string) => request(server, 'GET', path, { headers: cookie ? { Cookie: cookie } : {} })
const post = (path: string, form: Record<string, string>, cookie?: string) => request(server, 'POST', path, { form, headers: cookie ? { Cookie: cookie } : {} })
const base = () => `/${pub.path_with_namespace}`
const jobUrl = (id: number) => `${base()}/-/jobs/${id}`
const apiJob = async (id: number) => expectStatus(await root.get(`/projects/${pub.id}/jobs/${id}`), 200).body
const actionsOf = (text: string) => [...text.matchAll(/<button type="submit" id="(job|pipeline)-(\w+)">/g)].map((m) => `${m[1]}-${m[2]}`)

const mergeLevel = async (level: number) =>
  expectStatus(await root.request('PATCH', `/projects/${pub.id}/protected_branches/master`, { json: { merge_access_level: level } }), 200)

describe('job actions', () => {
  // Jobs of protected master are for who may push or merge there (GitLab's protected_ref): Developers, for these.
  beforeAll(() => mergeLevel(30))
  afterAll(() => mergeLevel(40))

  it('shows Cancel on a pending job and Run (not Cancel) on a manual one to a Developer, nothing to others', async () => {
    const build = jobNamed(server, pipelineId, 'build')
    const deploy = jobNamed(server, pipelineId, 'deploy')
    expect([build.status, deploy.status]).toEqual(['pending', 'manual'])
    const page = (await get(jobUrl(build.id), aliceCookie)).text
    expect(page).toContain(`<form method="post" action="${server.url}${jobUrl(build.id)}/cancel" class="inline" id="job-cancel-form"><input type="hidden" name="authenticity_token"`)
    expect(actionsOf(page)).toEqual(['job-cancel'])
    expect(actionsOf((await get(jobUrl(deploy.id), aliceCookie)).text)).toEqual(['job-play'])
    for (const cookie of [bobCookie, undefined]) expect(actionsOf((await get(jobUrl(build.id), cookie)).text)).toEqual([])
  })

  it('refuses a form without the CSRF token or from someone who may not act; the job is untouched', async () => {
    const build = jobNamed(server, pipelineId, 'build')
    const token = formToken((await get(jobUrl(build.id), aliceCookie)).text)
    const bobToken = formToken((await get(jobUrl(build.id), bobCookie)).text)
    expect((await post(`${jobUrl(build.id)}/cancel`, {}, aliceCookie)).status).toBe(422)
    expect((await post(`${jobUrl(build.id)}/cancel`, { authenticity_token: 'x' }, aliceCookie)).status).toBe(422)
    expect((await post(`${jobUrl(build.id)}/cancel`, { authenticity_token: token })).status).toBe(422)
    expect((await post(`${jobUrl(build.id)}/cancel`, { authenticity_token: bobToken }, bobCookie)).status).toBe(404)
    expect((await apiJob(build.id)).status).toBe('pending')
  })

  it('cancels, then retries into a new job whose page it opens; a stale action says so', async () => {
    const build = jobNamed(server, pipelineId, 'build')
    const token = formToken((await get(jobUrl(build.id), aliceCookie)).text)
    const cancel = await post(`${jobUrl(build.id)}/cancel`, { authenticity_token: token }, aliceCookie)
    expect([cancel.status, cancel.headers.get('location')]).toEqual([303, `${server.url}${jobUrl(build.id)}`])
    expect((await apiJob(build.id)).status).toBe('canceled')
    expect(actionsOf((await get(jobUrl(build.id), aliceCookie)).text)).toEqual(['job-retry'])
    const retry = await post(`${jobUrl(build.id)}/retry`, { authenticity_token: token }, aliceCookie)
    const fresh = jobNamed(server, pipelineId, 'build')
    expect(fresh.id).not.toBe(build.id)
    expect([retry.status, retry.headers.get('location')]).toEqual([303, `${server.url}${jobUrl(fresh.id)}`])
    expect((await apiJob(fresh.id)).status).toBe('pending')
    // The old job was retried: a second Retry is refused by the service, and the page says so.
    const stale = await post(`${jobUrl(build.id)}/retry`, { authenticity_token: token }, aliceCookie)
    expect(stale.headers.get('location')).toBe(`${server.url}${jobUrl(build.id)}?action_error=retry`)
    expect((await get(`${jobUrl(build.id)}?action_error=retry`, aliceCookie)).text).toContain('<p class="flash" id="action-error">')
    expect((await get(`${jobUrl(build.id)}?action_error=constructor`, aliceCookie)).text).not.toContain('action-error')
  })

  it('runs the manual job', async () => {
    const deploy = jobNamed(server, pipelineId, 'deploy')
    const token = formToken((await get(jobUrl(deploy.id), aliceCookie)).text)
    const res = await post(`${jobUrl(deploy.id)}/play`, { authenticity_token: token }, aliceCookie)
    expect([res.status, res.headers.get('location')]).toEqual([303, `${server.url}${jobUrl(deploy.id)}`])
    expect((await apiJob(deploy.id)).status).toBe('pending')
  })
})

describe('pipeline actions', () => {
  const url = () => `${base()}/-/pipelines/${pipelineId}`

  it('offers nothing to a Developer on the protected default branch, and the service refuses the POST', async () => {
    expect(actionsOf((await get(url(), aliceCookie)).text)).toEqual([])
    const token = formToken((await get(url(), aliceCookie)).text)
    expect((await post(`${url()}/cancel`, { authenticity_token: token }, aliceCookie)).status).toBe(404)
    expect((await root.get(`/projects/${pub.id}/pipelines/${pipelineId}`)).body.status).toBe('pending')
  })

  it('cancels a running pipeline and retries it, for who may write its branch, with the CSRF token', async () => {
    expectStatus(await root.del(`/projects/${pub.id}/protected_branches/master`), 204)
    expect(actionsOf((await get(url(), aliceCookie)).text)).toEqual(['pipeline-cancel'])
    expect(actionsOf((await get(url(), bobCookie)).text)).toEqual([])
    const token = formToken((await get(url(), aliceCookie)).text)
    expect((await post(`${url()}/cancel`, {}, aliceCookie)).status).toBe(422)
    expect((await post(`${url()}/cancel`, { authenticity_token: formToken((await get(url(), bobCookie)).text) }, bobCookie)).status).toBe(404)
    expect((await root.get(`/projects/${pub.id}/pipelines/${pipelineId}`)).body.status).toBe('pending')
    const cancel = await post(`${url()}/cancel`, { authenticity_token: token }, aliceCookie)
    expect([cancel.status, cancel.headers.get('location')]).toEqual([303, `${server.url}${url()}`])
    expect((await root.get(`/projects/${pub.id}/pipelines/${pipelineId}`)).body.status).toBe('canceled')
    expect(actionsOf((await get(url(), aliceCookie)).text)).toEqual(['pipeline-retry'])
    expect((await post(`${url()}/retry`, { authenticity_token: token }, aliceCookie)).status).toBe(303)
    expect((await root.get(`/projects/${pub.id}/pipelines/${pipelineId}`)).body.status).toBe('pending')
  })
})
