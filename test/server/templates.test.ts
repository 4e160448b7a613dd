// Templates: gitignores and licenses from their data packages, collab's own .gitlab-ci.yml and Dockerfile sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { License } from '../../src/contract/endpoints/templates.js'
import { api, createUser, type TestUser } from '../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2031-02-03T04:05:06Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
})
afterAll(() => server.close())

describe('gitignore templates', () => {
  it('lists language and global templates by name, paginated', async () => {
    const res = await api(server).get('/templates/gitignores', { query: { per_page: 100 } })
    expect(res.status).toBe(200)
    const next = await api(server).get('/templates/gitignores', { query: { per_page: 100, page: 2 } })
    const keys = [...res.body, ...next.body].map((t: { key: string }) => t.key)
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b, 'en')))
    expect(keys).toContain('Node')
    expect(keys).toContain('Vim')
    expect(res.body[0]).toEqual({ key: res.body[0].key, name: res.body[0].key })
    expect(Number(res.headers.get('x-total'))).toBeGreaterThan(150)
  })

  it('answers one template with its content, 404 for an unknown key', async () => {
    const res = await api(server).get('/templates/gitignores/Node')
    expect(res.status).toBe(200)
    expect(res.body.name).toBe('Node')
    expect(res.body.content).toContain('node_modules/')
    const missing = await api(server).get('/templates/gitignores/..%2F..%2Fpackage')
    expect(missing.status).toBe(404)
    expect(missing.text).toBe('{"message":"404 Template Not Found"}')
  })
})

describe('gitlab-ci.yml and Dockerfile templates', () => {
  it('lists and reads the shipped sets', async () => {
    const ci = await api(server).get('/templates/gitlab_ci_ymls', { query: { per_page: 100 } })
    expect(ci.body).toEqual(expect.arrayContaining(['Bash', 'Go', 'Nodejs', 'Python', 'Ruby', 'Rust'].map((k) => ({ key: k, name: k }))))
    const node = await api(server).get('/templates/gitlab_ci_ymls/Nodejs')
    expect(node.body.content).toContain('npm ci')
    const docker = await api(server).get('/templates/dockerfiles')
    expect(docker.body).toEqual(['Binary', 'Golang', 'Node', 'Python', 'Ruby'].map((k) => ({ key: k, name: k })))
    expect((await api(server).get('/templates/dockerfiles/Golang')).body.content).toMatch(/^FROM golang/)
    expect((await api(server).get('/templates/dockerfiles/constructor')).status).toBe(404)
  })
})

describe('license templates', () => {
  it('lists licenses with GitLab fields; popular=true keeps the featured ones', async () => {
    const all = await api(server).get('/templates/licenses', { query: { per_page: 100 } })
    expect(all.status).toBe(200)
    for (const l of all.body) License.strict().parse(l)
    expect(all.body.map((l: { key: string }) => l.key)).toContain('apache-2.0')
    const popular = await api(server).get('/templates/licenses', { query: { popular: true } })
    expect(popular.body.map((l: { key: string }) => l.key)).toEqual(['apache-2.0', 'gpl-3.0', 'mit'])
  })

  it('fills in the year, the holder and the project', async () => {
    const res = await api(server).get('/templates/licenses/mit', { query: { project: 'Wonderland', fullname: 'The Hatter' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      key: 'mit', name: 'MIT License', nickname: null, featured: true, html_url: 'https://choosealicense.com/licenses/mit/',
      source_url: 'https://www.opensource.org/licenses/MIT', conditions: ['include-copyright'],
      permissions: ['commercial-use', 'modifications', 'distribution', 'private-use'], limitations: ['liability', 'warranty'],
    })
    expect(res.body.content.split('\n').slice(0, 3)).toEqual(['MIT License', '', 'Copyright (c) 2031 The Hatter'])
  })

  it('takes the caller as the holder when no fullname is given', async () => {
    const res = await alice.api.get('/templates/licenses/MIT')
    expect(res.body.content).toContain('Copyright (c) 2031 Alice Liddell')
  })

  it('answers 404 for an unknown license', async () => {
    const res = await api(server).get('/templates/licenses/nope-1.0')
    expect(res.status).toBe(404)
    expect(res.text).toBe('{"message":"404 License Not Found"}')
  })
})
