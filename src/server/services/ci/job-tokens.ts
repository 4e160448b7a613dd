// CI job tokens: a token names a running job and acts as the user who started its pipeline, with that user's rights.
import { unauthorized } from '../../../core/errors.js'
import type { AppDeps, Caller } from '../../context.js'
import { findRunningJobByTokenHash } from '../../store/ci-job-lists.js'
import { findUserById } from '../../store/users.js'
import { tokenHash } from '../users/auth.js'

/** The caller of a job token: 401 when no running job holds it (a job that ended has no token any more). */
export function callerFromJobToken(app: AppDeps, secret: string): Caller {
  const job = findRunningJobByTokenHash(app.db, tokenHash(secret))
  const user = job?.user_id != null ? findUserById(app.db, job.user_id) : undefined
  if (!job || !user || user.state !== 'active') throw unauthorized()
  return { user, token: null, scopes: null, sudoer: null, job: { id: job.id, project_id: job.project_id } }
}
