// What the issue verbs share (and the mr verbs reuse): the contract's issue and note types, list columns, the `<iid>`
// argument, the list filters of every issuable, and description and note input.
import { promises as fs } from 'node:fs'
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { choice, collect, pageOptions, pageQuery, positiveInt, withConnection, withProject } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { ApiClient, ApiResponse, Query, QueryValue } from '../../src/client/http.js'
import type { IO } from '../../src/cli/io.js'
import { printList, printRaw, type Column } from '../../src/cli/output.js'
import { stateStyle } from '../../src/cli/terminal.js'
import { route, type Route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export type Issue = ResponseOf<'getProjectIssue'>
export type Note = ResponseOf<'getIssueNote'>

/** `group/proj#4` from an issuable's web_url (`…/group/proj/-/issues/4`), for lists that span projects. */
export function fullReference(webUrl: string, sigil: string, iid: number): string {
  const path = /^https?:\/\/[^/]+\/(.+?)\/-\/(?:issues|merge_requests)\/\d+$/.exec(webUrl)?.[1]
  return path ? `${path}${sigil}${iid}` : `${sigil}${iid}`
}

/** `spansProjects`: a group or instance list, whose rows name their project. */
export const issueColumns = (io: IO, spansProjects = false): Column<Issue>[] => [
  { header: 'IID', value: (i) => (spansProjects ? fullReference(i.web_url, '#', i.iid) : `#${i.iid}`), style: (text) => io.color.dim(text) },
  { header: 'STATE', value: (i) => i.state, style: (text) => stateStyle(io, text) },
  { header: 'TITLE', value: (i) => i.title, style: (text) => io.color.bold(text), flex: true },
  { header: 'LABELS', value: (i) => i.labels.join(',') },
  { header: 'ASSIGNEES', value: (i) => i.assignees.map((u) => u.username).join(',') },
  { header: 'UPDATED', value: (i) => i.updated_at, time: true, style: (text) => io.color.dim(text) },
]

/** `<iid>` plus -p, --host, --token: a verb on one issue. */
export const onIssue = (command: Command) =>
  withProject(withConnection(command.argument('<iid>', 'the issue number in its project (#iid)', positiveInt)))

/** `--description-file FILE`, or `-` for stdin. */
export async function readText(deps: Deps, file: string): Promise<string> {
  if (file === '-') return deps.io.readStdin()
  try {
    return await fs.readFile(file, 'utf8')
  } catch (err) {
    throw usageError(`cannot read ${file}: ${(err as Error).message}`)
  }
}

export async function descriptionFrom(deps: Deps, text: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) throw usageError('--description and --description-file are mutually exclusive')
  return file !== undefined ? readText(deps, file) : text
}

/** Comma-separated values from repeated or CSV flags: `--label a --label b,c`. */
export const csv = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)

/**
 * The filters the issue and merge request lists share, one flag per API parameter; `noun` is `issues` or `merge requests`,
 * `none` the values meaning "without labels" and "without a milestone".
 */
export const withIssuableFilters = (command: Command, noun: string, none: [label: string, milestone: string]) => command
  .option('-l, --label <labels>', `only ${noun} with all these labels (repeat or comma-separate; "${none[0]}", "Any")`, collect)
  .option('-m, --milestone <title>', `only ${noun} in this milestone, by title ("${none[1]}", "Any")`)
  .option('--iid <iid>', 'only these iids (repeatable)', (v: string, prev: number[] = []) => [...prev, positiveInt(v)])
  .addOption(choice('--scope <scope>', 'created_by_me (the default with --instance), assigned_to_me or all', ['created_by_me', 'assigned_to_me', 'all']))
  .option('--author <username>', `only ${noun} created by this user (@me: you)`)
  .option('--author-id <id>', `only ${noun} created by this user id`, positiveInt)
  .option('-a, --assignee <username>', `only ${noun} assigned to this user (@me: you)`)
  .option('--assignee-id <id>', `only ${noun} assigned to this user id, or None / Any`, idOrNoneAny)
  .option('--my-reaction-emoji <emoji>', `only ${noun} you reacted to with this emoji`)
  .option('--search <text>', `only ${noun} whose title or description contains the text`)
  .option('--created-after <time>', 'created on or after (ISO 8601)')
  .option('--created-before <time>', 'created on or before (ISO 8601)')
  .option('--updated-after <time>', 'updated on or after (ISO 8601)')
  .option('--updated-before <time>', 'updated on or before (ISO 8601)')
  .addOption(choice('--order-by <field>', 'created_at (default) or updated_at', ['created_at', 'updated_at']))
  .addOption(choice('--sort <direction>', 'asc or desc (default)', ['asc', 'desc']))

/** `--assignee-id`: a user id, or GitLab's None / Any; anything else would reach the server as a 400. */
export function idOrNoneAny(value: string): string {
  if (/^(none|any)$/i.test(value)) return value[0].toUpperCase() + value.slice(1).toLowerCase()
  if (/^\d+$/.test(value) && Number(value) > 0) return value
  throw new InvalidArgumentError(`expected a user id, None or Any (for a username use --${value.startsWith('@') || /\D/.test(value) ? 'assignee' : 'assignee-id'})`)
}

/**
 * `--author` / `--assignee` usernames become the ids every GitLab version filters by (`@me` is the caller, as in glab
 * and gh); an unknown username fails here instead of silently matching nothing.
 */
async function resolveUserFilters(api: ApiClient, query: Query): Promise<Query> {
  const { author_username: author, assignee_username: assignee, ...rest } = query
  const id = async (username: QueryValue, flag: string) => {
    if (username === undefined) return undefined
    if (username === '@me') return (await api.get(route('getCurrentUser', {}))).id
    const found = await api.get(route('listUsers', {}), { username: String(username) })
    if (found.length === 0) throw usageError(`no user '${String(username)}' (${flag})`)
    return found[0].id
  }
  return { ...rest, author_id: (await id(author, '--author')) ?? rest.author_id, assignee_id: (await id(assignee, '--assignee')) ?? rest.assignee_id }
}

/** The query of withIssuableFilters' flags. */
export const issuableQuery = (flags: OptionValues) => ({
  labels: csv(flags.label)?.join(','),
  milestone: flags.milestone as string | undefined,
  iids: flags.iid as number[] | undefined,
  scope: flags.scope as string | undefined,
  author_id: flags.authorId as number | undefined,
  author_username: flags.author as string | undefined,
  assignee_id: flags.assigneeId as string | undefined,
  assignee_username: flags.assignee as string | undefined,
  my_reaction_emoji: flags.myReactionEmoji as string | undefined,
  search: flags.search as string | undefined,
  created_after: flags.createdAfter as string | undefined,
  created_before: flags.createdBefore as string | undefined,
  updated_after: flags.updatedAfter as string | undefined,
  updated_before: flags.updatedBefore as string | undefined,
  order_by: flags.orderBy as string | undefined,
  sort: flags.sort as string | undefined,
})

/** `-m TEXT` / `-F FILE` of the note verbs. */
export const withNoteBody = (command: Command) => command
  .option('-m, --message <text>', 'the note text (an emoji alone such as :thumbsup: awards it)')
  .option('-F, --message-file <file>', 'read the note from a file, or - for stdin')

/** The note text from -m, -F, or $EDITOR on a terminal. */
/**
 * What a note add did: a body of only an emoji (`:thumbsup:`) makes GitLab award it and answer with the award
 * (`awardable_type`, `name`) instead of a note.
 */
export function noteAddedMessage(response: ApiResponse, noteOn: string): string {
  let data: { awardable_type?: string; name?: string } | null = null
  try {
    data = JSON.parse(response.text)
  } catch {}
  return data?.awardable_type && data.name ? `Awarded :${data.name}: to ${noteOn} (a note of only an emoji is an award)` : `Added a note to ${noteOn}`
}

export async function noteBody(deps: Deps, body: string | undefined, bodyFile: string | undefined): Promise<string> {
  if (body !== undefined && bodyFile !== undefined) throw usageError('--message and --message-file are mutually exclusive')
  if (bodyFile !== undefined) return readText(deps, bodyFile)
  if (body !== undefined) return body
  return deps.prompter.editor('Note (saved when the editor closes)', '--message')
}

export interface IssuableListOptions { project?: string; group?: string; instance: boolean; query: Query; perPage?: number; all: boolean; json: boolean }

/** A list verb's options: where to list (-p, --group, --instance), the API query, pages and --json. */
export const issuableListOptions = (flags: OptionValues, query: Query): IssuableListOptions => ({
  project: flags.project, group: flags.group, instance: flags.instance === true, query, ...pageOptions(flags), json: flags.json === true,
})

/**
 * A list of a project, a group (--group) or the instance (--instance): one page, or every page with --all.
 * `columns` is told whether the rows span projects (then each names its project).
 */
export async function printIssuableList<T>(
  deps: Deps, options: IssuableListOptions, noun: string, columns: (spansProjects: boolean) => Column<T>[],
  routes: { instance: Route<T[]>; group(id: string): Route<T[]>; project(ref: string): Route<T[]> },
): Promise<void> {
  if (options.group !== undefined && options.instance) throw usageError('--group and --instance are mutually exclusive')
  const target = options.instance ? { api: await deps.api(), route: routes.instance, where: undefined }
    : options.group !== undefined ? { api: await deps.api(), route: routes.group(options.group), where: `group ${options.group}` }
    : await deps.project(options.project).then(({ api, ref }) => ({ api, route: routes.project(ref), where: ref }))
  const query = await resolveUserFilters(target.api, options.query)
  const page = await target.api.list(target.route, { ...query, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, columns(target.where === undefined || options.group !== undefined), page as { items: T[]; responses: ApiResponse[] }, { noun, where: target.where })
}
