// collab search: GitLab's Search API from the command line, instance-wide, in a group (--group) or a project (--project).
import type { Command, OptionValues } from 'commander'
import { choice, pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { SCOPE_NOUNS, searchColumns } from './columns.js'

export const summary = 'Search projects, issues, merge requests, code, commits and more (GitLab search API)'

export interface SearchOptions extends PageOptions {
  query: string; scope?: string; project?: string; group?: string; ref?: string; json: boolean
}

export function register(command: Command, rt: Runtime): void {
  command
    .argument('<query>', 'the text to look for')
    .addOption(choice('-s, --scope <scope>', 'what to search (default: blobs in a project, else projects)', Object.keys(SCOPE_NOUNS)))
    .option('-g, --group <group>', 'search in a group (id or path) instead of the whole instance')
    .option('--ref <ref>', 'the branch or tag whose code or commits a project search reads (default: the default branch)')
  withJson(withPagination(withProject(withConnection(command))))
    .action((query: string, flags: OptionValues) => rt.invoke(command, run, toOptions(query, flags)))
}

export const toOptions = (query: string, flags: OptionValues): SearchOptions => ({
  query, scope: flags.scope, project: flags.project, group: flags.group, ref: flags.ref, ...pageOptions(flags), json: flags.json === true,
})

async function target(deps: Deps, options: SearchOptions) {
  if (options.project !== undefined && options.group !== undefined) throw usageError('--project and --group are mutually exclusive')
  if (options.project !== undefined) {
    const { api, ref } = await deps.project(options.project)
    return { api, route: route('searchProject', { id: ref }), where: ref, scope: options.scope ?? 'blobs' }
  }
  if (options.ref !== undefined) throw usageError('--ref needs --project')
  const api = await deps.api()
  if (options.group !== undefined) return { api, route: route('searchGroup', { id: options.group }), where: `group ${options.group}`, scope: options.scope ?? 'projects' }
  return { api, route: route('searchGlobal', {}), where: undefined, scope: options.scope ?? 'projects' }
}

export async function run(options: SearchOptions, deps: Deps): Promise<void> {
  const t = await target(deps, options)
  const query = { scope: t.scope, search: options.query, ...(options.ref === undefined ? {} : { ref: options.ref }), ...pageQuery(options) }
  const page = await t.api.list(t.route, query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printList(deps.io, searchColumns(deps.io, t.scope, options.query), page as { items: Record<string, unknown>[]; responses: typeof page.responses }, { noun: SCOPE_NOUNS[t.scope], where: t.where })
}
