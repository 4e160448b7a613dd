// collab package list: a project's packages (or --group's), newest last as GitLab orders them.
import type { Command, OptionValues } from 'commander'
import { choice, pageOptions, pageQuery, withConnection, withJson, withPagination, withProject, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printList, printRaw, type Column } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'

export interface ListOptions extends PageOptions {
  project?: string
  group?: string
  name?: string
  version?: string
  type?: string
  status?: string
  orderBy?: string
  sort?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('list').alias('ls').description("List a project's packages (or a group's with --group)")
    .option('--group <group>', "the packages of this group's projects instead")
    .option('--name <name>', 'packages whose name contains this')
    .option('--version <version>', 'packages of this version')
    .option('--type <type>', 'packages of this type (generic, npm, maven …)')
    .addOption(choice('--status <status>', 'packages of this status', ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated']))
    .addOption(choice('--order-by <field>', 'order by', ['created_at', 'name', 'version', 'type', 'project_path']))
    .addOption(choice('--sort <direction>', 'sort direction', ['asc', 'desc']))
  withJson(withPagination(withProject(withConnection(command)))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): ListOptions => ({
  project: flags.project, group: flags.group, name: flags.name, version: flags.version, type: flags.type, status: flags.status,
  orderBy: flags.orderBy, sort: flags.sort, json: flags.json === true, ...pageOptions(flags),
})

export async function run(options: ListOptions, deps: Deps): Promise<void> {
  const query = {
    ...pageQuery(options), package_name: options.name, package_version: options.version, package_type: options.type,
    status: options.status, order_by: options.orderBy, sort: options.sort,
  }
  const { api, path, where } = options.group !== undefined
    ? { api: await deps.api(), path: route('listGroupPackages', { id: options.group }), where: options.group }
    : await deps.project(options.project, { anonymous: true }).then(({ api, ref }) => ({ api, path: route('listProjectPackages', { id: ref }), where: ref }))
  const page = await api.list(path, query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const columns: Column<(typeof page.items)[number]>[] = [
    { header: 'ID', value: (p) => p.id },
    { header: 'NAME', value: (p) => p.name, flex: true },
    { header: 'VERSION', value: (p) => p.version },
    { header: 'TYPE', value: (p) => p.package_type },
    { header: 'STATUS', value: (p) => p.status },
    ...(options.group !== undefined ? [{ header: 'PROJECT', value: (p: (typeof page.items)[number]) => p.project_path }] : []),
    { header: 'CREATED', value: (p) => p.created_at, time: true },
  ]
  await printList(deps.io, columns, page, { noun: 'packages', where })
}
