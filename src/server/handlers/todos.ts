// Todos: the caller's list and marking them done.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentIssue, presentTodo } from '../present/issues.js'
import * as todos from '../services/issuables/index.js'
import { presentSingle } from './merge-requests.js'

const present = (ctx: RequestContext, v: todos.TodoView) => v.target.kind === 'Issue'
  ? presentTodo(v.todo, v.project, v.author, presentIssue(v.target.issue, ctx), ctx)
  : presentTodo(v.todo, v.project, v.author, presentSingle(ctx, v.target.mergeRequest), ctx, 'MergeRequest')

export const presentTodoById = (ctx: RequestContext, id: number) => present(ctx, todos.todoById(ctx, id))

export const todoHandlers = {
  listTodos: (input, ctx) => {
    const { rows, total } = todos.listTodos(ctx, input)
    return { status: 200, body: rows.map((v) => present(ctx, v)), total }
  },

  markTodoAsDone: (input, ctx) => ({ status: 201, body: present(ctx, todos.markTodoDone(ctx, input.id)) }),

  markAllTodosAsDone: (_input, ctx) => {
    todos.markAllTodosDone(ctx)
    return { status: 204 }
  },
} satisfies Handlers<typeof contract.todos>
