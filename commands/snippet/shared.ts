// What the snippet verbs share: the `<snippet>` argument, --personal (personal snippets instead of a project's), the
// routes of either kind, list columns and completion of snippet ids.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { completeWith, type Candidate, type ValueSource } from '../../src/cli/completion.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ApiClient } from '../../src/client/http.js'
import { route, type Route } from '../../src/client/paths.js'
import type { Snippet } from '../../src/contract/entities/snippets.js'
import { parseId } from '../pipeline/shared.js'

export type { Snippet }
export const VISIBILITIES = ['private', 'internal', 'public'] as const

export interface SnippetScope { project?: string; personal: boolean }

/** --personal, -p, --host and --token: where snippets are. */
export const withScope = (command: Command) =>
  withProject(withConnection(command.option('-P, --personal', 'your personal snippets instead of a project\'s')))

/** `<snippet>` (an id, completed from the snippets of the project or, with --personal, yours) and the scope flags. */
export function onSnippet(command: Command): Command {
  command.argument('<snippet>', 'the snippet id')
  completeWith(command.registeredArguments[command.registeredArguments.length - 1], snippetCandidates)
  return withScope(command)
}

export const snippetId = (value: string) => parseId(value, 'snippet')

/** A client and the routes of one kind of snippet: a project's, or the caller's personal ones. */
export interface SnippetTarget {
  api: ApiClient
  /** `root/demo`, or `your personal snippets`, for messages. */
  where: string
  list(): ReturnType<typeof route<'listProjectSnippets'>>
  one(id: number): ReturnType<typeof route<'getProjectSnippet'>>
  create(): ReturnType<typeof route<'createProjectSnippet'>>
  update(id: number): ReturnType<typeof route<'updateProjectSnippet'>>
  remove(id: number): ReturnType<typeof route<'deleteProjectSnippet'>>
  raw(id: number, file?: string): Route<string>
}

export async function snippetTarget(deps: Deps, scope: SnippetScope): Promise<SnippetTarget> {
  if (scope.personal) {
    const api = await deps.api()
    return {
      api, where: 'your personal snippets',
      list: () => route('listSnippets', {}),
      one: (id) => route('getSnippet', { id }),
      create: () => route('createSnippet', {}),
      update: (id) => route('updateSnippet', { id }),
      remove: (id) => route('deleteSnippet', { id }),
      raw: (id, file) => (file === undefined ? route('getSnippetRaw', { id }) : route('getSnippetFileRaw', { id, ref: 'main', file_path: file })),
    }
  }
  const { api, ref } = await deps.project(scope.project)
  return {
    api, where: ref,
    list: () => route('listProjectSnippets', { id: ref }),
    one: (id) => route('getProjectSnippet', { id: ref, snippet_id: id }),
    create: () => route('createProjectSnippet', { id: ref }),
    update: (id) => route('updateProjectSnippet', { id: ref, snippet_id: id }),
    remove: (id) => route('deleteProjectSnippet', { id: ref, snippet_id: id }),
    raw: (id, file) => (file === undefined
      ? route('getProjectSnippetRaw', { id: ref, snippet_id: id })
      : route('getProjectSnippetFileRaw', { id: ref, snippet_id: id, ref: 'main', file_path: file })),
  }
}

export const snippetColumns = (io: IO): Column<Snippet>[] => [
  { header: 'ID', value: (s) => s.id, style: (text) => io.color.dim(text) },
  { header: 'TITLE', value: (s) => s.title, style: (text) => io.color.bold(text), flex: true },
  { header: 'FILES', value: (s) => s.files.map((f) => f.path).join(', ') || s.file_name },
  { header: 'VISIBILITY', value: (s) => s.visibility },
  { header: 'AUTHOR', value: (s) => s.author.username },
  { header: 'UPDATED', value: (s) => s.updated_at, time: true, style: (text) => io.color.dim(text) },
]

/** `12  Title (private)`: the snippets of the project the typed flags name, or with --personal the caller's own. */
export const snippetCandidates: ValueSource = async (context) => {
  const { createDeps } = await import('../../src/cli/factory.js')
  const deps = createDeps(context.io, { host: context.flags.host, token: context.flags.token })
  const target = await snippetTarget(deps, { project: context.flags.project, personal: context.flags.personal !== undefined })
  const page = await target.api.list(target.list(), { per_page: 100 })
  return page.items.map((s): Candidate => [String(s.id), `${s.title} (${s.visibility})`])
}
