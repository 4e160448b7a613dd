// Stars, archiving and forks.
import { randomBytes } from 'node:crypto'
import { forbidden, notFound, notModified } from '../../../core/errors.js'
import { parseIdOrPath } from '../../../contract/params.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { copyRepository, repositoryDir } from '../../git/repository.js'
import { canCreateProjectIn, canReadCode, MAINTAINER, OWNER, requireProjectLevel } from '../../policy.js'
import { insertMember } from '../../store/members.js'
import { findNamespaceById, findNamespaceByPath, findUserNamespace } from '../../store/namespaces.js'
import * as store from '../../store/projects.js'
import { findUserById } from '../../store/users.js'
import { closestAllowedLevel, requireProjectLimit } from '../instance/application-settings.js'
import { defaultIn, lessVisible } from './visibility.js'
import { checkNameFree } from './projects.js'
import { transaction } from '../../store/db.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

export function setStarred(ctx: RequestContext, project: store.ProjectView, on: boolean) {
  const db = ctx.app.db
  const userId = ctx.user!.id
  if (store.isStarred(db, userId, project.id) === on) throw notModified()
  transaction(db, () => store.setStar(db, userId, project.id, on, nowIso(ctx)))
  return store.findProjectById(db, project.id)!
}

export function setArchived(ctx: RequestContext, project: store.ProjectView, archived: boolean) {
  requireProjectLevel(ctx, project, OWNER)
  if (Boolean(project.archived) !== archived) {
    store.updateProject(ctx.app.db, project.id, { archived: archived ? 1 : 0, updated_at: nowIso(ctx) })
  }
  return store.findProjectById(ctx.app.db, project.id)!
}

export interface ForkInput {
  namespace?: number | string
  namespace_id?: number
  namespace_path?: string
  name?: string
  path?: string
  description?: string
  visibility?: 'private' | 'internal' | 'public'
}

function forkTarget(ctx: RequestContext, input: ForkInput) {
  const db = ctx.app.db
  const ref = input.namespace_id ?? input.namespace_path ?? input.namespace
  if (ref === undefined) return findUserNamespace(db, ctx.user!.id)
  const key = parseIdOrPath(ref)
  return 'id' in key ? findNamespaceById(db, key.id) : findNamespaceByPath(db, key.path)
}


/**
 * Records the fork at once with import_status `scheduled`, as GitLab does, and copies the repository in the
 * background; scripts poll the fork until `finished`.
 */
export function forkProject(ctx: RequestContext, source: store.ProjectView, input: ForkInput) {
  if (!canReadCode(ctx, source)) throw forbidden()
  const ns = forkTarget(ctx, input)
  if (!ns || !canCreateProjectIn(ctx, ns)) throw notFound('Target Namespace')
  const name = input.name ?? source.name
  const path = input.path ?? source.path
  checkNameFree(ctx, ns.id, name, path)
  if (ns.kind === 'user') requireProjectLimit(ns, findUserById(ctx.app.db, ns.owner_id!), store.countProjectsInNamespace(ctx.app.db, ns.id))
  // A fork may not be more visible than its source nor its group; a restricted level becomes the closest allowed one,
  // as in GitLab's ForkService.
  const wanted = defaultIn(ns, input.visibility ? lessVisible(input.visibility, source.visibility) : source.visibility)
  const visibility = closestAllowedLevel(ctx.app, wanted)
  const at = nowIso(ctx)
  const db = ctx.app.db
  const { id: _id, namespace_id: _ns, star_count: _s, ...settings } = store.findProjectById(db, source.id)! as store.ProjectRow
  const id = transaction(db, () => {
    const forkId = store.insertProject(db, {
      ...pickRow(settings),
      namespace_id: ns.id, name, path, description: input.description ?? source.description, visibility,
      creator_id: ctx.user!.id, created_at: at, updated_at: at, last_activity_at: at, archived: 0,
      import_url: null, import_status: 'scheduled', import_error: null, forked_from_id: source.id,
      runners_token: 'GR1348941' + randomBytes(10).toString('hex'), empty_repo: source.empty_repo,
    })
    insertMember(db, { kind: 'project', id: forkId, namespaceId: ns.id }, {
      user_id: ns.kind === 'user' ? ns.owner_id! : ctx.user!.id, access_level: ns.kind === 'user' ? OWNER : MAINTAINER, created_at: at, expires_at: null,
    })
    return forkId
  })
  emitHookEvent(ctx.app, { kind: 'project', action: 'create', projectId: id, userId: ctx.user!.id })
  const { app } = ctx
  // Started here, not in the task: the copy holds the fork's repository lock from now on, so a commit or push sent
  // right after this answer waits for the copy instead of writing into a repository that is not there yet.
  const copying = copyRepository(repositoryDir(app.layout.repositories, source.id), repositoryDir(app.layout.repositories, id))
  copying.catch(() => undefined) // awaited, and its failure recorded, by the task below
  app.tasks.run(`fork ${source.id} -> ${id}`, async () => {
    store.updateProject(app.db, id, { import_status: 'started' })
    try {
      await copying
      store.updateProject(app.db, id, { import_status: 'finished' })
    } catch (err) {
      store.updateProject(app.db, id, { import_status: 'failed', import_error: err instanceof Error ? err.message : String(err) })
    }
  })
  return store.findProjectById(db, id)!
}

/** Only table columns survive into the fork's row: the view's joined fields (`ns_*`, `owner_*`, counts) are dropped. */
const JOINED = /^(ns_|owner_)|^forks_count$/

function pickRow(v: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(v).filter(([k]) => !JOINED.test(k))) as unknown as store.NewProject
}
