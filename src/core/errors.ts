// The one error type: a stable code (from the catalogue in ./error-codes.ts), an HTTP status and GitLab's body shape,
// rendered in one place.
import { statusOf, type ErrorCode, type NotFoundCode, type NotFoundSubject } from './error-codes.js'

export type { ErrorCode } from './error-codes.js'
export type ErrorBody = Record<string, unknown>

export interface CollabErrorOptions {
  status?: number
  body?: ErrorBody
  headers?: Record<string, string>
  cause?: unknown
}

export class CollabError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly body: ErrorBody
  readonly headers: Record<string, string>

  constructor(code: ErrorCode, message: string, options: CollabErrorOptions = {}) {
    super(message, { cause: options.cause })
    this.name = 'CollabError'
    this.code = code
    this.status = options.status ?? statusOf(code)
    this.body = options.body ?? { message }
    this.headers = options.headers ?? {}
  }
}

/**
 * GitLab's `404 <subject> Not Found`, with the subject's code; a message that is no subject (GitLab words some 404s as
 * sentences) names its code.
 */
export function notFound(subject: NotFoundSubject): CollabError
export function notFound(message: string, code: ErrorCode): CollabError
export function notFound(what: string, code?: ErrorCode): CollabError {
  return new CollabError(code ?? (`${what.toUpperCase().replaceAll(' ', '_')}_NOT_FOUND` as NotFoundCode), `404 ${what} Not Found`, { status: 404 })
}

/** GitLab's missing-attribute wording, which clients match on. */
export const missingAttribute = (name: string) =>
  new CollabError('MISSING_ATTRIBUTE', `400 (Bad request) "${name}" not given`, { status: 400 })

export const badRequest = (reason: string) =>
  new CollabError('BAD_REQUEST', `400 Bad request - ${reason}`, { status: 400 })

export const validationFailed = (fields: Record<string, string[] | Record<string, unknown>>) =>
  new CollabError('VALIDATION_FAILED', 'Validation failed', { status: 400, body: { message: fields } })

export const unauthorized = () => new CollabError('UNAUTHORIZED', '401 Unauthorized', { status: 401 })

export const forbidden = (reason?: string) =>
  new CollabError('FORBIDDEN', reason ? `403 Forbidden - ${reason}` : '403 Forbidden', { status: 403 })

export const conflict = (message: string, body?: ErrorBody) =>
  new CollabError('CONFLICT', message, { status: 409, body })

export const notModified = () => new CollabError('NOT_MODIFIED', '304 Not Modified', { status: 304 })

export const isCollabError = (err: unknown): err is CollabError => err instanceof CollabError
