// Who may read and write a wiki: guests read, developers write, maintainers delete; visibility and wiki_enabled respected.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus } from '../../helpers/api.js'
import { wikiFixture, type WikiFixture } from './fixture.js'

let f: WikiFixture

beforeAll(async () => {
  f = await wikiFixture('private')
  expectStatus(await f.developer.api.post(f.wikis(), { title: 'Home', content: 'welcome' }), 201)
})
afterAll(() => f.close())

const FORBIDDEN = [403, { message: '403 Forbidden' }]
const NO_PROJECT = [404, { message: '404 Project Not Found' }]

describe('a private project', () => {
  it('lets a Guest read pages but not create, edit, upload or delete them, and nothing is committed', async () => {
    expect(expectStatus(await f.guest.api.get(`${f.wikis()}/Home`), 200).body.content).toBe('welcome')
    const before = f.history()
    const form = new FormData()
    form.append('file', new Blob(['x']), 'x.txt')
    const attempts = [
      await f.guest.api.post(f.wikis(), { title: 'Mine', content: 'x' }),
      await f.guest.api.put(`${f.wikis()}/Home`, { content: 'changed' }),
      await f.guest.api.del(`${f.wikis()}/Home`),
      await f.guest.api.request('POST', `${f.wikis()}/attachments`, { body: form as any }),
    ]
    for (const res of attempts) expect([res.status, res.body]).toEqual(FORBIDDEN)
    expect(f.history()).toEqual(before)
  })

  it('answers 404 to a stranger and asks an anonymous caller to sign in nowhere: the project is hidden', async () => {
    expect([(await f.stranger.api.get(f.wikis())).status, (await f.stranger.api.get(f.wikis())).body]).toEqual(NO_PROJECT)
    const res = await f.stranger.api.post(f.wikis(), { title: 'x', content: 'y' })
    expect([res.status, res.body]).toEqual(NO_PROJECT)
    const anonymous = await api(f.server).get(`${f.wikis()}/Home`)
    expect([anonymous.status, anonymous.body]).toEqual(NO_PROJECT)
  })

  it('answers 403 to everyone, the owner included, while wiki_enabled is false', async () => {
    expectStatus(await f.owner.api.put(`/projects/${f.projectId}`, { wiki_enabled: false }), 200)
    try {
      expect([(await f.owner.api.get(f.wikis())).status, (await f.owner.api.get(f.wikis())).body]).toEqual(FORBIDDEN)
      const res = await f.owner.api.post(f.wikis(), { title: 'x', content: 'y' })
      expect([res.status, res.body]).toEqual(FORBIDDEN)
    } finally {
      expectStatus(await f.owner.api.put(`/projects/${f.projectId}`, { wiki_enabled: true }), 200)
    }
  })

  it('refuses writes to an archived project with 403', async () => {
    expectStatus(await f.owner.api.post(`/projects/${f.projectId}/archive`), 201)
    try {
      const res = await f.developer.api.put(`${f.wikis()}/Home`, { content: 'archived' })
      expect([res.status, res.body]).toEqual(FORBIDDEN)
      expect(expectStatus(await f.guest.api.get(`${f.wikis()}/Home`), 200).body.content).toBe('welcome')
    } finally {
      expectStatus(await f.owner.api.post(`/projects/${f.projectId}/unarchive`), 201)
    }
  })
})

describe('a public project', () => {
  it('lets anyone read, anonymous callers included, and answers 401 to an anonymous write', async () => {
    const p = await createProject(f.owner.api, { name: 'open-book', visibility: 'public' })
    expectStatus(await f.owner.api.post(`/projects/${p.id}/wikis`, { title: 'Readme', content: 'public words' }), 201)
    const anonymous = api(f.server)
    expect(expectStatus(await anonymous.get(`/projects/${p.id}/wikis`, { query: { with_content: 1 } }), 200).body)
      .toEqual([{ format: 'markdown', slug: 'Readme', title: 'Readme', content: 'public words' }])
    expect(expectStatus(await f.stranger.api.get(`/projects/${p.id}/wikis/Readme`), 200).body.content).toBe('public words')
    const write = await anonymous.post(`/projects/${p.id}/wikis`, { title: 'x', content: 'y' })
    expect([write.status, write.body]).toEqual([401, { message: '401 Unauthorized' }])
    const stranger = await f.stranger.api.post(`/projects/${p.id}/wikis`, { title: 'x', content: 'y' })
    expect([stranger.status, stranger.body]).toEqual(FORBIDDEN)
  })
})

describe('deleting the project', () => {
  it('removes the wiki repository with it', async () => {
    const p = await createProject(f.owner.api, { name: 'short-lived' })
    expectStatus(await f.owner.api.post(`/projects/${p.id}/wikis`, { title: 'Gone', content: 'soon' }), 201)
    const dir = join(f.server.dataDir, 'repositories', `${p.id}.wiki.git`)
    expect(existsSync(dir)).toBe(true)
    expect((await f.owner.api.del(`/projects/${p.id}`)).status).toBe(202)
    await f.server.app.tasks.idle()
    expect(existsSync(dir)).toBe(false)
  })
})
