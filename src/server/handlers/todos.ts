// Todos: the caller's list and marking them done.
import type { contract } from '../../contract/index.js'
import { notFound } from '../../core/errors.js'
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentIssue, presentTodo } from '../present/issues.js'
import { bundle } from '../services/issues.js'
import { findIssueById, usersByIds } from '../store/issues.js'
import * as store from '../store/notes.js'
import { findProjectById } from '../store/projects.js'

function present(ctx: RequestContext, t: store.TodoRow) {
  const db = ctx.app.db
  const issue = findIssueById(db, t.issue_id)!
  // The target carries `subscribed` but no `_links` (api-v4.md §Todo).
  const target = presentIssue(bundle(ctx, issue, false), ctx)
  return presentTodo(t, findProjectById(db, t.project_id)!, usersByIds(db, [t.author_id]).get(t.author_id)!, target, ctx)
}

export function presentTodoById(ctx: RequestContext, id: number) {
  return present(ctx, store.findTodo(ctx.app.db, ctx.user!.id, id)!)
}

export const todoHandlers = {
  listTodos: (input, ctx) => {
    const { rows, total } = store.listTodos(ctx.app.db, ctx.user!.id, {
      action: input.action, authorId: input.author_id, projectId: input.project_id, state: input.state ?? 'pending', type: input.type,
      limit: ctx.page.limit, offset: ctx.page.offset,
    })
    return { status: 200, body: rows.map((t) => present(ctx, t)), total }
  },

  markTodoAsDone: (input, ctx) => {
    const todo = store.findTodo(ctx.app.db, ctx.user!.id, input.id)
    if (!todo) throw notFound('Todo')
    store.markTodo(ctx.app.db, todo.id, nowIso(ctx))
    return { status: 201, body: presentTodoById(ctx, todo.id) }
  },

  markAllTodosAsDone: (_input, ctx) => {
    store.markAllTodos(ctx.app.db, ctx.user!.id, nowIso(ctx))
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.todos>
