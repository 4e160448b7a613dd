// The instance events system hooks receive whatever their switches say (GitLab's SystemHooksService): user, group and
// project creation and removal. Payloads are built when the event happens, since a removed row is gone after commit.
import type { AppDeps } from '../../context.js'
import type { NamespaceRow } from '../../store/namespaces.js'
import type { ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { emitHookEvent } from './webhook-events.js'

export function emitUserSystemEvent(app: AppDeps, name: 'user_create' | 'user_destroy', u: UserRow) {
  emitHookEvent(app, {
    kind: 'system',
    payload: { created_at: u.created_at, updated_at: u.created_at, email: u.email, event_name: name, name: u.name, username: u.username, user_id: u.id },
  })
}

export function emitGroupSystemEvent(app: AppDeps, name: 'group_create' | 'group_destroy', g: NamespaceRow) {
  emitHookEvent(app, {
    kind: 'system',
    payload: { created_at: g.created_at, updated_at: g.created_at, event_name: name, name: g.name, path: g.path, full_path: g.full_path, group_id: g.id },
  })
}

/** project_create and project_destroy; `owner` is the namespace's user, or for a group project its creator. */
export function emitProjectSystemEvent(app: AppDeps, name: 'project_create' | 'project_destroy', p: ProjectView, owner: Pick<UserRow, 'name' | 'email'>) {
  emitHookEvent(app, {
    kind: 'system',
    payload: {
      created_at: p.created_at, updated_at: p.updated_at, event_name: name, name: p.name, owner_email: owner.email, owner_name: owner.name,
      owners: [{ name: owner.name, email: owner.email }], path: p.path, path_with_namespace: `${p.ns_full_path}/${p.path}`,
      project_id: p.id, project_visibility: p.visibility,
    },
  })
}
