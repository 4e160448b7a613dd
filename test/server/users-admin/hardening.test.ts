// Odd values on every route of the users and groups administration answer 4xx in GitLab's shape, never 5xx.
import { describe, expect, it } from 'vitest'
import { createGroup, createProject } from '../../helpers/api.js'
import { adminFixture } from './fixture.js'

const f = adminFixture()

const ODD_IDS = ['0', '-1', '99999999999999999999', 'abc', '%00', '1.5', '%2F..%2F', 'x'.repeat(300)]

describe('administration routes under odd input', () => {
  it('answer every odd id with a 4xx JSON body', async () => {
    const group = await createGroup(f.root, { name: 'Odd', path: 'odd' })
    const project = await createProject(f.root, { name: 'odd-p', namespace_id: group.id })
    const routes: [string, (id: string) => string, ((id: string) => unknown)?][] = [
      ['PUT', (id) => `/users/${id}`, () => ({ name: 'x' })], ['DELETE', (id) => `/users/${id}`],
      ...['block', 'unblock', 'ban', 'unban', 'activate', 'deactivate'].map((a) => ['POST', (id: string) => `/users/${id}/${a}`] as [string, (id: string) => string]),
      ['GET', (id) => `/users/${id}/keys`], ['GET', (id) => `/users/${f.alice.id}/keys/${id}`], ['GET', (id) => `/keys/${id}`],
      ['GET', (id) => `/users/${id}/gpg_keys`], ['GET', (id) => `/users/${id}/emails`], ['GET', (id) => `/users/${id}/status`],
      ['GET', (id) => `/groups/${id}/subgroups`], ['POST', (id) => `/groups/${id}/transfer`, (id) => ({ group_id: id })], ['DELETE', (id) => `/groups/${id}`],
      ['GET', (id) => `/groups/${id}/notification_settings`], ['PUT', (id) => `/projects/${id}/notification_settings`, (id) => ({ level: id })],
      ['GET', (id) => `/projects/${project.id}/badges/${id}`], ['PUT', (id) => `/groups/${group.id}/badges/${id}`, (id) => ({ link_url: id })],
      ['DELETE', (id) => `/projects/${id}/badges/1`],
    ]
    for (const [method, path, body] of routes) {
      for (const id of ODD_IDS) {
        const res = await f.root.request(method, path(id), body === undefined ? {} : { json: body(id) })
        expect([method, path(id), res.status >= 400 && res.status < 500]).toEqual([method, path(id), true])
        expect(typeof JSON.parse(res.text)).toBe('object')
      }
    }
  })

  it('answer odd bodies with 400', async () => {
    const bodies: [string, string, unknown][] = [
      ['POST', '/user/keys', { title: ['a'], key: { k: 1 } }],
      ['POST', '/user/keys', { title: 't', key: `ssh-rsa ${'A'.repeat(100_000)}` }],
      ['POST', '/user/keys', { title: 't', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAAQ==' }],
      ['POST', '/user/gpg_keys', { key: '' }],
      ['POST', '/user/emails', { email: ['a@b.c'] }],
      ['PUT', '/user/status', { emoji: { a: 1 }, message: 'x'.repeat(101) }],
      ['PUT', '/notification_settings', { level: ['watch'] }],
      ['PUT', `/users/${f.bob.id}`, { projects_limit: 1e300, admin: 'sometimes' }],
      ['POST', '/users', { username: 'u', email: 'u@example.com', name: 'u', password: 'password-1', avatar: 'not a file' }],
    ]
    for (const [method, path, body] of bodies) {
      const res = await f.root.request(method, path, { json: body })
      expect([path, res.status]).toEqual([path, 400])
    }
  })
})
