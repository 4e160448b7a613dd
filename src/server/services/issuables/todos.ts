// Todos: the caller's list, marking them done, and what a todo shows (its project, author and target issue or merge request).
import { notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { canReadCode, canReadProject } from '../../policy.js'
import type { IssueBundle } from '../../present/issues.js'
import { findIssueById, usersByIds } from '../../store/issues.js'
import { findMergeRequestById, type MergeRequestRow } from '../../store/merge-requests.js'
import * as store from '../../store/notes.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import type { UserRow } from '../../store/users.js'
import { bundle } from './issues.js'

export type TodoTarget = { kind: 'Issue'; issue: IssueBundle } | { kind: 'MergeRequest'; mergeRequest: MergeRequestRow }

export interface TodoView { todo: store.TodoRow; project: ProjectView; author: UserRow; target: TodoTarget }

export interface TodoFilters { action?: string; author_id?: number; project_id?: number; state?: 'pending' | 'done'; type?: string }

function view(ctx: RequestContext, t: store.TodoRow): TodoView {
  const db = ctx.app.db
  const mergeRequest = findMergeRequestById(db, t.noteable_id)
  // An issue target carries `subscribed` but no `_links` (api-v4.md §Todo).
  const target: TodoTarget = mergeRequest ? { kind: 'MergeRequest', mergeRequest } : { kind: 'Issue', issue: bundle(ctx, findIssueById(db, t.noteable_id)!, false) }
  return { todo: t, project: findProjectById(db, t.project_id)!, author: usersByIds(db, [t.author_id]).get(t.author_id)!, target }
}

function findOwnTodo(ctx: RequestContext, id: number): store.TodoRow {
  const todo = store.findTodo(ctx.app.db, ctx.user!.id, id)
  if (!todo) throw notFound('Todo')
  return todo
}

export const todoById = (ctx: RequestContext, id: number) => view(ctx, findOwnTodo(ctx, id))

export function listTodos(ctx: RequestContext, f: TodoFilters) {
  const { rows, total } = store.listTodos(ctx.app.db, ctx.user!.id, {
    action: f.action, authorId: f.author_id, projectId: f.project_id, state: f.state ?? 'pending', type: f.type,
    limit: ctx.page.limit, offset: ctx.page.offset,
  })
  return { rows: rows.filter((t) => readsTarget(ctx, t)).map((t) => view(ctx, t)), total }
}

/**
 * Whether the caller still reads a todo's target: one kept from before a demotion, or left on a merge request of a
 * private project they are a guest of, is left out of the page (GitLab's TodosFinder), as events are.
 */
function readsTarget(ctx: RequestContext, t: store.TodoRow): boolean {
  const p = findProjectById(ctx.app.db, t.project_id)
  if (!p || !canReadProject(ctx, p)) return false
  return findMergeRequestById(ctx.app.db, t.noteable_id) === undefined || canReadCode(ctx, p)
}

export function markTodoDone(ctx: RequestContext, id: number): TodoView {
  const todo = findOwnTodo(ctx, id)
  store.markTodo(ctx.app.db, todo.id, nowIso(ctx))
  return todoById(ctx, todo.id)
}

export const markAllTodosDone = (ctx: RequestContext) => store.markAllTodos(ctx.app.db, ctx.user!.id, nowIso(ctx))
