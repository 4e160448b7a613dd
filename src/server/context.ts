// What every handler and service receives: the app's dependencies and the authenticated caller.
import type { Readable } from 'node:stream'
import type { Clock } from '../core/clock.js'
import type { Logger } from '../core/logger.js'
import type { DataLayout } from '../core/paths.js'
import type { Db } from './store/db.js'
import type { TokenRow } from './store/tokens.js'
import type { UserRow } from './store/users.js'
import type { TaskQueue } from './tasks.js'

export interface AppDeps {
  db: Db
  clock: Clock
  layout: DataLayout
  log: Logger
  tasks: TaskQueue
  /** Whether cacheable GETs may be answered from the response cache (on unless `collab serve --no-response-cache`). */
  responseCache?: boolean
  /**
   * Peer addresses whose `X-Forwarded-Proto` is believed (`collab serve --trusted-proxy`); from anyone else the header
   * is ignored, or any client could make us write `https://` links and Secure cookies for a plain-HTTP connection.
   */
  trustedProxies?: readonly string[]
}

export interface Caller {
  user: UserRow | null
  token: TokenRow | null
  /** Scopes of the credential; null for a web session, which carries the user's full rights. */
  scopes: string[] | null
  /** The administrator acting through `sudo`, when there is one. */
  sudoer: UserRow | null
  /** The running CI job whose token authenticated the request; `user` is then the user who started its pipeline. */
  job?: { id: number; project_id: number } | null
}

export interface RequestContext extends Caller {
  app: AppDeps
  /** `http://host:port` as the client addressed us; every URL we emit is built on it. */
  baseUrl: string
  apiUrl: string
  page: { page: number; perPage: number; limit: number; offset: number }
  /** The request's User-Agent and peer address, which GitLab records with new issues (user_agent_detail). */
  client?: { userAgent: string; ip: string }
  /** The request headers an endpoint declares it reads (`headers` of its declaration), by lower-case name. */
  headers?: Record<string, string | undefined>
  /** The body as bytes, for an endpoint declared with `rawBody`. */
  rawBody?: Buffer
  /**
   * For an endpoint declared with `rawBody` and `uploadsToDisk`: reads the body into a file of the request's own upload
   * directory, once, when the handler has checked what it must (413 past the limit). The handler moves the file away
   * to keep it; the directory is removed after the answer.
   */
  receiveBody?: () => Promise<StoredBody>
  /** Set when the request is gone: a long poll stops waiting. */
  aborted?: AbortSignal
}

/** A request body written to disk as it arrived (`receiveBody`), with the digests GitLab keeps of a package file. */
export interface StoredBody { path: string; size: number; md5: string; sha1: string; sha256: string }

export interface HandlerResult {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** Total rows of a paginated list; the mount turns it into X-Total, X-Total-Pages and Link. */
  total?: number
  /** Instead of `total`, for a list paged without counting it (GitLab's commits): whether a page follows this one. */
  hasNextPage?: boolean
  /** Bytes to send instead of JSON. */
  raw?: Buffer | string
  /** A body streamed as it is read (artifact archives, zip entries); the handler sets Content-Length when it is known. */
  stream?: Readable
}

export const nowIso = (ctx: { app: AppDeps }) => ctx.app.clock.now().toISOString()
