// Todos: the caller's pending todos and marking them done.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Todo as IssueTodo } from '../entities/issues.js'
import { MergeRequestTodo } from '../entities/merge-requests.js'
import { int, oneOf } from '../params.js'

/** A todo on an issue or on a merge request. */
const Todo = z.union([IssueTodo, MergeRequestTodo])

export const listTodos = defineEndpoint({
  method: 'GET', path: '/todos', summary: "List the caller's todos (pending by default)", paginated: true,
  input: {
    action: oneOf(['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required', 'unmergeable', 'directly_addressed']).optional(),
    author_id: int().optional(), project_id: int().optional(), state: oneOf(['pending', 'done']).optional(),
    type: oneOf(['Issue', 'MergeRequest']).optional(),
  },
  responses: { 200: z.array(Todo) },
})

export const markTodoAsDone = defineEndpoint({
  method: 'POST', path: '/todos/:id/mark_as_done', summary: 'Mark one of your todos as done',
  params: { id: int() }, responses: { 201: Todo },
})

export const markAllTodosAsDone = defineEndpoint({
  method: 'POST', path: '/todos/mark_as_done', summary: 'Mark all of your pending todos as done',
  responses: { 204: null },
})
