// collab project file get <path>: a file's bytes, unchanged, on stdout (`> copy` keeps binaries intact).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw } from '../../../src/cli/output.js'
import { parseJson } from '../../../src/client/http.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface FileGetOptions {
  project?: string
  path: string
  ref?: string
  json: boolean
}

export function register(file: Command, rt: Runtime): void {
  const command = file
    .command('get', { isDefault: true })
    .alias('cat')
    .description('Print the raw content of a file')
    .argument('<path>', 'the file, relative to the repository root')
    .option('-r, --ref <ref>', 'branch, tag or SHA (default: the default branch)')
  withJson(onRepository(command)).action((path: string, flags: OptionValues) => rt.invoke(command, run, toOptions(path, flags)))
}

export const toOptions = (path: string, flags: OptionValues): FileGetOptions => ({
  project: flags.project,
  path,
  ref: flags.ref,
  json: flags.json === true,
})

export async function run(options: FileGetOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  // The JSON form carries the bytes as base64; the raw endpoint's body would not survive the client's text decoding.
  const file = route('getFile', { id: ref, file_path: options.path.replace(/^\/+/, '') })
  const response = await api.call(file, { query: { ref: options.ref } })
  if (options.json) return printRaw(deps.io, response.text)
  deps.io.stdout.write(Buffer.from(parseJson<{ content: string }>(response).content, 'base64'))
}
