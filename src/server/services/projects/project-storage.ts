// A project's repository as it lies on disk, for administrators: GET /projects/:id/storage and /snapshot.
import { relative } from 'node:path'
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { repositoryDir } from '../../git/repository.js'
import { isRepository, snapshotStream } from '../../git/snapshot.js'
import { wikiDir } from '../../git/wiki.js'
import type { ProjectView } from '../../store/projects.js'

/** collab has one storage, GitLab's default name for it: the data directory's repositories/. */
export const REPOSITORY_STORAGE = 'default'

/** Repository#disk_path: the repository's path within its storage, without `.git` (collab names repositories by id). */
export const diskPathOf = (ctx: RequestContext, p: ProjectView) =>
  relative(ctx.app.layout.repositories, repositoryDir(ctx.app.layout.repositories, p.id)).replace(/\.git$/, '')

/** The project's (or its wiki's) bare repository as a streamed tar; 404 when the wiki was never written. */
export async function projectSnapshot(ctx: RequestContext, p: ProjectView, wiki: boolean) {
  const root = ctx.app.layout.repositories
  const gitdir = wiki ? wikiDir(root, p.id) : repositoryDir(root, p.id)
  if (!(await isRepository(gitdir))) throw notFound('Repository')
  return snapshotStream(gitdir)
}
