// Project administration of issue 15: eager housekeeping on request, transfer to another namespace, a project's groups.
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { gitAvailable } from '../../git/exec.js'
import { withRepoLock } from '../../git/lock.js'
import { housekeep } from '../../git/maintenance.js'
import { forgetCache } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { canCreateProjectIn, canReadGroup, effectiveProjectLevel, MAINTAINER, OWNER } from '../../policy.js'
import { findNamespaceById, findNamespaceByPath, type NamespaceRow } from '../../store/namespaces.js'
import * as store from '../../store/projects.js'
import { resetPushes } from '../../store/repository-maintenance.js'
import { currentSettings } from '../instance/application-settings.js'

const running = new Set<number>()

/**
 * POST /projects/:id/housekeeping: Repositories::HousekeepingService in its eager mode (a gc with pruning) under the
 * repository lock; a second request while one runs is GitLab's lease conflict. Maintainers and up.
 */
export async function housekeepNow(ctx: RequestContext, p: store.ProjectView) {
  if (effectiveProjectLevel(ctx, p) < MAINTAINER) throw forbidden()
  if (running.has(p.id)) throw new CollabError('CONFLICT', 'Somebody already triggered housekeeping for this resource', { status: 409 })
  if (!(await gitAvailable())) return
  running.add(p.id)
  try {
    const gitdir = repositoryDir(ctx.app.layout.repositories, p.id)
    await withRepoLock(gitdir, async () => {
      await housekeep(gitdir, 'gc', currentSettings(ctx.app).housekeeping_bitmaps_enabled)
      forgetCache(gitdir)
    })
    resetPushes(ctx.app.db, p.id)
  } finally {
    running.delete(p.id)
  }
}

/** find_namespace!: an id or a full path, 404 when it does not exist or the caller may not see it. */
function findNamespace(ctx: RequestContext, ref: string): NamespaceRow {
  const ns = /^\d+$/.test(ref) ? findNamespaceById(ctx.app.db, Number(ref)) : findNamespaceByPath(ctx.app.db, ref)
  const visible = ns && (ns.kind === 'user' ? ns.owner_id === ctx.user?.id || ctx.user?.is_admin === 1 : canReadGroup(ctx, ns))
  if (!ns || !visible) throw notFound('Namespace')
  return ns
}

// API::Projects answers a refused transfer with the project's errors as Ruby prints a Hash.
const refused = (reason: string) => {
  const message = `Failed to transfer project {:new_namespace=>[${JSON.stringify(reason)}]}`
  return new CollabError('TRANSFER_FAILED', message, { status: 400 })
}

const RANK = { private: 0, internal: 10, public: 20 } as const

/** Projects::TransferService: Owners move a project where they may create one; its repository stays (named by id). */
export function transferProject(ctx: RequestContext, p: store.ProjectView, namespaceRef: string): store.ProjectView {
  if (effectiveProjectLevel(ctx, p) < OWNER) throw forbidden()
  const ns = findNamespace(ctx, namespaceRef)
  if (ns.id === p.namespace_id) throw refused('Project is already in this namespace.')
  if (!canCreateProjectIn(ctx, ns)) throw refused("You don't have permission to transfer this project.")
  const taken = store.findProjectInNamespace(ctx.app.db, ns.id, p.name, p.path)
  if (taken.length) throw refused('Project with same name or path in target namespace already exists')
  const patch: store.ProjectPatch = { namespace_id: ns.id, updated_at: ctx.app.clock.now().toISOString() }
  // A project may not be more visible than its new group: it takes the group's level, as update_namespace_and_visibility.
  if (ns.kind === 'group' && RANK[p.visibility] > RANK[ns.visibility]) patch.visibility = ns.visibility
  store.updateProject(ctx.app.db, p.id, patch)
  return store.findProjectById(ctx.app.db, p.id)!
}

/** GET /projects/:id/groups: the project's group and its ancestors, nearest first, that the caller may see. */
export function projectGroups(ctx: RequestContext, p: store.ProjectView, search?: string, skip: number[] = []): NamespaceRow[] {
  const out: NamespaceRow[] = []
  for (let id = p.ns_kind === 'group' ? p.namespace_id : null; id !== null;) {
    const g = findNamespaceById(ctx.app.db, id)
    if (!g) break
    if (canReadGroup(ctx, g) && !skip.includes(g.id)) out.push(g)
    id = g.parent_id
  }
  const needle = search?.toLowerCase()
  return needle ? out.filter((g) => g.name.toLowerCase().includes(needle) || g.path.toLowerCase().includes(needle)) : out
}
