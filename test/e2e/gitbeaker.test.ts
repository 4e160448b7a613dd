// A real third-party client, @gitbeaker/rest, creates and lists projects against collab unchanged.
import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe('@gitbeaker/rest against collab', () => {
  let server: TestServer
  let api: InstanceType<typeof Gitlab>

  beforeAll(async () => {
    server = await startTestServer()
    api = new Gitlab({ host: server.url, token: server.rootToken })
  })
  afterAll(() => server.close())

  it('reads the current user and the version', async () => {
    const me = await api.Users.showCurrentUser()
    expect(me.username).toBe('root')
    expect(me.web_url).toBe(`${server.url}/root`)
    const version = await api.Metadata.show()
    expect(version.version).toBe('17.0.0-collab')
  })

  it('creates projects and lists them across pages by following Link', async () => {
    for (let i = 0; i < 25; i++) await api.Projects.create({ name: `gb-${String(i).padStart(2, '0')}`, visibility: 'private' })
    const one = await api.Projects.show('root/gb-07')
    expect(one.path_with_namespace).toBe('root/gb-07')
    const all = await api.Projects.all({ perPage: 10, orderBy: 'name', sort: 'asc', owned: true, pagination: 'offset' })
    expect(all.map((p) => p.path)).toEqual(Array.from({ length: 25 }, (_, i) => `gb-${String(i).padStart(2, '0')}`))
    const page = await api.Projects.all({ pagination: 'offset', perPage: 10, page: 3, orderBy: 'name', sort: 'asc', owned: true, showExpanded: true })
    expect(page.paginationInfo).toEqual({ total: 25, next: null, current: 3, previous: 2, perPage: 10, totalPages: 3 })
    expect(page.data.map((p) => p.path)).toEqual(['gb-20', 'gb-21', 'gb-22', 'gb-23', 'gb-24'])
  })

  it('surfaces GitLab error bodies through its own error type', async () => {
    await expect(api.Projects.create({ name: 'gb-00' })).rejects.toMatchObject({ cause: { response: { status: 409 } } })
    await expect(api.Projects.show('root/does-not-exist')).rejects.toMatchObject({ cause: { description: '404 Project Not Found' } })
  })

  it('manages releases and links, follows the latest permalink and downloads a direct asset through its redirect', async () => {
    const p = await api.Projects.create({ name: 'gb-releases', initializeWithReadme: true })
    const raw = `${server.url}/api/v4/projects/${p.id}/repository/files/README.md/raw?ref=${p.default_branch}`
    const made = await api.ProjectReleases.create(p.id, {
      tagName: 'v1.0', ref: p.default_branch, name: 'One', description: 'Notes', assets: { links: [{ name: 'readme', url: raw, directAssetPath: '/readme.md' }] },
    })
    expect([made.tag_name, made.name, made.assets.count, made.assets.links?.[0].external]).toEqual(['v1.0', 'One', 5, true])
    await api.ProjectReleases.create(p.id, { tagName: 'v0.1', ref: p.default_branch, releasedAt: '2020-01-01T00:00:00Z' })
    expect((await api.ProjectReleases.all(p.id)).map((r) => r.tag_name)).toEqual(['v1.0', 'v0.1'])
    expect((await api.ProjectReleases.showLatest(p.id)).tag_name).toBe('v1.0')
    expect((await api.ProjectReleases.edit(p.id, 'v0.1', { name: 'Old' })).name).toBe('Old')
    const readme = await api.ProjectReleases.download(p.id, 'v1.0', 'readme.md')
    expect(String(readme)).toContain('gb-releases')
    const link = await api.ReleaseLinks.create(p.id, 'v0.1', 'site', 'https://example.com/site', { linkType: 'runbook' })
    expect([link.name, link.link_type]).toEqual(['site', 'runbook'])
    expect((await api.ReleaseLinks.edit(p.id, 'v0.1', link.id, { name: 'docs' })).name).toBe('docs')
    expect((await api.ReleaseLinks.all(p.id, 'v0.1')).map((l) => l.name)).toEqual(['docs'])
    await api.ReleaseLinks.remove(p.id, 'v0.1', link.id)
    await api.ProjectReleases.remove(p.id, 'v0.1')
    expect((await api.ProjectReleases.all(p.id)).map((r) => r.tag_name)).toEqual(['v1.0'])
    await expect(api.ProjectReleases.create(p.id, { tagName: 'v1.0' })).rejects.toMatchObject({ cause: { description: 'Release already exists' } })
  })
})
