// python-gitlab 3.12 (a real client) managing project and system hooks; the issue it creates reaches the receiver.
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, expectStatus } from '../../helpers/api.js'
import { hasPythonGitlab } from '../../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { startReceiver, type Receiver } from './receiver.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab on hooks', () => {
  let server: TestServer
  let rx: Receiver
  beforeAll(async () => {
    server = await startTestServer()
    rx = await startReceiver()
    expectStatus(await api(server, server.rootToken).put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  })
  afterAll(async () => {
    await server.close()
    await rx.close()
  })

  it('creates, saves, lists and deletes hooks, and its issue is delivered', async () => {
    const script = new URL('./python-gitlab-hooks.py', import.meta.url).pathname
    const { stdout } = await execa('/usr/bin/python3', [script, server.url, server.rootToken, rx.url], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    expect(JSON.parse(stdout)).toEqual({
      created: [`${rx.url}/py`, true, false, 'executable', false],
      saved: [true, true],
      list: [true],
      bad: [422, 'Invalid url given'],
      after: 0,
      system: [true, true, [`${rx.url}/sys`]],
      system_after: 0,
    })
    const [got] = await rx.waitFor(1)
    expect(got).toMatchObject({ path: '/py', headers: { 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'py-secret' }, body: { object_attributes: { title: 'From python' } } })
  })
})
