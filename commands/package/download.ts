// collab package download NAME VERSION FILE [-o PATH]: a generic package's file streamed to disk (or stdout with -o -),
// with a progress bar on a terminal.
import { resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { openBytes } from '../job/bytes.js'
import { saveTo } from '../job/transfer.js'

export interface DownloadOptions { project?: string; name: string; version: string; file: string; output?: string }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('download').description("Download a generic package's file (the newest of that name)")
    .argument('<name>', 'the package name')
    .argument('<version>', 'the package version')
    .argument('<file>', 'the file name in the package')
    .option('-o, --output <path>', "where to save it ('-' is stdout; default: the file name)")
  withProject(withConnection(command)).action((name: string, version: string, file: string, flags: OptionValues) =>
    rt.invoke(command, run, toOptions(name, version, file, flags)))
}

export const toOptions = (name: string, version: string, file: string, flags: OptionValues): DownloadOptions =>
  ({ project: flags.project, name, version, file, output: flags.output })

export async function run(options: DownloadOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project, { anonymous: true })
  // The download endpoint's route, not the upload's: openBytes sends the route's method.
  const res = await openBytes(api, route('downloadGenericPackageFile', { id: ref, package_name: options.name, package_version: options.version, file_name: options.file }))
  const output = options.output ?? options.file
  const target = output === '-' ? '-' : resolve(deps.io.cwd, output)
  await saveTo(deps.io, res, target, Number(res.headers['content-length']) || undefined)
  if (target !== '-') status(deps.io, `Saved ${options.file} of ${options.name} ${options.version} to ${output}`)
}
