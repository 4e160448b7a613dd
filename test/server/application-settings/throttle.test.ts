// The throttle_* settings (429 with Retry-After over the limit: API calls per user, anonymous requests per IP) and unique_ips_limit_*.
import http from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, request } from '../../helpers/api.js'
import { settingsFixture, type SettingsFixture } from '../../helpers/settings.js'

// 00:00:10 into a minute: a 60-second window has 50 seconds left.
const START = '2024-01-02T03:04:10.000Z'
let clock: SettingsFixture['clock']
let server: SettingsFixture['server']
let root: SettingsFixture['root']
let alice: SettingsFixture['alice']
let set: SettingsFixture['set']

beforeEach(async () => {
  ;({ clock, server, root, alice, set } = await settingsFixture(START))
})
afterEach(() => server.close())

describe('throttle_authenticated_api_*', () => {
  beforeEach(() => set({ throttle_authenticated_api_enabled: true, throttle_authenticated_api_period_in_seconds: 60, throttle_authenticated_api_requests_per_period: 3 }))

  it('answers 429 with Retry-After and RateLimit-* headers after the limit, per user, until the period ends', async () => {
    for (let i = 0; i < 3; i++) expectStatus(await alice.api.get('/user'), 200)
    const res = await alice.api.get('/user')
    expect(res.status).toBe(429)
    expect(res.body).toEqual({ message: 'Retry later' })
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(Object.fromEntries([...res.headers].filter(([k]) => k === 'retry-after' || k.startsWith('ratelimit-')))).toEqual({
      'retry-after': '50',
      'ratelimit-name': 'throttle_authenticated_api',
      'ratelimit-limit': '3',
      'ratelimit-observed': '4',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Date.parse('2024-01-02T03:05:00.000Z') / 1000),
      'ratelimit-resettime': 'Tue, 02 Jan 2024 03:05:00 GMT',
    })
    // Another user has a budget of their own.
    const bob = await createUser(server, 'bob')
    expectStatus(await bob.api.get('/user'), 200)
    clock.advance(50_000)
    expectStatus(await alice.api.get('/user'), 200)
  })

  it('throttles writes too, and a refused request changes nothing', async () => {
    for (let i = 0; i < 3; i++) expectStatus(await alice.api.get('/user'), 200)
    expect((await alice.api.post('/projects', { name: 'late' })).status).toBe(429)
    clock.advance(60_000)
    expect(expectStatus(await alice.api.get('/projects', { query: { owned: true } }), 200).body).toEqual([])
  })

  it('counts anonymous requests separately', async () => {
    for (let i = 0; i < 3; i++) expectStatus(await alice.api.get('/user'), 200)
    expectStatus(await api(server).get('/projects'), 200)
  })

  it('stops when the setting is turned off', async () => {
    for (let i = 0; i < 4; i++) await alice.api.get('/user')
    clock.advance(60_000)
    // root's own budget: its settings change is request 1 of its window.
    await set({ throttle_authenticated_api_enabled: false })
    for (let i = 0; i < 10; i++) expectStatus(await alice.api.get('/user'), 200)
  })
})

describe('throttle_unauthenticated_*', () => {
  beforeEach(() => set({ throttle_unauthenticated_enabled: true, throttle_unauthenticated_period_in_seconds: 60, throttle_unauthenticated_requests_per_period: 2 }))

  it('answers 429 per IP to requests without credentials, and leaves authenticated ones alone', async () => {
    await createProject(root, { name: 'open', visibility: 'public' })
    const anonymous = api(server)
    expectStatus(await anonymous.get('/projects'), 200)
    expectStatus(await anonymous.get('/projects'), 200)
    const res = await anonymous.get('/projects')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('50')
    expect(res.headers.get('ratelimit-name')).toBe('throttle_unauthenticated')
    expectStatus(await alice.api.get('/user'), 200)
    clock.advance(50_000)
    expectStatus(await anonymous.get('/projects'), 200)
  })

  it('counts rejected credentials and the password endpoints as unauthenticated', async () => {
    expect((await api(server, 'wrong-token').get('/user')).status).toBe(401)
    expect((await request(server, 'POST', '/oauth/token', { form: { grant_type: 'password', username: 'alice', password: 'guess' } })).status).toBe(400)
    expect((await request(server, 'POST', '/users/sign_in', { form: { login: 'alice', password: 'guess' } })).status).toBe(429)
    expect((await api(server, 'wrong-token').get('/user')).status).toBe(429)
  })
})

describe('unique_ips_limit_*', () => {
  /** A request from another loopback address (127.0.0.0/8 is all this machine on Linux). */
  function from(localAddress: string, token: string): Promise<number> {
    const { hostname, port } = new URL(server.url)
    return new Promise((resolve, reject) => {
      const req = http.request({ host: hostname, port, path: '/api/v4/user', localAddress, headers: { 'PRIVATE-TOKEN': token } }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      req.end()
    })
  }

  it('refuses a user seen from more IPs than allowed within the window (403), until the window passes', async () => {
    await set({ unique_ips_limit_enabled: true, unique_ips_limit_per_user: 2, unique_ips_limit_time_window: 60 })
    expect(await from('127.0.0.1', alice.token)).toBe(200)
    expect(await from('127.0.0.2', alice.token)).toBe(200)
    expect(await from('127.0.0.3', alice.token)).toBe(403)
    expect(await from('127.0.0.1', alice.token)).toBe(403)
    expect(await from('127.0.0.4', server.rootToken)).toBe(200)
    clock.advance(61_000)
    expect(await from('127.0.0.3', alice.token)).toBe(200)
  })

  it('does nothing while turned off', async () => {
    for (const ip of ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4']) expect(await from(ip, alice.token)).toBe(200)
  })
})
