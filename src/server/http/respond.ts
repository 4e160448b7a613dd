// Writes results and errors: JSON with exactly `Content-Type: application/json`, GitLab's error bodies, never a crash.
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../core/errors.js'
import { JsonText } from '../../core/json-text.js'
import type { Logger } from '../../core/logger.js'

// python-gitlab 3.12 compares Content-Type to this exact string; a charset suffix breaks every call.
export const JSON_TYPE = 'application/json'

/** A JSON answer as status, headers and text, ready to write (and to remember in the response cache). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string>) {
  if (status === 204 || status === 304 || body === undefined) return { status, headers, body: '', bytes: 0 }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  const bytes = Buffer.byteLength(text)
  return { status, headers: { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': bytes }, body: text, bytes }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return
  const r = jsonResponse(status, body, headers)
  res.writeHead(r.status, r.headers)
  res.end(r.body)
}

export function sendError(res: ServerResponse, err: unknown, log: Logger) {
  if (err instanceof CollabError) {
    sendJson(res, err.status, err.status === 304 ? undefined : err.body, err.headers)
    return
  }
  log.error('unhandled error while serving a request', err)
  if (res.headersSent) {
    res.destroy()
    return
  }
  sendJson(res, 500, { message: '500 Internal Server Error' })
}

export const routeNotFound = (res: ServerResponse) => sendJson(res, 404, { error: '404 Not Found' })

/** A path we serve, asked with another method: Grape's route-level 405 (compat-notes §3.3). */
export const routeNotAllowed = (res: ServerResponse, allowed: string[]) =>
  sendJson(res, 405, { error: '405 Not Allowed' }, { Allow: allowed.join(', ') })
