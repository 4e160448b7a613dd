// One end of `collab project migrate`: an API client that counts its requests, reads every page, and writes as
// another user (sudo) when the target allows it.
import { ApiClient, parseJson, type Query } from '../../src/client/http.js'
import { isApiError } from '../../src/client/errors.js'
import type { Route } from '../../src/client/paths.js'
import { nodeTransport, type Transport } from '../../src/client/transport.js'
import { VERSION } from '../../src/core/version.js'

export interface Side {
  readonly api: ApiClient
  /** HTTP requests made so far (the benchmark's requests per copied item). */
  requests(): number
  get<T>(route: Route, query?: Query): Promise<T>
  /** The answer, or undefined on 404. */
  find<T>(route: Route, query?: Query): Promise<T | undefined>
  /** A text body (raw files). */
  text(route: Route): Promise<string>
  /** Every page of a list, 100 at a time. */
  all<T>(route: Route, query?: Query): Promise<T[]>
  /** POST, PUT or DELETE with a JSON body; `sudo` writes as that user. */
  write<T>(route: Route, json?: Record<string, unknown>, sudo?: string): Promise<T>
}

export function side(api: ApiClient): Side {
  let count = 0
  const counting: Transport = (request) => {
    count++
    return nodeTransport(request)
  }
  const credentials = api.credentials()
  const client = new ApiClient({ host: api.host, token: credentials?.token, tokenHeader: credentials?.header, userAgent: `collab/${VERSION} (project migrate)`, transport: counting })
  return {
    api: client,
    requests: () => count,
    get: async (route, query) => parseJson(await client.call(route, { query })),
    async find(route, query) {
      try {
        return parseJson(await client.call(route, { query }))
      } catch (err) {
        if (isApiError(err) && err.status === 404) return undefined
        throw err
      }
    },
    text: async (route) => (await client.call(route)).text,
    async all<T>(route: Route, query: Query = {}) {
      const items: T[] = []
      for await (const response of client.pages(route.method, route.path, { query: { per_page: 100, ...query }, follow: true })) {
        const page = parseJson<T[] | T>(response)
        items.push(...(Array.isArray(page) ? page : [page]))
      }
      return items
    },
    async write(route, json, sudo) {
      const fields = Object.entries(json ?? {}).filter(([, value]) => value !== undefined)
      const response = await client.call(route, {
        json: fields.length > 0 ? Object.fromEntries(fields) : undefined,
        headers: sudo ? { Sudo: sudo } : undefined,
      })
      return parseJson(response)
    },
  }
}

/** The HTTP status of an API error, else undefined (a network failure, a bug). */
export const statusOf = (err: unknown): number | undefined => (isApiError(err) ? err.status : undefined)

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))
