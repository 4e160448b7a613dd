// Finds the caller of a request (JOB-TOKEN / job_token where allowed, PRIVATE-TOKEN / private_token, Bearer / access_token,
// the session cookie, then sudo), from the headers first and from the body only as far as an unknown caller may make us read it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AppDeps, Caller } from '../context.js'
import type { Socket } from 'node:net'
import { CollabError, unauthorized } from '../../core/errors.js'
import { applySudo, callerFromSession, callerFromToken, tokenHash } from '../services/users/auth.js'
import { JOB_TOKEN_PREFIX } from '../../core/token-prefixes.js'
import { callerFromJobToken } from '../services/ci/job-tokens.js'
import { readBody } from './body.js'
import { authenticateThrottled } from './throttle.js'

export const SESSION_COOKIE = '_service_session'
const ANONYMOUS: Caller = { user: null, token: null, scopes: null, sudoer: null }

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const raw = header(req, 'cookie')
  if (!raw) return undefined
  for (const part of raw.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) return decodeCookie(part.slice(i + 1).trim())
  }
  return undefined
}

// A value with a broken percent-escape was never one of ours: the caller is anonymous, not a 500.
function decodeCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v)
const asString = (v: unknown) => (typeof first(v) === 'string' ? (first(v) as string) : undefined)

// A keep-alive connection sends the same token with every request: its hash is kept with the connection, and goes with it.
const lastHash = new WeakMap<Socket, { secret: string; hash: string }>()

function hashFor(req: IncomingMessage, secret: string): string {
  const known = lastHash.get(req.socket)
  if (known?.secret === secret) return known.hash
  const hash = tokenHash(secret)
  lastHash.set(req.socket, { secret, hash })
  return hash
}

/**
 * What an anonymous caller may make us buffer while we look in the body for `private_token` / `access_token`: forms
 * and JSON that carry a token there are small (GitLab's clients send large bodies with a header token), and 64 KiB
 * is far below the 20 MiB every authenticated caller gets.
 */
const ANONYMOUS_BODY_LIMIT = 64 * 1024

export interface BodyLimits {
  limit: number
  fileLimit: number
  /** Multipart files go to this directory as they arrive (an endpoint declared `uploadsToDisk`). */
  toDir?: string
}

/**
 * The caller named by the headers or the query string: a token, else the session cookie, else anonymous. Runs before
 * any byte of the body is read, so an unknown token answers 401 without reading it.
 */
function callerFromHeaders(app: AppDeps, req: IncomingMessage, query: Record<string, unknown>, jobToken: boolean, basicAuth: boolean): Caller {
  const bearer = header(req, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  const jobBearer = jobToken && bearer?.startsWith(JOB_TOKEN_PREFIX) ? bearer : undefined
  const basic = basicAuth ? basicCredentials(req) : undefined
  const basicJob = basic?.user === JOB_TOKEN_USER ? basic.password : undefined
  // Personal and OAuth tokens first, then the job token, as GitLab's find_user_from_sources.
  const secret = header(req, 'private-token') ?? asString(query.private_token) ?? (jobBearer ? undefined : bearer) ?? asString(query.access_token)
    ?? (basicJob === undefined ? basic?.password : undefined)
  if (secret) return callerFromToken(app, hashFor(req, secret.trim()))
  // Job tokens count only where GitLab allows them (job_token_allowed); elsewhere JOB-TOKEN is not looked at.
  const job = jobToken ? jobBearer ?? header(req, 'job-token') ?? asString(query.job_token) ?? basicJob : undefined
  if (job) return callerFromJobToken(app, job.trim())
  const session = readCookie(req, SESSION_COOKIE)
  return (session && callerFromSession(app, session, req.method ?? 'GET', header(req, 'x-csrf-token'))) || ANONYMOUS
}

/** The username under which Basic credentials carry a job token, as in git over HTTP. */
const JOB_TOKEN_USER = 'gitlab-ci-token'

/** `Authorization: Basic` as user and password; the password is the token (a blank one counts as none). */
function basicCredentials(req: IncomingMessage): { user: string; password: string } | undefined {
  const encoded = header(req, 'authorization')?.match(/^Basic\s+(\S+)$/i)?.[1]
  if (!encoded) return undefined
  const text = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 0 || colon === text.length - 1) return undefined
  return { user: text.slice(0, colon), password: text.slice(colon + 1) }
}

/** The body, read under the full limits only for a caller who is known or may stay anonymous. */
async function bodyFor(req: IncomingMessage, caller: Caller, needsCaller: boolean, limits: BodyLimits) {
  if (caller.user || !needsCaller) return readBody(req, limits.limit, limits.fileLimit, undefined, limits.toDir)
  try {
    return await readBody(req, ANONYMOUS_BODY_LIMIT, ANONYMOUS_BODY_LIMIT, ANONYMOUS_BODY_LIMIT)
  } catch (err) {
    throw err instanceof CollabError && err.status === 413 ? unauthorized() : err
  }
}

async function identify(app: AppDeps, req: IncomingMessage, query: Record<string, unknown>, needsCaller: boolean, limits: BodyLimits | null, jobToken: boolean,
  basicAuth: boolean) {
  let caller = callerFromHeaders(app, req, query, jobToken, basicAuth)
  const body = limits ? await bodyFor(req, caller, needsCaller, limits) : {}
  // GitLab also reads the token from the body; a token in the headers or the query string wins over it.
  const bodySecret = caller.token ? undefined : asString(body.private_token) ?? asString(body.access_token)
  if (bodySecret) caller = callerFromToken(app, hashFor(req, bodySecret.trim()))
  const sudo = header(req, 'sudo') ?? asString(body.sudo) ?? asString(query.sudo)
  if (sudo !== undefined && sudo !== '' && caller.user) caller = applySudo(app, caller, sudo)
  return { caller, body }
}

/**
 * Authenticates a request and reads its body (`limits` null: it has none) in that order: headers and query string
 * first, then the body, of which an anonymous caller of an endpoint that `needsCaller` gets only ANONYMOUS_BODY_LIMIT.
 * Counted once against the throttles, as GitLab counts a request.
 */
export async function authenticateRequest(
  app: AppDeps, req: IncomingMessage, res: ServerResponse, query: Record<string, unknown>, needsCaller: boolean, limits: BodyLimits | null,
  jobToken = false, basicAuth = false,
): Promise<{ caller: Caller; body: Record<string, unknown> }> {
  let outcome: { caller: Caller; body: Record<string, unknown> } | undefined
  let failure: unknown
  try {
    outcome = await identify(app, req, query, needsCaller, limits, jobToken, basicAuth)
  } catch (err) {
    failure = err
    // Refused before the body has arrived: closing the connection keeps its rest from being read at all.
    if (limits && !req.complete) res.setHeader('Connection', 'close')
  }
  const caller = authenticateThrottled(app, req, () => {
    if (!outcome) throw failure
    return outcome.caller
  })
  return { caller, body: outcome!.body }
}
