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
})
