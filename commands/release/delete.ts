// collab release delete <tag>: delete a release after a confirmation or --yes; its tag too with --with-tag.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'

export interface DeleteOptions { project?: string; tag: string; yes: boolean; withTag: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('delete').alias('rm').description('Delete a release (the tag stays unless --with-tag)')
    .argument('<tag>', 'the tag of the release')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('-t, --with-tag', 'delete the tag as well')
  withJson(withProject(withConnection(command))).action((tag: string, flags: OptionValues) => rt.invoke(command, run, toOptions(tag, flags)))
}

export const toOptions = (tag: string, flags: OptionValues): DeleteOptions => ({
  project: flags.project, tag, yes: flags.yes === true, withTag: flags.withTag === true, json: flags.json === true,
})

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const what = `the release of ${options.tag}${options.withTag ? ' and the tag' : ''} in ${ref}`
  if (!options.yes && !(await deps.prompter.confirm(`Delete ${what}?`, '--yes'))) throw failure('nothing was deleted')
  const response = await api.call(route('deleteRelease', { id: ref, tag_name: options.tag }))
  if (options.withTag) await api.call(route('deleteTag', { id: ref, tag_name: options.tag }))
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Deleted ${what}`)
}
