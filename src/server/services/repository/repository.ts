// Shared rules for repository endpoints: where a project's repository lives, who may read or write code, git errors as API errors.
import { badRequest, CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { repositoryDir } from '../../git/repository.js'
import { resolveCommit } from '../../git/read.js'
import { GitError } from '../../git/types.js'
import type { Signature } from '../../git/write.js'
import { canReadCode, DEVELOPER, effectiveProjectLevel } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'

export const gitdirOf = (ctx: RequestContext, p: ProjectView) => repositoryDir(ctx.app.layout.repositories, p.id)

/** Code of a project the caller sees through membership needs Reporter (policy.ts canReadCode). */
export function requireReadCode(ctx: RequestContext, p: ProjectView) {
  if (!canReadCode(ctx, p)) throw forbidden()
}

export function requirePushCode(ctx: RequestContext, p: ProjectView) {
  if (!ctx.user) throw new CollabError('UNAUTHORIZED', '401 Unauthorized', { status: 401 })
  if (effectiveProjectLevel(ctx, p) < DEVELOPER) throw forbidden()
  if (p.archived) throw forbidden('Project is archived')
}

export async function commitOr404(ctx: RequestContext, p: ProjectView, rev: string): Promise<string> {
  const oid = await resolveCommit(gitdirOf(ctx, p), rev)
  if (!oid) throw notFound('Commit')
  return oid
}

/** A commit signature of `name <email>` at the app clock's now. */
export const signatureAt = (app: AppDeps, name: string, email: string): Signature => ({
  name, email, timestamp: Math.floor(app.clock.now().getTime() / 1000), timezoneOffset: 0,
})

export const signatureOf = (ctx: RequestContext, name?: string, email?: string): Signature =>
  signatureAt(ctx.app, name ?? ctx.user!.name, email ?? ctx.user!.email)

/** Rejects `..`, absolute paths, `.git` components, NUL and empty segments before git sees them. */
export function checkFilePath(path: string, field = 'file_path'): string {
  const clean = path.replace(/^\.\//, '')
  const parts = clean.split('/')
  if (!clean || clean.includes('\0') || clean.startsWith('/') || clean.endsWith('/') ||
      parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git')) {
    throw badRequest(`${field} is invalid: ${JSON.stringify(path)}`)
  }
  return clean
}

export function gitErrorToApi(err: unknown): never {
  if (err instanceof GitError) {
    if (err.kind === 'not_found') {
      // `404 Branch Not Found` is GitLab's not_found!; a service's own text (`No such branch`) goes out as it is.
      const message = /Not Found$/.test(err.message) && !err.message.startsWith('404') ? `404 ${err.message}` : err.message
      throw new CollabError('GIT_NOT_FOUND', message, { status: 404 })
    }
    const body: Record<string, unknown> = { message: err.message }
    if (err.kind === 'conflict') body.error_code = 'conflict'
    throw new CollabError(`GIT_${err.kind.toUpperCase() as Uppercase<typeof err.kind>}`, err.message, { status: 400, body })
  }
  throw err
}

export async function guardGit<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    return gitErrorToApi(err)
  }
}
