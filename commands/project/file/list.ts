// collab project file list [path]: the entries of a directory of the repository (GET …/repository/tree).
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, printTable } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface FileListOptions extends PageOptions {
  project?: string
  path?: string
  ref?: string
  recursive: boolean
  json: boolean
}

export function register(file: Command, rt: Runtime): void {
  const command = file
    .command('list')
    .alias('ls')
    .description('List the files and directories of a directory')
    .argument('[path]', 'the directory (default: the repository root)')
    .option('-r, --ref <ref>', 'branch, tag or SHA (default: the default branch)')
    .option('-R, --recursive', 'list subdirectories too')
  withJson(withPagination(onRepository(command))).action((path: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(path, flags)))
}

export const toOptions = (path: string | undefined, flags: OptionValues): FileListOptions => ({
  project: flags.project,
  path,
  ref: flags.ref,
  recursive: flags.recursive === true,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: FileListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listTree', { id: ref }), {
    path: options.path,
    ref: options.ref,
    recursive: options.recursive || undefined,
    ...pageQuery(options),
  }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, [
    { header: 'MODE', value: (e) => e.mode, style: (text) => deps.io.color.dim(text) },
    { header: 'TYPE', value: (e) => e.type },
    { header: 'PATH', value: (e) => e.path, style: (text, e) => (e.type === 'tree' ? deps.io.color.bold(text) : text) },
  ], page.items)
}
