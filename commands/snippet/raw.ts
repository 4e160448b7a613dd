// collab snippet raw <snippet>: the content exactly as stored (the first file, or --file), for pipes and redirects.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { onSnippet, snippetId, snippetTarget, type SnippetScope } from './shared.js'

export interface RawOptions extends SnippetScope { id: number; file?: string }

export function register(group: Command, rt: Runtime): void {
  const command = onSnippet(group.command('raw').description("Print a snippet's content unchanged"))
    .option('-f, --file <path>', 'print this file of the snippet (default: the first)')
  command.action((id: string, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: string, flags: OptionValues): RawOptions =>
  ({ project: flags.project, personal: flags.personal === true, id: snippetId(id), file: flags.file })

export async function run(options: RawOptions, deps: Deps): Promise<void> {
  const target = await snippetTarget(deps, options)
  deps.io.stdout.write((await target.api.call(target.raw(options.id, options.file))).text)
}
