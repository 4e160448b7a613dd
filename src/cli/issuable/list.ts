// `<kind> list`: the issuables of a project, a group (--group) or every project (--instance), with the filters issues
// and merge requests share one flag per API parameter, and a kind's own flags around them.
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import type { ApiClient, ApiResponse, Query, QueryValue } from '../../client/http.js'
import { route, type Route } from '../../client/paths.js'
import {
  choice, collect, pageOptions, pageQuery, positiveInt, stateOption, withConnection, withJson, withPagination, withProject, type Runtime,
} from '../command.js'
import { usageError } from '../errors.js'
import type { Deps } from '../factory.js'
import { printList, printRaw, type Column } from '../output.js'
import { csv } from '../text-input.js'

/** `group/proj#4` from an issuable's web_url (`…/group/proj/-/issues/4`), for lists that span projects. */
export function fullReference(webUrl: string, sigil: string, iid: number): string {
  const path = /^https?:\/\/[^/]+\/(.+?)\/-\/(?:issues|merge_requests)\/\d+$/.exec(webUrl)?.[1]
  return path ? `${path}${sigil}${iid}` : `${sigil}${iid}`
}

/**
 * The filters the issue and merge request lists share, one flag per API parameter; `noun` is `issues` or `merge requests`,
 * `none` the values meaning "without labels" and "without a milestone".
 */
const withIssuableFilters = (command: Command, noun: string, none: [label: string, milestone: string]) => command
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
const issuableQuery = (flags: OptionValues) => ({
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

export interface IssuableListOptions { project?: string; group?: string; instance: boolean; query: Query; perPage?: number; all: boolean; json: boolean }

/** A list of a project, a group (--group) or the instance (--instance): one page, or every page with --all. */
async function printIssuableList<T>(deps: Deps, options: IssuableListOptions, spec: ListSpec<T>): Promise<void> {
  const { routes } = spec
  if (options.group !== undefined && options.instance) throw usageError('--group and --instance are mutually exclusive')
  const target = options.instance ? { api: await deps.api(), route: routes.instance, where: undefined }
    : options.group !== undefined ? { api: await deps.api(), route: routes.group(options.group), where: `group ${options.group}` }
    : await deps.project(options.project).then(({ api, ref }) => ({ api, route: routes.project(ref), where: ref }))
  const query = await resolveUserFilters(target.api, options.query)
  const page = await target.api.list(target.route, { ...query, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const columns = spec.columns(deps, target.where === undefined || options.group !== undefined)
  await printList(deps.io, columns, page as { items: T[]; responses: ApiResponse[] }, { noun: spec.plural, where: target.where })
}

export interface ListSpec<T> {
  /** `issues`, `merge requests`. */
  plural: string
  /** The values of --label and --milestone that mean "none". */
  none: [label: string, milestone: string]
  states: string[]
  /** The kind's flags before the shared filters, and after them. */
  before(command: Command): Command
  after?(command: Command): Command
  /** The query: the state and the kind's own parameters; the shared filters' come between them. */
  query(flags: OptionValues, shared: Query): Query
  /** `spansProjects`: a group or instance list, whose rows name their project. */
  columns(deps: Deps, spansProjects: boolean): Column<T>[]
  routes: { instance: Route<T[]>; group(id: string): Route<T[]>; project(ref: string): Route<T[]> }
}

/** `closed, merged or all` */
const sentence = (words: string[]) => `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`

export function registerList<T>(group: Command, rt: Runtime, spec: ListSpec<T>): void {
  const { plural } = spec
  const command = spec.before(group
    .command('list')
    .alias('ls')
    .description(`List ${plural} of a project, a group (--group) or every project you can see (--instance)`)
    .option('--group <group>', `list the ${plural} of a group (id or path) instead of a project`)
    .option('--instance', `list ${plural} across the instance (GET /${plural.replace(' ', '_')})`)
    .addOption(stateOption('-s, --state <state>', `opened (the default, as glab and gh), ${sentence(spec.states.slice(1))}`, spec.states)))
  const filtered = withIssuableFilters(command, plural, spec.none)
  spec.after?.(filtered)
  const toOptions = (flags: OptionValues): IssuableListOptions => ({
    project: flags.project, group: flags.group, instance: flags.instance === true, query: spec.query(flags, issuableQuery(flags)), ...pageOptions(flags), json: flags.json === true,
  })
  const run = (options: IssuableListOptions, deps: Deps) => printIssuableList(deps, options, spec)
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}
