// Sends one fuzz request over raw node:http and judges the answer: no 5xx, a GitLab-shaped JSON body for every 4xx.
import http from 'node:http'
import { describeRequest, type FuzzRequest } from './requests.js'

export interface Answer { status: number; headers: http.IncomingHttpHeaders; text: string }

// A bound for a server that never answers, not a speed target: the first GET /openapi.json builds the whole document,
// which took more than 5 s on a loaded 2-core machine.
const TIMEOUT_MS = 20_000

/** One keep-alive connection per target: a request that leaves bytes behind on it is caught by the next one. */
export function sender(url: string) {
  const { hostname, port } = new URL(url)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const parallel = new http.Agent({ keepAlive: true, maxSockets: 16 })
  const send = (r: FuzzRequest, concurrent = false): Promise<Answer> => new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...r.headers }
    if (r.body) headers['Content-Length'] = r.lyingLength ? 1_000_000_000 : r.body.length
    const req = http.request({ host: hostname, port, method: r.method, path: r.path, headers, agent: r.lyingLength ? false : concurrent ? parallel : agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)))
    req.on('error', reject)
    req.end(r.body)
  })
  return { send, close: () => { agent.destroy(); parallel.destroy() } }
}

const isGitLabError = (body: unknown) => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false
  const b = body as Record<string, unknown>
  if ('message' in b) return typeof b.message === 'string' || (b.message !== null && typeof b.message === 'object')
  return typeof b.error === 'string'
}

/** What is wrong with an answer; empty when it is acceptable. */
export function problemsOf(r: FuzzRequest, a: Answer): string[] {
  const problems: string[] = []
  if (a.status >= 500) problems.push(`answered ${a.status}`)
  const type = a.headers['content-type']
  let parsed: unknown
  const isJson = type === 'application/json'
  if (isJson && a.text !== '') {
    try {
      parsed = JSON.parse(a.text)
    } catch {
      problems.push('Content-Type is application/json but the body is not JSON')
    }
  }
  // HEAD carries no body; every other 4xx is GitLab's JSON error, whatever the endpoint answers on success.
  // Web pages and their forms (outside /api and /oauth) answer their 4xx as an HTML page, as GitLab's do.
  const isPage = type === 'text/html; charset=utf-8' && !/^\/(api|oauth)(\/|$|\?)/i.test(r.path)
  if (a.status >= 400 && a.status < 500 && r.method !== 'HEAD' && !isPage) {
    if (!isJson) problems.push(`a ${a.status} with Content-Type ${JSON.stringify(type)}, not application/json`)
    else if (!isGitLabError(parsed)) problems.push(`a ${a.status} whose body is not {"message": …} or {"error": "…"}`)
  }
  return problems
}

/** A request and its answer as a reader replays them. */
export function describe(r: FuzzRequest, a?: Answer): string {
  return describeRequest(r) + (a ? ` -> ${a.status} ${a.headers['content-type'] ?? ''} ${a.text.slice(0, 300)}` : '')
}
