// Requests whose bodies are bytes, not the client's text: a job log read from an offset, artifacts streamed to disk.
// Same host, token and header as the API client; redirects (GitLab sends artifacts from object storage) are followed,
// and the token never travels to another origin.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { CollabError } from '../../src/core/errors.js'
import { VERSION } from '../../src/core/version.js'
import { apiError, type ApiClient, type Query } from '../../src/client/http.js'
import type { Route } from '../../src/client/paths.js'

export interface ByteAnswer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

function send(url: URL, headers: Record<string, string>, method: string): Promise<IncomingMessage> {
  return (url.protocol === 'https:' ? import('node:https') : import('node:http')).then(({ request }) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(url, { method, headers }, resolve)
      req.on('error', reject)
      req.end()
    }))
}

async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The response to `route` (a GET, or a POST that answers bytes), its body unread; a 4xx or 5xx answer is thrown as the client's ApiError. */
export function openBytes(api: ApiClient, route: Route, options: { query?: Query; headers?: Record<string, string> } = {}): Promise<IncomingMessage> {
  return openUrl(api, api.url(route.path, options.query), { ...options, method: route.method })
}

/** A GET of any URL (a release's asset link), with the client's token only if it lies on the client's host. */
export async function openUrl(api: ApiClient, start: URL, options: { headers?: Record<string, string>; method?: string } = {}): Promise<IncomingMessage> {
  const method = options.method ?? 'GET'
  let url = start
  const credentials = api.credentials()
  // The token goes to the client's own host only: never to an external link, nor where a redirect leads.
  const origin = new URL(api.apiRoot).origin
  for (let hops = 0; ; hops++) {
    const headers: Record<string, string> = { 'User-Agent': `collab/${VERSION}`, ...options.headers }
    if (credentials && url.origin === origin) headers[credentials.header] = credentials.token
    let res: IncomingMessage
    try {
      res = await send(url, headers, method)
    } catch (err) {
      throw new CollabError('NETWORK', `cannot reach ${url.origin}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
    }
    const status = res.statusCode ?? 0
    if (REDIRECTS.has(status) && res.headers.location && hops < 5) {
      res.resume()
      url = new URL(res.headers.location, url)
      continue
    }
    if (status >= 400 && status !== 416) {
      const text = (await readAll(res)).toString('utf8')
      const rawHeaders: [string, string][] = []
      for (let i = 0; i < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i], res.rawHeaders[i + 1]])
      throw apiError({ method, url: url.href, status, statusText: res.statusMessage ?? '', rawHeaders, text })
    }
    return res
  }
}

/** The whole body of a GET of `route` as bytes. */
export async function getBytes(api: ApiClient, route: Route, options: { query?: Query; headers?: Record<string, string> } = {}): Promise<ByteAnswer> {
  const res = await openBytes(api, route, options)
  return { status: res.statusCode ?? 0, headers: res.headers, body: await readAll(res) }
}

/**
 * The bytes of a log from `offset` on. `bytes=N-` is asked for; a 206 answers just those, a server that ignores Range
 * (GitLab's trace endpoint) answers the whole log, which is sliced here, and 416 means nothing was appended.
 */
export async function bytesFrom(api: ApiClient, route: Route, offset: number): Promise<Buffer> {
  const answer = await getBytes(api, route, { headers: offset > 0 ? { Range: `bytes=${offset}-` } : {} })
  if (answer.status === 416) return Buffer.alloc(0)
  if (answer.status === 206) {
    const start = /^bytes (\d+)-/.exec(String(answer.headers['content-range'] ?? ''))
    if (start && Number(start[1]) === offset) return answer.body
    if (start && Number(start[1]) < offset) return answer.body.subarray(offset - Number(start[1]))
    return Buffer.alloc(0)
  }
  return answer.body.subarray(Math.min(offset, answer.body.length))
}
