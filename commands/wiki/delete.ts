// collab wiki delete <slug>: delete a page (Maintainers), after a confirmation or --yes.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onPage } from './shared.js'

export interface DeleteOptions { project?: string; slug: string; yes: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = onPage(group.command('delete').description('Delete a wiki page'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action((slug: string, flags: OptionValues) => rt.invoke(command, run, toOptions(slug, flags)))
}

export const toOptions = (slug: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, slug, yes: flags.yes === true })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  if (!options.yes && !(await deps.prompter.confirm(`Delete wiki page ${options.slug} of ${ref}?`, '--yes'))) throw failure('nothing was deleted')
  await api.call(route('deleteWikiPage', { id: ref, slug: options.slug }))
  status(deps.io, `Deleted wiki page ${options.slug} in ${ref}`)
}
