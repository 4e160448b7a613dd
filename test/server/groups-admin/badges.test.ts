// Project and group badges: CRUD, placeholders rendered for a project, group badges seen through their projects.
import { describe, expect, it } from 'vitest'
import { api, createGroup, createProject } from '../../helpers/api.js'
import { adminFixture, answer } from '../users-admin/fixture.js'

const f = adminFixture()

const LINK = 'https://ci.example/%{project_path}/-/tree/%{default_branch}'
const IMAGE = 'https://ci.example/%{project_id}/%{project_name}/%{commit_sha}.svg'

describe('project badges', () => {
  it('adds, lists, reads, changes and removes a badge with placeholders filled in', async () => {
    const p = await createProject(f.alice.api, { name: 'Shiny', path: 'shiny', visibility: 'public', initialize_with_readme: true })
    const sha = (await f.alice.api.get(`/projects/${p.id}/repository/commits/main`)).body.id
    const add = await f.alice.api.post(`/projects/${p.id}/badges`, { link_url: LINK, image_url: IMAGE, name: 'ci' })
    const badge = {
      name: 'ci', link_url: LINK, image_url: IMAGE,
      rendered_link_url: 'https://ci.example/alice/shiny/-/tree/main', rendered_image_url: `https://ci.example/${p.id}/shiny/${sha}.svg`,
      id: add.body.id, kind: 'project',
    }
    expect([add.status, add.body]).toEqual([201, badge])
    expect((await f.bob.api.get(`/projects/${p.id}/badges`)).body).toEqual([badge])
    expect((await api(f.server).get(`/projects/alice%2Fshiny/badges/${badge.id}`)).body).toEqual(badge)
    expect((await f.alice.api.get(`/projects/${p.id}/badges`, { query: { name: 'other' } })).body).toEqual([])
    const edit = await f.alice.api.put(`/projects/${p.id}/badges/${badge.id}`, { link_url: 'https://x.example/%{project_title}' })
    expect([edit.status, edit.body.link_url, edit.body.rendered_link_url, edit.body.image_url]).toEqual([200, 'https://x.example/%{project_title}', 'https://x.example/Shiny', IMAGE])
    expect(answer(await f.alice.api.del(`/projects/${p.id}/badges/${badge.id}`))).toEqual([204, ''])
    expect(answer(await f.alice.api.get(`/projects/${p.id}/badges/${badge.id}`))).toEqual([404, '{"message":"404 Not found"}'])
  })

  it('previews a badge without saving it', async () => {
    const p = await createProject(f.alice.api, { name: 'preview', visibility: 'public' })
    const res = await f.alice.api.get(`/projects/${p.id}/badges/render`, { query: { link_url: 'https://a.example/%{project_path}', image_url: 'https://b.example/%{project_namespace}.svg' } })
    expect([res.status, res.body]).toEqual([200, {
      name: null, link_url: 'https://a.example/%{project_path}', image_url: 'https://b.example/%{project_namespace}.svg',
      rendered_link_url: 'https://a.example/alice/preview', rendered_image_url: 'https://b.example/alice.svg',
    }])
    expect((await f.alice.api.get(`/projects/${p.id}/badges`)).body).toEqual([])
  })

  it('refuses URLs that are not http(s), callers below Maintainer, and missing attributes', async () => {
    const p = await createProject(f.alice.api, { name: 'strict', visibility: 'public' })
    expect(answer(await f.alice.api.post(`/projects/${p.id}/badges`, { link_url: 'javascript:alert(1)', image_url: 'nope' })))
      .toEqual([400, '{"message":{"link_url":["must be a valid URL"],"image_url":["must be a valid URL"]}}'])
    expect(answer(await f.bob.api.post(`/projects/${p.id}/badges`, { link_url: 'https://a.example', image_url: 'https://b.example' }))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.alice.api.post(`/projects/${p.id}/badges`, { link_url: 'https://a.example' }))).toEqual([400, '{"message":"400 (Bad request) \\"image_url\\" not given"}'])
    expect(answer(await f.alice.api.get(`/projects/${p.id}/badges/abc`))).toEqual([400, '{"message":{"badge_id":["is invalid"]}}'])
  })
})

describe('group badges', () => {
  it('are listed through the projects of the group and its subgroups, rendered for each project', async () => {
    const g = await createGroup(f.alice.api, { name: 'Badged', path: 'badged', visibility: 'public' })
    const sub = await createGroup(f.alice.api, { name: 'Inner', path: 'inner', parent_id: g.id, visibility: 'public' })
    const p = await createProject(f.alice.api, { name: 'leaf', namespace_id: sub.id, visibility: 'public' })
    const add = await f.alice.api.post(`/groups/${g.id}/badges`, { link_url: 'https://g.example/%{project_path}', image_url: 'https://g.example/%{group_name}.svg' })
    expect([add.status, add.body]).toEqual([201, {
      name: null, link_url: 'https://g.example/%{project_path}', image_url: 'https://g.example/%{group_name}.svg',
      rendered_link_url: 'https://g.example/%{project_path}', rendered_image_url: 'https://g.example/%{group_name}.svg', id: add.body.id, kind: 'group',
    }])
    const own = (await f.alice.api.post(`/projects/${p.id}/badges`, { link_url: 'https://p.example', image_url: 'https://p.example/i.svg' })).body
    const seen = await f.bob.api.get(`/projects/${p.id}/badges`)
    expect(seen.body.map((b: any) => [b.id, b.kind, b.rendered_link_url, b.rendered_image_url])).toEqual([
      [add.body.id, 'group', 'https://g.example/badged/inner/leaf', 'https://g.example/badged/inner.svg'],
      [own.id, 'project', 'https://p.example', 'https://p.example/i.svg'],
    ])
    expect((await f.bob.api.get(`/groups/${sub.id}/badges`)).body.map((b: any) => b.id)).toEqual([add.body.id])
    expect(answer(await f.alice.api.del(`/projects/${p.id}/badges/${add.body.id}`))).toEqual([403, '{"message":"To delete a Group badge please use the Group endpoint"}'])
    expect(answer(await f.alice.api.del(`/groups/${g.id}/badges/${own.id}`))).toEqual([404, '{"message":"404 Not found"}'])
    expect(answer(await f.alice.api.del(`/groups/${g.id}/badges/${add.body.id}`))).toEqual([204, ''])
  })

  it('need Owner to change and answer 404 for a group the caller may not see', async () => {
    const g = await createGroup(f.alice.api, { name: 'Guarded', path: 'guarded', visibility: 'public' })
    await f.root.post(`/groups/${g.id}/members`, { user_id: f.bob.id, access_level: 40 })
    expect(answer(await f.bob.api.post(`/groups/${g.id}/badges`, { link_url: 'https://a.example', image_url: 'https://b.example' }))).toEqual([403, '{"message":"403 Forbidden"}'])
    const hidden = await createGroup(f.alice.api, { name: 'Hid', path: 'hid' })
    expect(answer(await f.bob.api.get(`/groups/${hidden.id}/badges`))).toEqual([404, '{"message":"404 Group Not Found"}'])
  })
})
