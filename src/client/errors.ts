// ApiError: a non-2xx answer from a v4 API, with its status and parsed body.
import { CollabError } from '../core/errors.js'

/** GitLab puts the reason in `error` (Grape, OAuth) or `message` (everything else); validation messages are objects. */
export function apiErrorMessage(status: number, statusText: string, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const { error, message, error_description: description } = body as Record<string, unknown>
    const reason = error ?? message
    if (reason !== undefined && reason !== null) {
      const text = typeof reason === 'string' ? reason : JSON.stringify(reason)
      return typeof description === 'string' && description ? `${text}: ${description}` : text
    }
  }
  return `${status} ${statusText}`.trim()
}

export class ApiError extends CollabError {
  readonly method: string
  readonly url: string

  constructor(method: string, url: string, status: number, statusText: string, body: unknown) {
    const parsed = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : { message: body }
    super('API_ERROR', apiErrorMessage(status, statusText, body), { status, body: parsed })
    this.name = 'ApiError'
    this.method = method
    this.url = url
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError
