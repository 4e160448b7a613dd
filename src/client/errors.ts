// ApiError: a non-2xx answer from a v4 API, with its status and parsed body.
import { CollabError } from '../core/errors.js'

/** GitLab puts the reason in `error` (Grape, OAuth) or `message` (everything else); validation messages are objects. */
export function apiErrorMessage(status: number, statusText: string, body: unknown): string {
  if (body !== null && typeof body === 'object') {
    const { error, message, error_description: description } = body as Record<string, unknown>
    const reason = error ?? message
    if (reason !== undefined && reason !== null) {
      const text = typeof reason === 'string' ? rubyHashText(reason) : validationText(reason)
      return typeof description === 'string' && description ? `${text}: ${description}` : text
    }
  }
  return `${status} ${statusText}`.trim()
}

/** `{"time_spent":["has an invalid format"]}` as `time_spent: has an invalid format` (fields joined by `; `). */
function validationText(reason: unknown): string {
  if (Array.isArray(reason)) return reason.map(String).join('; ')
  if (typeof reason !== 'object' || reason === null) return JSON.stringify(reason)
  return Object.entries(reason as Record<string, unknown>)
    .map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.map(String).join(', ') : String(messages)}`)
    .join('; ')
}

/** GitLab's Ruby inspect text, `Note {:note=>["can't be blank"]}`, the same way; any other text is kept. */
function rubyHashText(reason: string): string {
  const hash = /^(?:[A-Z]\w*(?:::\w+)* )?\{((?::\w+=>\[.*?\](?:, )?)+)\}$/.exec(reason.trim())
  if (!hash) return reason
  const fields = [...hash[1].matchAll(/:(\w+)=>\[(.*?)\]/g)].map(([, field, list]) =>
    `${field}: ${[...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\"/g, '"')).join(', ')}`)
  return fields.join('; ')
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
