// collab package upload FILE --name N --version V [--file-name F]: publish a file to a generic package, streamed.
import { basename, resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { choice, withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { uploadGenericFile } from './transfer.js'

export interface UploadOptions {
  project?: string
  file: string
  name?: string
  version?: string
  fileName?: string
  status?: 'default' | 'hidden'
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('upload').alias('publish').description('Upload a file to a generic package (created when new)')
    .argument('<file>', 'the file to upload')
    .option('--name <name>', 'the package name')
    .option('--version <version>', 'the package version')
    .option('--file-name <name>', "the file's name in the package (default: the file's own name)")
    .addOption(choice('--status <status>', 'default, or hidden to keep the package out of lists', ['default', 'hidden']))
  withJson(withProject(withConnection(command))).action((file: string, flags: OptionValues) => rt.invoke(command, run, toOptions(file, flags)))
}

export const toOptions = (file: string, flags: OptionValues): UploadOptions => ({
  project: flags.project, file, name: flags.name, version: flags.version, fileName: flags.fileName, status: flags.status, json: flags.json === true,
})

export async function run(options: UploadOptions, deps: Deps): Promise<void> {
  if (options.name === undefined) throw usageError('missing --name', 'pass the package name with --name')
  if (options.version === undefined) throw usageError('missing --version', 'pass the package version with --version')
  const { api, ref } = await deps.project(options.project)
  const fileName = options.fileName ?? basename(options.file)
  const text = await uploadGenericFile(api, deps.io, resolve(deps.io.cwd, options.file), {
    project: ref, name: options.name, version: options.version, fileName, status: options.status,
  })
  if (options.json) return printRaw(deps.io, text)
  const record = JSON.parse(text) as { size: number; file_sha256: string | null }
  status(deps.io, `Uploaded ${fileName} (${record.size} bytes) to ${options.name} ${options.version} in ${ref}`)
  deps.io.stdout.write(`${record.file_sha256 ?? ''}  ${fileName}\n`)
}
