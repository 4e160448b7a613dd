// GET /groups/:id/subgroups, POST /groups/:id/transfer and DELETE /groups/:id.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { api, createGroup, createProject, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { adminFixture, answer, NOW } from '../users-admin/fixture.js'

const f = adminFixture()

describe('GET /groups/:id/subgroups', () => {
  it('lists direct subgroups visible to the caller, by name', async () => {
    const top = await createGroup(f.alice.api, { name: 'Top', path: 'top', visibility: 'public' })
    await createGroup(f.alice.api, { name: 'Zed', path: 'zed', parent_id: top.id, visibility: 'public' })
    const a = await createGroup(f.alice.api, { name: 'Able', path: 'able', parent_id: top.id, visibility: 'public' })
    await createGroup(f.alice.api, { name: 'Hidden', path: 'hidden', parent_id: top.id, visibility: 'private' })
    await createGroup(f.alice.api, { name: 'Deeper', path: 'deeper', parent_id: a.id, visibility: 'public' })
    const mine = await f.alice.api.get(`/groups/${top.id}/subgroups`)
    expect([mine.status, mine.body.map((g: any) => g.full_path)]).toEqual([200, ['top/able', 'top/hidden', 'top/zed']])
    expect(mine.headers.get('x-total')).toBe('3')
    const theirs = await f.bob.api.get('/groups/top/subgroups', { query: { search: 'e' } })
    expect(theirs.body.map((g: any) => g.full_path)).toEqual(['top/able', 'top/zed'])
    const { projects: _p, shared_projects: _s, ...read } = (await f.alice.api.get(`/groups/${a.id}`)).body
    expect(mine.body[0]).toEqual({ ...read, id: a.id, parent_id: top.id, full_name: 'Top / Able', web_url: `${f.server.url}/groups/top/able` })
  })

  it('answers 404 for a group the caller may not see', async () => {
    const secret = await createGroup(f.alice.api, { name: 'Secret', path: 'secret' })
    expect(answer(await f.bob.api.get(`/groups/${secret.id}/subgroups`))).toEqual([404, '{"message":"404 Group Not Found"}'])
    expect(answer(await f.bob.api.get('/groups/9999/subgroups'))).toEqual([404, '{"message":"404 Group Not Found"}'])
  })
})

describe('POST /groups/:id/transfer', () => {
  it('moves a group with its subgroups and projects under another group, and back to the top', async () => {
    const from = await createGroup(f.alice.api, { name: 'Mover', path: 'mover', visibility: 'public' })
    const child = await createGroup(f.alice.api, { name: 'Kid', path: 'kid', parent_id: from.id, visibility: 'public' })
    const project = await createProject(f.alice.api, { name: 'thing', namespace_id: child.id, visibility: 'public' })
    const to = await createGroup(f.alice.api, { name: 'Home', path: 'home', visibility: 'internal' })
    const res = await f.alice.api.post(`/groups/${from.id}/transfer`, { group_id: to.id })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ id: from.id, full_path: 'home/mover', full_name: 'Home / Mover', parent_id: to.id, visibility: 'internal', projects: [] })
    const kid = (await f.alice.api.get(`/groups/${child.id}`)).body
    expect([kid.full_path, kid.full_name, kid.visibility]).toEqual(['home/mover/kid', 'Home / Mover / Kid', 'internal'])
    const p = (await f.alice.api.get(`/projects/${project.id}`)).body
    expect([p.path_with_namespace, p.visibility]).toEqual(['home/mover/kid/thing', 'internal'])
    const back = await f.alice.api.post(`/groups/${from.id}/transfer`)
    expect([back.status, back.body.full_path, back.body.parent_id]).toEqual([201, 'mover', null])
  })

  it('refuses to move a top-level group to the top', async () => {
    const g = await createGroup(f.alice.api, { name: 'Rooted', path: 'rooted' })
    expect(answer(await f.alice.api.post(`/groups/${g.id}/transfer`))).toEqual([400, '{"message":"Transfer failed: Group is already a root group."}'])
  })

  it('refuses a transfer into its own subgroup, to the same parent, or onto a taken path', async () => {
    const g = await createGroup(f.alice.api, { name: 'Loop', path: 'loop' })
    const sub = await createGroup(f.alice.api, { name: 'Inner', path: 'inner', parent_id: g.id })
    const t = await createGroup(f.alice.api, { name: 'Target', path: 'target' })
    await createGroup(f.alice.api, { name: 'Inner', path: 'inner', parent_id: t.id })
    const fail = (m: string) => [400, JSON.stringify({ message: `Transfer failed: ${m}` })]
    expect(answer(await f.alice.api.post(`/groups/${g.id}/transfer`, { group_id: sub.id }))).toEqual(fail('Cannot transfer group to one of its subgroup.'))
    expect(answer(await f.alice.api.post(`/groups/${sub.id}/transfer`, { group_id: g.id }))).toEqual(fail('Group is already associated to the parent group.'))
    expect(answer(await f.alice.api.post(`/groups/${sub.id}/transfer`, { group_id: t.id }))).toEqual(fail('The parent group already has a subgroup or a project with the same path.'))
  })

  it('needs Owner on the group and on the new parent', async () => {
    const g = await createGroup(f.alice.api, { name: 'Owned', path: 'owned' })
    const bobs = await createGroup(f.bob.api, { name: 'Bobs', path: 'bobs' })
    expect(answer(await f.bob.api.post(`/groups/${bobs.id}/transfer`, { group_id: g.id }))).toEqual([404, '{"message":"404 Group Not Found"}'])
    await f.root.post(`/groups/${g.id}/members`, { user_id: f.bob.id, access_level: 40 })
    expect(answer(await f.bob.api.post(`/groups/${g.id}/transfer`, { group_id: bobs.id }))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.bob.api.post(`/groups/${bobs.id}/transfer`, { group_id: g.id }))).toEqual([400, `{"message":"Transfer failed: You don't have enough permissions."}`])
    expect(answer(await f.alice.api.post(`/groups/${g.id}/transfer`, { group_id: 'x' }))).toEqual([400, '{"message":{"group_id":["is invalid"]}}'])
  })
})

describe('DELETE /groups/:id', () => {
  it('deletes the group, its subgroups and their projects with their repositories at once', async () => {
    const g = await createGroup(f.alice.api, { name: 'Doomed', path: 'doomed' })
    const sub = await createGroup(f.alice.api, { name: 'Below', path: 'below', parent_id: g.id })
    const p1 = await createProject(f.alice.api, { name: 'one', namespace_id: g.id, initialize_with_readme: true })
    const p2 = await createProject(f.alice.api, { name: 'two', namespace_id: sub.id, initialize_with_readme: true })
    const dir = (id: number) => join(f.server.dataDir, 'repositories', `${id}.git`)
    expect([existsSync(dir(p1.id)), existsSync(dir(p2.id))]).toEqual([true, true])
    expect(answer(await f.alice.api.del(`/groups/${g.id}`))).toEqual([202, '{"message":"202 Accepted"}'])
    for (const path of [`/groups/${g.id}`, `/groups/${sub.id}`, `/projects/${p1.id}`, `/projects/${p2.id}`]) {
      expect((await f.alice.api.get(path)).status).toBe(404)
    }
    expect([existsSync(dir(p1.id)), existsSync(dir(p2.id))]).toEqual([false, false])
    expect((await createGroup(f.alice.api, { name: 'Doomed', path: 'doomed' })).full_path).toBe('doomed')
  })

  it('answers 403 below Owner and 404 for a group the caller may not see', async () => {
    const g = await createGroup(f.alice.api, { name: 'Kept', path: 'kept', visibility: 'public' })
    expect(answer(await f.bob.api.del(`/groups/${g.id}`))).toEqual([403, '{"message":"403 Forbidden"}'])
    const hidden = await createGroup(f.alice.api, { name: 'Shut', path: 'shut' })
    expect(answer(await f.bob.api.del(`/groups/${hidden.id}`))).toEqual([404, '{"message":"404 Group Not Found"}'])
    expect(answer(await api(f.server).del(`/groups/${g.id}`))).toEqual([401, '{"message":"401 Unauthorized"}'])
  })
})
