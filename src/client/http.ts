// HTTP client for a GitLab v4 API: auth header, JSON bodies, ApiError, Link-following pagination, raw bodies kept.
import { CollabError } from '../core/errors.js'
import { ApiError } from './errors.js'
import { joinJsonArrays, nextLink } from './pagination.js'
import type { Route } from './paths.js'
import { nodeTransport, type Transport } from './transport.js'

/** `Authorization` sends an OAuth access token as `Bearer TOKEN`, the only way GitLab takes one. */
export type TokenHeader = 'PRIVATE-TOKEN' | 'JOB-TOKEN' | 'Authorization'

export interface ClientOptions {
  /** Base URL of the instance, e.g. `http://127.0.0.1:3000`; the API root is `<host>/api/v4`. */
  host: string
  token?: string
  tokenHeader?: TokenHeader
  userAgent?: string
  transport?: Transport
  /** Per request; none by default. */
  timeoutMs?: number
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[]
export type Query = Record<string, QueryValue>

export interface RequestOptions {
  query?: Query | URLSearchParams
  /** Sent as a JSON body. */
  json?: unknown
  /** Sent as is (with `json` absent); Content-Type defaults to application/json. */
  body?: string | Uint8Array
  headers?: Record<string, string>
  /** When false, a 4xx/5xx answer is returned instead of thrown. */
  throwOnError?: boolean
}

export interface ApiResponse {
  method: string
  url: string
  status: number
  statusText: string
  /** Header names as the server sent them, in order (for `collab api --include`). */
  rawHeaders: [name: string, value: string][]
  /** The body exactly as the server sent it. */
  text: string
}

/** A response header by case-insensitive name; repeated headers are joined with `, `. */
export function header(response: ApiResponse, name: string): string | null {
  const wanted = name.toLowerCase()
  const values = response.rawHeaders.filter(([n]) => n.toLowerCase() === wanted).map(([, v]) => v)
  return values.length > 0 ? values.join(', ') : null
}

export interface Paged<T> {
  items: T[]
  /** The raw body, or with several pages one JSON array joining them. */
  text: string
  responses: ApiResponse[]
}

export const parseJson = <T = unknown>(response: ApiResponse): T => (response.text === '' ? null : JSON.parse(response.text)) as T

/** The ApiError for a 4xx/5xx response; a body that is not JSON is kept as text. */
export function apiError(response: ApiResponse): ApiError {
  let body: unknown = response.text
  try {
    body = response.text === '' ? null : JSON.parse(response.text)
  } catch {}
  return new ApiError(response.method, response.url, response.status, response.statusText, body)
}

/** Arrays go out as `name[]=a&name[]=b`, GitLab's form; null and undefined are left out. */
export function appendQuery(params: URLSearchParams, query: Query): void {
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, String(item))
    else params.append(key, String(value))
  }
}

export class ApiClient {
  readonly host: string
  readonly apiRoot: string
  private readonly token?: string
  private readonly tokenHeader: TokenHeader
  private readonly userAgent: string
  private readonly transport: Transport
  private readonly timeoutMs?: number

  constructor(options: ClientOptions) {
    this.host = options.host.replace(/\/+$/, '')
    this.apiRoot = `${this.host}/api/v4`
    this.token = options.token
    this.tokenHeader = options.tokenHeader ?? 'PRIVATE-TOKEN'
    this.userAgent = options.userAgent ?? 'collab'
    this.transport = options.transport ?? nodeTransport
    this.timeoutMs = options.timeoutMs
  }

  /** The token and how it is sent, for tools that must authenticate the same way (`git clone` over HTTP). */
  credentials(): { token: string; header: TokenHeader } | undefined {
    return this.token ? { token: this.token, header: this.tokenHeader } : undefined
  }

  /** `path` is relative to the API root (with or without a leading `/`), or an absolute URL on this host. */
  url(path: string, query?: Query | URLSearchParams): URL {
    const url = /^https?:\/\//.test(path) ? this.sameOrigin(new URL(path)) : new URL(`${this.apiRoot}/${path.replace(/^\/+/, '')}`)
    if (query instanceof URLSearchParams) for (const [k, v] of query) url.searchParams.append(k, v)
    else if (query) appendQuery(url.searchParams, query)
    return url
  }

  /** Next-page links are followed on our host only, so the token never travels elsewhere. */
  private sameOrigin(url: URL): URL {
    const root = new URL(this.apiRoot)
    if (url.origin === root.origin) return url
    return new URL(url.pathname + url.search, root.origin)
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const url = this.url(path, options.query)
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, Accept: 'application/json' }
    if (this.token) headers[this.tokenHeader] = this.tokenHeader === 'Authorization' ? `Bearer ${this.token}` : this.token
    let body: string | Uint8Array | undefined = options.body
    if (options.json !== undefined) body = JSON.stringify(options.json)
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    Object.assign(headers, options.headers)

    let response: ApiResponse
    try {
      const res = await this.transport({ method, url, headers, body, timeoutMs: this.timeoutMs })
      response = { method, url: url.href, status: res.status, statusText: res.statusText, rawHeaders: res.headers, text: res.text }
    } catch (err) {
      throw networkError(this.host, err)
    }
    if (response.status >= 400 && options.throwOnError !== false) throw apiError(response)
    return response
  }

  /** One endpoint of the contract, by its route. */
  call(route: Route, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request(route.method, route.path, options)
  }

  async get<T>(route: Route<T>, query?: Query): Promise<T> {
    return parseJson<T>(await this.call(route, { query }))
  }

  /** Undefined fields are left out; with none left, no body is sent. */
  async send<T>(route: Route<T>, json?: Record<string, unknown>): Promise<{ data: T; response: ApiResponse }> {
    const fields = Object.entries(json ?? {}).filter(([, value]) => value !== undefined)
    const response = await this.call(route, { json: fields.length > 0 ? Object.fromEntries(fields) : undefined })
    return { data: parseJson<T>(response), response }
  }

  /**
   * The response to one request and, with `follow`, to each `Link: <…>; rel="next"` after it while the
   * answers are 2xx. The next link already carries every query parameter, so `query` applies to the first only.
   */
  async *pages(method: string, path: string, options: RequestOptions & { follow?: boolean } = {}): AsyncGenerator<ApiResponse> {
    const { follow, query, ...rest } = options
    let next: string | undefined = this.url(path, query).href
    while (next) {
      const response = await this.request(method, next, rest)
      yield response
      next = follow && response.status < 300 ? nextLink(header(response, 'link')) : undefined
    }
  }

  /** One page of a list, or with `all` every page; `text` keeps the server's bytes (pages joined into one array). */
  async list<R>(route: Route<R>, query: Query = {}, options: { all?: boolean } = {}): Promise<Paged<R extends readonly (infer T)[] ? T : R>> {
    type T = R extends readonly (infer I)[] ? I : R
    const responses: ApiResponse[] = []
    for await (const response of this.pages(route.method, route.path, { query, follow: options.all })) responses.push(response)
    let items: T[] | undefined
    return {
      // Parsed on first use: `--json` prints the text and never needs them.
      get items() {
        return (items ??= responses.flatMap((r) => {
          const data = parseJson<T[] | T>(r)
          return Array.isArray(data) ? data : [data]
        }))
      },
      text: joinJsonArrays(responses.map((r) => r.text)),
      responses,
    }
  }
}

function networkError(host: string, err: unknown): CollabError {
  // fetch wraps the socket error in `TypeError: fetch failed`; node:http hands it over directly.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err
  const reason = cause instanceof Error ? cause.message : String(cause)
  // An https:// URL for a plain-HTTP server (collab serve) fails in OpenSSL with a record-layer error.
  const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? ''
  if (host.startsWith('https://') && (/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|RECORD_LAYER_FAILURE)/.test(code) || /wrong version number|packet length too long/.test(reason))) {
    const message = `cannot reach ${host}: the server does not speak TLS (https)`
    return new CollabError('NETWORK_NO_TLS', message, { cause: err, body: { message, plain_http: host.replace(/^https:/, 'http:') } })
  }
  return new CollabError('NETWORK', `cannot reach ${host}: ${reason}`, { cause: err })
}
