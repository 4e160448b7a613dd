// The default branch and HEAD move together: on the first API commit to an empty project, and on PUT default_branch.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onRefsMoved, type PushEvent } from '../../../src/server/services/repository/git-access.js'
import { api, createProject, expectStatus } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

describe('default branch and HEAD', () => {
  let server: TestServer
  let root: ReturnType<typeof api>
  const events: PushEvent[] = []

  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    onRefsMoved(server.app, (_app, e) => { events.push(e) })
  })
  afterAll(() => server.close())

  const head = (id: number) => readFileSync(join(server.dataDir, 'repositories', `${id}.git`, 'HEAD'), 'utf8')
  const commit = (id: number, branch: string, file: string) =>
    root.post(`/projects/${id}/repository/commits`, { branch, commit_message: `add ${file}`, actions: [{ action: 'create', file_path: file, content: 'x\n' }] })

  it('makes the first branch committed through the API the default branch and HEAD', async () => {
    const p = await createProject(root, { name: 'first-trunk' })
    expect(head(p.id)).toBe('ref: refs/heads/main\n')
    const c = expectStatus(await commit(p.id, 'trunk', 'a.txt'), 201).body
    const after = (await root.get(`/projects/${p.id}`)).body
    expect([after.default_branch, after.empty_repo]).toEqual(['trunk', false])
    expect(head(p.id)).toBe('ref: refs/heads/trunk\n')
    await server.app.tasks.idle()
    expect(events.at(-1)).toMatchObject({ project: { id: p.id }, user: { username: 'root' }, changes: [{ ref: 'refs/heads/trunk', before: null, after: c.id }] })
  })

  it('names a new repository\'s branch after default_branch_name, main when it is unset or blank', async () => {
    expectStatus(await root.put('/application/settings', { default_branch_name: 'trunk' }), 200)
    const named = await createProject(root, { name: 'named-default', initialize_with_readme: true })
    expect([named.default_branch, head(named.id)]).toEqual(['trunk', 'ref: refs/heads/trunk\n'])
    expect((await root.get(`/projects/${named.id}/repository/branches/trunk`)).status).toBe(200)
    const refused = await root.put('/application/settings', { default_branch_name: 'bad..name' })
    expect([refused.status, refused.body]).toEqual([400, { message: { default_branch_name: ['is invalid'] } }])
    expectStatus(await root.put('/application/settings', { default_branch_name: '' }), 200)
    const unset = await createProject(root, { name: 'unset-default' })
    expect([unset.default_branch, head(unset.id)]).toEqual(['main', 'ref: refs/heads/main\n'])
  })

  it('moves HEAD with PUT default_branch and refuses a branch that does not exist', async () => {
    const p = await createProject(root, { name: 'switch-default' })
    expectStatus(await commit(p.id, 'main', 'a.txt'), 201)
    expectStatus(await root.post(`/projects/${p.id}/repository/branches`, { branch: 'develop', ref: 'main' }), 201)
    expect((await root.put(`/projects/${p.id}`, { default_branch: 'develop' })).body.default_branch).toBe('develop')
    expect(head(p.id)).toBe('ref: refs/heads/develop\n')
    const refused = await root.put(`/projects/${p.id}`, { default_branch: 'nope' })
    expect([refused.status, refused.body]).toEqual([400, { message: { base: ['Could not set the default branch: nope does not exist'] } }])
    expect(head(p.id)).toBe('ref: refs/heads/develop\n')
  })
})
