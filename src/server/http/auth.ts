// Finds the caller of a request: PRIVATE-TOKEN / private_token, Bearer / access_token, the session cookie, then sudo.
import type { IncomingMessage } from 'node:http'
import type { AppDeps, Caller } from '../context.js'
import type { Socket } from 'node:net'
import { applySudo, callerFromSession, callerFromToken, tokenHash } from '../services/auth.js'

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

export function authenticate(app: AppDeps, req: IncomingMessage, params: Record<string, unknown>): Caller {
  const bearer = header(req, 'authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  const secret = header(req, 'private-token') ?? asString(params.private_token) ?? bearer ?? asString(params.access_token)
  let caller = ANONYMOUS
  if (secret) caller = callerFromToken(app, hashFor(req, secret.trim()))
  else {
    const session = readCookie(req, SESSION_COOKIE)
    if (session) caller = callerFromSession(app, session, req.method ?? 'GET', header(req, 'x-csrf-token')) ?? ANONYMOUS
  }
  const sudo = header(req, 'sudo') ?? asString(params.sudo)
  if (sudo !== undefined && sudo !== '' && caller.user) caller = applySudo(app, caller, sudo)
  return caller
}
