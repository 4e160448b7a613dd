// A hook's recent events keep no secret: the URL as configured with its masked parts as {variable}, the secret token
// and custom header values as [REDACTED], and a URL variable's value masked where the reply repeats it (GitLab's
// webhook URL masking covers its logs and the response headers).
import { expect, it } from 'vitest'
import { deliveriesIdle } from '../../../src/server/services/hooks/webhook-delivery.js'
import { createProject, expectStatus } from '../../helpers/api.js'
import { useHookWorld } from './receiver.js'

const w = useHookWorld()

it('logs the masked URL and redacted headers, and masks URL variables the reply repeats', async () => {
  const { server, alice, rx } = w
  const project = await createProject(alice.api, { name: 'masked' })
  const hook = expectStatus(await alice.api.post(`/projects/${project.id}/hooks`, {
    url: `${rx.url}/hook/{secret}`, token: 'the-token', issues_events: true, push_events: false,
    url_variables: [{ key: 'secret', value: 's3cr3t-path' }], custom_headers: [{ key: 'X-Api-Key', value: 'api-key-value' }],
  }), 201).body
  rx.script({ status: 200, body: 'you called /hook/s3cr3t-path' })
  expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Ping' }), 201)
  const [got] = await rx.waitFor(1)
  expect([got.path, got.headers['x-api-key'], got.headers['x-gitlab-token']]).toEqual(['/hook/s3cr3t-path', 'api-key-value', 'the-token'])
  await deliveriesIdle(server.app)
  const [log] = expectStatus(await alice.api.get(`/projects/${project.id}/hooks/${hook.id}/events`), 200).body
  expect([log.url, log.request_headers['X-Api-Key'], log.request_headers['X-Gitlab-Token'], log.response_body])
    .toEqual([`${rx.url}/hook/{secret}`, '[REDACTED]', '[REDACTED]', 'you called /hook/{secret}'])
  expect(JSON.stringify(log)).not.toMatch(/s3cr3t-path|api-key-value|the-token/)
})
