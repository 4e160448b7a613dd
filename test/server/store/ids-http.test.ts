// Through the API: deleting the newest issue, note, project, user or job and creating another never hands the deleted
// id out again. A reused job id once showed a deleted private project's log to a job of another project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus, request, type Api } from '../../helpers/api.js'
import { ciProject, projectPipelines, startCiServer } from '../../helpers/ci.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api

beforeAll(async () => {
  server = await startCiServer()
  root = api(server, server.rootToken)
})
afterAll(() => server.close())

/** Creates twice, deleting the first (the newest row of its table) in between; both ids. */
async function createDeleteCreate(create: () => Promise<{ id: number }>, remove: (first: { id: number }) => Promise<unknown>) {
  const first = await create()
  await remove(first)
  await server.app.tasks.idle()
  return [first.id, (await create()).id]
}

describe('an id of a deleted newest row', () => {
  it('is not given to the next issue, note, project or user', async () => {
    const project = await createProject(root, { name: 'ids' })
    let iid = 0
    const issues = await createDeleteCreate(
      async () => { const issue = await createIssue(root, project.id, { title: 'one' }); iid = issue.iid; return issue },
      async () => expectStatus(await root.del(issuePath(project.id, iid)), 204))
    const notes = await createDeleteCreate(
      async () => expectStatus(await root.post(issuePath(project.id, iid, '/notes'), { body: 'a note' }), 201).body,
      async (note) => expectStatus(await root.del(issuePath(project.id, iid, `/notes/${note.id}`)), 204))
    let n = 0
    const projects = await createDeleteCreate(
      () => createProject(root, { name: `gone-${n++}` }),
      async (p) => expectStatus(await root.del(`/projects/${p.id}`), 202))
    const user = async () => expectStatus(await root.post('/users', { username: `u${n}`, email: `u${n++}@example.com`, name: 'U', password: 'password-123456' }), 201).body
    const removeUser = async (u: { id: number }) => expectStatus(await root.del(`/users/${u.id}`), 204)
    // The first deletion makes the Ghost User (the newest row then); the second deletes the newest user.
    await removeUser(await user())
    const users = await createDeleteCreate(user, removeUser)
    expect([issues, notes, projects, users].map(([first, second]) => second > first)).toEqual([true, true, true, true])
  })

  it("is not given to another project's next job, which shows its own log, never the deleted project's", async () => {
    const runner = expectStatus(await root.post('/user/runners', { runner_type: 'instance_type' }), 201).body as { token: string }
    const take = async () => expectStatus(await request(server, 'POST', '/api/v4/jobs/request', { json: { token: runner.token } }), 201).body as { id: number; token: string }
    const log = async (job: { id: number; token: string }, text: string) => {
      expectStatus(await request(server, 'PATCH', `/api/v4/jobs/${job.id}/trace`, {
        body: text, headers: { 'JOB-TOKEN': job.token, 'Content-Type': 'text/plain', 'Content-Range': `0-${text.length - 1}` },
      }), 202)
      expectStatus(await request(server, 'PUT', `/api/v4/jobs/${job.id}`, { json: { token: job.token, state: 'success' } }), 200)
    }
    const yaml = 'build:\n  script: [echo hi]\n'

    const secret = await ciProject(server, 'secret', yaml, {}, { visibility: 'private' })
    const [secretPipeline] = await projectPipelines(server, root, secret.project.id)
    const secretJob = await take()
    await log(secretJob, 'the private project printed its secret\n')
    expectStatus(await root.del(`/projects/${secret.project.id}`), 202)
    await server.app.tasks.idle()

    const open = await ciProject(server, 'open', yaml, {}, { visibility: 'public' })
    const [openPipeline] = await projectPipelines(server, root, open.project.id)
    const openJob = await take()
    expect([openPipeline.id > secretPipeline.id, openJob.id > secretJob.id]).toEqual([true, true])
    await log(openJob, 'a fresh log\n')
    expect(expectStatus(await root.get(`/projects/${open.project.id}/jobs/${openJob.id}/trace`), 200).text).toBe('a fresh log\n')
  })
})
