// CLI failures as CollabErrors, the exit code each one maps to, and the `error:` / `hint:` lines printed for it.
import { CollabError, isCollabError } from '../core/errors.js'
import { isApiError } from '../client/errors.js'

/** Documented in `collab --help`. */
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 4, interrupted: 130 } as const

/** Ctrl-C at a prompt: inquirer rejects with ExitPromptError, which the CLI ends quietly as a shell ends on SIGINT. */
export const isPromptInterrupt = (err: unknown) => err instanceof Error && err.name === 'ExitPromptError'

export class CliError extends CollabError {
  readonly hint?: string
  constructor(code: 'USAGE' | 'AUTH_REQUIRED' | 'FAILED', message: string, hint?: string) {
    super(code, message)
    this.name = 'CliError'
    this.hint = hint
  }
}

export const usageError = (message: string, hint?: string) => new CliError('USAGE', message, hint)
export const authRequired = (message: string, hint?: string) => new CliError('AUTH_REQUIRED', message, hint)
export const failure = (message: string, hint?: string) => new CliError('FAILED', message, hint)

/** A flag that a prompt would have asked for, when there is nobody to ask. */
export const missingFlag = (flag: string) =>
  usageError(`${flag} is required when not running interactively`)

export function exitCodeFor(err: unknown): number {
  if (!isCollabError(err)) return EXIT.failure
  if (err.code === 'USAGE') return EXIT.usage
  if (err.code === 'AUTH_REQUIRED' || (isApiError(err) && err.status === 401)) return EXIT.auth
  return EXIT.failure
}

/** The project a 404 names, as it was looked up (`root/nope`, or an id): glab and gh say what they did not find. */
function notFound(err: { url: string }, message: string, hint: string | undefined): { message: string; hint?: string } {
  const path = new URL(err.url).pathname
  const project = /\/api\/v4\/projects\/([^/]+)/.exec(path)?.[1]
  if (message === '404 Project Not Found' && project) return { message: `${message}: ${decodeURIComponent(project)}`, hint }
  if (message === '404 Snippet Not Found' && project && /\/snippets\/\d+/.test(path)) {
    return { message, hint: `looked up among the snippets of project ${decodeURIComponent(project)}; for one of your own snippets add --personal` }
  }
  return { message, hint }
}

/** The lines written to stderr for a failure: `error: …` and, when there is one, `hint: …`. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `error: ${String(err)}\n`
  let message = err.message
  let hint = err instanceof CliError ? err.hint : undefined
  if (isApiError(err)) {
    if (!message.startsWith(String(err.status))) message += ` (HTTP ${err.status})`
    const root = err.url.indexOf('/api/v4')
    if (err.status === 401) hint = `the token was rejected; run 'collab auth login${root > 0 ? ` --host ${err.url.slice(0, root)}` : ''}'`
    if (err.status === 404) ({ message, hint } = notFound(err, message, hint))
  } else if (isCollabError(err) && err.code === 'NETWORK_NO_TLS') {
    hint = `a bare host means https; for a plain-HTTP server such as collab serve use --host ${String(err.body.plain_http)}`
  } else if (isCollabError(err) && err.code === 'NETWORK') {
    hint = "is the server running? 'collab serve' starts one; another server: 'collab config set host URL'"
  } else if (!isCollabError(err) && typeof (err as NodeJS.ErrnoException).code !== 'string') {
    // A bug, not a condition like EADDRINUSE or ENOENT: the stack is what a report needs.
    message = err.stack ?? message
  }
  return `error: ${message}\n${hint ? `hint: ${hint}\n` : ''}`
}
