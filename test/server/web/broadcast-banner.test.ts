// Broadcast banners on the web pages: an active banner shows on every page as text in its theme's class, one with a
// target_path only where the path matches, none once it has ended, and none aimed at access levels (no project here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { getPage, injected, XSS } from './wiki-snippet-fixture.js'

let server: TestServer
let root: Api
// The server's clock: what is active, over or to come is decided against it, not against this machine's.
const NOW = Date.parse('2024-03-04T05:06:07.000Z')

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(new Date(NOW)) })
  root = api(server, server.rootToken)
})
afterAll(() => server.close())

const banners = (html: string) => [...html.matchAll(/<div class="(broadcast[^"]*)" role="status">([^<]*)<\/div>/g)].map((m) => [m[1], m[2]])

describe('broadcast banners', () => {
  it('shows the active banners that match the page, as text', async () => {
    const at = (ms: number) => new Date(NOW + ms).toISOString()
    expectStatus(await root.post('/broadcast_messages', { message: `Maintenance ${XSS}`, theme: 'red' }), 201)
    expectStatus(await root.post('/broadcast_messages', { message: 'Only on sign-in', target_path: '/users/*' }), 201)
    expectStatus(await root.post('/broadcast_messages', { message: 'For developers', target_access_levels: [30] }), 201)
    expectStatus(await root.post('/broadcast_messages', { message: 'Over', starts_at: at(-7_200_000), ends_at: at(-3_600_000) }), 201)
    expectStatus(await root.post('/broadcast_messages', { message: 'Notification kind', broadcast_type: 'notification' }), 201)

    const home = await getPage({ server }, '/')
    expect(home.status).toBe(200)
    expect(banners(home.text)).toEqual([['broadcast theme-red',
      'Maintenance &lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;']])
    expect(injected(home.text)).toEqual([])
    const signIn = await getPage({ server }, '/users/sign_in')
    expect(banners(signIn.text).map(([, text]) => text.slice(0, 11))).toEqual(['Maintenance', 'Only on sig'])
  })
})
