// DELETE /users/:id: contributions move to the ghost user, or go with hard_delete; personal projects and their
// repositories go in both cases.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, expectStatus, type Api } from '../../helpers/api.js'
import { adminFixture, answer, NOW } from './fixture.js'

const f = adminFixture()
let shared: any

beforeAll(async () => {
  shared = await createProject(f.root, { name: 'shared', visibility: 'public', initialize_with_readme: true })
})

const repoDir = (id: number) => join(f.server.dataDir, 'repositories', `${id}.git`)

async function contributor(name: string) {
  const u = await createUser(f.server, name)
  await f.root.post(`/projects/${shared.id}/members`, { user_id: u.id, access_level: 30 })
  const issue = expectStatus(await u.api.post(`/projects/${shared.id}/issues`, { title: `${name}'s issue` }), 201).body
  expectStatus(await u.api.post(`/projects/${shared.id}/issues/${issue.iid}/notes`, { body: `${name}'s note` }), 201)
  const own = await createProject(u.api, { name: `${name}-own`, initialize_with_readme: true })
  return { u, issue, own }
}

describe('DELETE /users/:id', () => {
  it('moves issues and notes to the ghost user and removes personal projects with their repositories', async () => {
    const { u, issue, own } = await contributor('ivy')
    expect(existsSync(repoDir(own.id))).toBe(true)
    expect(answer(await f.root.del(`/users/${u.id}`))).toEqual([204, ''])
    expect(answer(await f.root.get(`/users/${u.id}`))).toEqual([404, '{"message":"404 User Not Found"}'])
    const moved = await f.root.get(`/projects/${shared.id}/issues/${issue.iid}`)
    expect([moved.body.title, moved.body.author.username, moved.body.author.name]).toEqual(["ivy's issue", 'ghost', 'Ghost User'])
    const notes = await f.root.get(`/projects/${shared.id}/issues/${issue.iid}/notes`)
    expect(notes.body.map((n: any) => [n.body, n.author.username])).toEqual([["ivy's note", 'ghost']])
    expect((await f.root.get(`/projects/${own.id}`)).status).toBe(404)
    expect(existsSync(repoDir(own.id))).toBe(false)
    expect((await api(f.server, u.token).get('/user')).status).toBe(401)
  })

  it('keeps one ghost user for every deletion', async () => {
    const { u } = await contributor('jack')
    await f.root.del(`/users/${u.id}`)
    const ghosts = await f.root.get('/users', { query: { search: 'ghost' } })
    expect(ghosts.body.map((g: any) => [g.username, g.name])).toEqual([['ghost', 'Ghost User']])
  })

  it('never deletes the ghost user', async () => {
    const { u } = await contributor('nell')
    await f.root.del(`/users/${u.id}`)
    const ghost = (await f.root.get('/users', { query: { username: 'ghost' } })).body[0]
    expect(answer(await f.root.del(`/users/${ghost.id}`))).toEqual([403, '{"message":"403 Forbidden"}'])
  })

  it('with hard_delete removes what the user wrote', async () => {
    const { u, issue } = await contributor('kim')
    expect(answer(await f.root.del(`/users/${u.id}`, { query: { hard_delete: true } }))).toEqual([204, ''])
    expect(answer(await f.root.get(`/projects/${shared.id}/issues/${issue.iid}`))).toEqual([404, '{"message":"404 Issue Not Found"}'])
  })

  it.each([[false], [true]])('handles merge requests, snippets and awards of the user (hard_delete %s)', async (hard) => {
    const name = hard ? 'pat' : 'quinn'
    const { u } = await contributor(name)
    await f.root.post(`/projects/${shared.id}/repository/branches`, { branch: `${name}-topic`, ref: 'main' })
    const mr = expectStatus(await u.api.post(`/projects/${shared.id}/merge_requests`, { source_branch: `${name}-topic`, target_branch: 'main', title: `${name}'s MR` }), 201).body
    const snippet = expectStatus(await u.api.post(`/projects/${shared.id}/snippets`, { title: 's', file_name: 'a.txt', content: 'x', visibility: 'public' }), 201).body
    expectStatus(await u.api.post(`/projects/${shared.id}/merge_requests/${mr.iid}/award_emoji`, { name: 'tada' }), 201)
    expect(answer(await f.root.del(`/users/${u.id}`, { query: { hard_delete: hard } }))).toEqual([204, ''])
    const after = await Promise.all([`/projects/${shared.id}/merge_requests/${mr.iid}`, `/projects/${shared.id}/snippets/${snippet.id}`].map((p) => f.root.get(p)))
    expect(after.map((r) => [r.status, r.body.author?.username])).toEqual(hard ? [[404, undefined], [404, undefined]] : [[200, 'ghost'], [200, 'ghost']])
  })

  it('refuses a sole group owner without hard_delete, and with it deletes the group and its projects', async () => {
    const u = await createUser(f.server, 'lou')
    const group = await createGroup(u.api, { name: 'Lous', path: 'lous' })
    const sub = await createGroup(u.api, { name: 'Sub', path: 'sub', parent_id: group.id })
    const inSub = await createProject(u.api, { name: 'deep', namespace_id: sub.id, initialize_with_readme: true })
    expect(answer(await f.root.del(`/users/${u.id}`))).toEqual([409, '{"message":"User cannot be removed while is the sole-owner of a group"}'])
    expect(answer(await f.root.del(`/users/${u.id}`, { query: { hard_delete: 'true' } }))).toEqual([204, ''])
    expect((await f.root.get(`/groups/${group.id}`)).status).toBe(404)
    expect((await f.root.get(`/groups/${sub.id}`)).status).toBe(404)
    expect((await f.root.get(`/projects/${inSub.id}`)).status).toBe(404)
    expect(existsSync(repoDir(inSub.id))).toBe(false)
  })

  it('answers 404 for an unknown user, 403 for a non-administrator, 400 for a bad id', async () => {
    const u = await createUser(f.server, 'mo')
    expect(answer(await f.root.del('/users/9999'))).toEqual([404, '{"message":"404 User Not Found"}'])
    expect(answer(await u.api.del(`/users/${u.id}`))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.root.del('/users/x'))).toEqual([400, '{"message":{"id":["is invalid"]}}'])
    expect(answer(await f.root.del(`/users/${u.id}`, { query: { hard_delete: 'maybe' } }))).toEqual([400, '{"message":{"hard_delete":["is invalid"]}}'])
  })
})
