// collab project tags create <name> --ref R: a lightweight tag, or an annotated one with -m.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface TagCreateOptions {
  project?: string
  name: string
  ref: string
  message?: string
  json: boolean
}

export function register(tags: Command, rt: Runtime): void {
  const command = tags
    .command('create')
    .description('Create a tag')
    .argument('<name>', 'the new tag')
    .requiredOption('-r, --ref <ref>', 'branch, tag or SHA to tag')
    .option('-m, --message <message>', 'make an annotated tag with this message')
  withJson(onRepository(command)).action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): TagCreateOptions => ({
  project: flags.project,
  name,
  ref: flags.ref,
  message: flags.message,
  json: flags.json === true,
})

export async function run(options: TagCreateOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('createTag', { id: ref }), {
    tag_name: options.name,
    ref: options.ref,
    message: options.message,
  })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Created tag ${data.name} at ${data.commit.short_id}`)
}
