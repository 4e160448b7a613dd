// Webhook benchmark: latency from POST …/issues to the Issue Hook arriving at a local receiver (p50, p99), against
// `collab serve` (built CLI, local hooks allowed by root). Baselines from the same run: the create's own answer
// time, and one bare node:http POST to the same receiver (the floor of a delivery hop).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { row, startCollab, tempDir, TOKEN } from './lib.js'

const ISSUES = 300

function percentile(xs: number[], p: number) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

async function startReceiver(onHook: (title: string) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      if (req.headers['x-gitlab-event'] === 'Issue Hook') onHook((JSON.parse(body) as { object_attributes: { title: string } }).object_attributes.title)
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

async function call(url: string, method: string, body?: unknown) {
  const res = await fetch(url, { method, headers: { 'private-token': TOKEN, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`)
  return JSON.parse(text)
}

export async function webhooksBench() {
  const arrived = new Map<string, () => void>()
  const receiver = await startReceiver((title) => arrived.get(title)?.())
  const collab = await startCollab(tempDir('webhooks-data'), tempDir('webhooks-config'))
  try {
    const api = `${collab.url}/api/v4`
    // The receiver is local: as on GitLab, only an administrator can allow that.
    await call(`${api}/application/settings`, 'PUT', { allow_local_requests_from_hooks_and_services: true })
    const project = await call(`${api}/projects`, 'POST', { name: 'hooks-bench' })
    await call(`${api}/projects/${project.id}/hooks`, 'POST', { url: `${receiver.url}/hook`, push_events: false, issues_events: true })
    const answer: number[] = []
    const delivery: number[] = []
    const bare: number[] = []
    for (let i = 0; i < ISSUES; i++) {
      const title = `Issue ${i}`
      const got = new Promise<void>((resolve) => arrived.set(title, resolve))
      const start = performance.now()
      await call(`${api}/projects/${project.id}/issues`, 'POST', { title })
      answer.push(performance.now() - start)
      await got
      delivery.push(performance.now() - start)
      arrived.delete(title)
      const hop = performance.now()
      await fetch(`${receiver.url}/bare`, { method: 'POST', body: '{}' }).then((r) => r.text())
      bare.push(performance.now() - hop)
    }
    const ms = (x: number) => `${x.toFixed(2)} ms`
    console.log(row(['', 'p50', 'p99', '']))
    console.log(row(['issue create → Issue Hook received', ms(percentile(delivery, 50)), ms(percentile(delivery, 99))]))
    console.log(row(['issue create answered (baseline)', ms(percentile(answer, 50)), ms(percentile(answer, 99))]))
    console.log(row(['bare POST to the receiver (baseline)', ms(percentile(bare, 50)), ms(percentile(bare, 99))]))
    const floor = percentile(answer, 50) + percentile(bare, 50)
    console.log(row(['delivery p50 ÷ (create + bare hop) p50', `${(percentile(delivery, 50) / floor).toFixed(2)}x`, '']))
  } finally {
    await collab.stop()
    await receiver.close()
  }
}
