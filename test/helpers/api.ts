// Raw HTTP helpers for server tests: a fetch wrapper that keeps status, headers and exact text, and fixtures made through the API.
import http from 'node:http'
import type { TestServer } from './server.js'

export type QueryValue = string | number | boolean | readonly (string | number)[]

export interface RequestOptions {
  query?: Record<string, QueryValue> | string
  /** Sent as a JSON body with `Content-Type: application/json`. */
  json?: unknown
  /** Sent as `application/x-www-form-urlencoded`; a string is sent as is. */
  form?: Record<string, string> | string
  /** A raw body; set the Content-Type in `headers`. */
  body?: string | Buffer
  headers?: Record<string, string>
}

export interface Reply<T = any> {
  status: number
  headers: Headers
  /** The body exactly as sent. */
  text: string
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  body: T
}

/** `a[]=1&a[]=2` for arrays, as GitLab clients send them. */
export function queryString(query: RequestOptions['query']): string {
  if (query === undefined) return ''
  if (typeof query === 'string') return query
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v) q.append(`${k}[]`, String(item))
    else q.append(k, String(v))
  }
  return q.toString()
}

/**
 * fetch sends on a pooled keep-alive connection; when a test held the event loop longer than the server's keep-alive
 * timeout (5 s: a synchronous loop over the store, a loaded machine), the server's close and the next request cross and
 * the request fails with ECONNRESET although the server never read it. Asked again once on a new connection, as
 * browsers do; a reset the server means (a refused body) comes again and is thrown.
 */
function staleConnection(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } })?.cause?.code
  return err instanceof TypeError && (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
}

/** Any request against the server (paths outside /api/v4 too, e.g. `/oauth/token`). */
export async function request(server: Pick<TestServer, 'url'>, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const qs = queryString(opts.query)
  const url = `${server.url}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`
  const headers: Record<string, string> = { ...opts.headers }
  let body: string | Buffer | undefined = opts.body
  if (opts.json !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = JSON.stringify(opts.json)
  } else if (opts.form !== undefined) {
    headers['Content-Type'] ??= 'application/x-www-form-urlencoded'
    body = typeof opts.form === 'string' ? opts.form : new URLSearchParams(opts.form).toString()
  }
  const res = await fetch(url, { method, headers, body, redirect: 'manual' }).catch((err: unknown) => {
    if (!staleConnection(err)) throw err
    return fetch(url, { method, headers, body, redirect: 'manual' })
  })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

/**
 * A request through node:http, for what fetch will not send: a literal path (`/api/v4/../x`, bad escapes),
 * a chosen Host header, a body streamed in chunks.
 */
export function rawRequest(
  server: Pick<TestServer, 'url'>,
  opts: { method?: string; path: string; headers?: Record<string, string | number>; body?: string | Buffer | Iterable<Buffer> },
): Promise<Reply> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const headers = new Headers()
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
        let body: unknown
        try {
          body = text === '' ? undefined : JSON.parse(text)
        } catch {
          body = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers, text, body })
      })
    })
    // The server may answer (413) before the whole body is sent and then close; the answer is what counts.
    req.on('error', reject)
    if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) req.end(opts.body)
    else if (opts.body) {
      for (const chunk of opts.body) req.write(chunk)
      req.end()
    } else req.end()
  })
}

export interface Api {
  get<T = any>(path: string, opts?: RequestOptions): Promise<Reply<T>>
  post<T = any>(path: string, json?: unknown, opts?: RequestOptions): Promise<Reply<T>>
  put<T = any>(path: string, json?: unknown, opts?: RequestOptions): Promise<Reply<T>>
  del<T = any>(path: string, opts?: RequestOptions): Promise<Reply<T>>
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<Reply<T>>
}

/** A client for `/api/v4` sending `token` as PRIVATE-TOKEN (none when null). */
export function api(server: Pick<TestServer, 'url'>, token: string | null = null): Api {
  const send = (method: string, path: string, opts: RequestOptions = {}) =>
    request(server, method, `/api/v4${path}`, { ...opts, headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), ...opts.headers } })
  return {
    get: (path, opts) => send('GET', path, opts),
    post: (path, json, opts) => send('POST', path, { ...opts, ...(json !== undefined ? { json } : {}) }),
    put: (path, json, opts) => send('PUT', path, { ...opts, ...(json !== undefined ? { json } : {}) }),
    del: (path, opts) => send('DELETE', path, opts),
    request: send,
  }
}

/** Fails the test with the server's answer when the status is not the expected one. */
export function expectStatus<T>(reply: Reply<T>, status: number): Reply<T> {
  if (reply.status !== status) throw new Error(`expected HTTP ${status}, got ${reply.status}: ${reply.text}`)
  return reply
}

export interface TestUser {
  id: number
  username: string
  email: string
  password: string
  token: string
  api: Api
}

/** A user created by root through the API, with a personal access token (scope `api` unless given). */
export async function createUser(
  server: TestServer,
  username: string,
  opts: { admin?: boolean; scopes?: string[]; name?: string } = {},
): Promise<TestUser> {
  const root = api(server, server.rootToken)
  const password = `${username}-password-1`
  const email = `${username}@example.com`
  const user = expectStatus(await root.post('/users', { username, email, name: opts.name ?? `User ${username}`, password, admin: opts.admin ?? false }), 201).body
  const token = expectStatus(await root.post(`/users/${user.id}/personal_access_tokens`, { name: 'test', scopes: opts.scopes ?? ['api'] }), 201).body
  return { id: user.id, username, email, password, token: token.token, api: api(server, token.token) }
}

/** A project created by `as` through POST /projects; returns the full entity. */
export async function createProject(as: Api, input: Record<string, unknown>): Promise<any> {
  return expectStatus(await as.post('/projects', input), 201).body
}

/** A group created by `as` through POST /groups. */
export async function createGroup(as: Api, input: { name: string; path: string; [k: string]: unknown }): Promise<any> {
  return expectStatus(await as.post('/groups', input), 201).body
}

/** A clock tests can move: `clock.set('2024-03-01T00:00:00Z')`. */
export function movableClock(start: string) {
  let t = new Date(start).getTime()
  return {
    now: () => new Date(t),
    set: (iso: string) => { t = new Date(iso).getTime() },
    advance: (ms: number) => { t += ms },
  }
}
