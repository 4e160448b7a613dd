// collab release edit <tag>: change a release's title, notes, date or milestones (`--milestone ''` removes them all).
import type { Command, OptionValues } from 'commander'
import { isoDate, withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { descriptionFrom } from '../../src/cli/text-input.js'
import { milestoneTitles, withMilestoneFlag, type Release } from './shared.js'

export interface EditOptions {
  project?: string
  tag: string
  name?: string
  notes?: string
  notesFile?: string
  releasedAt?: string
  milestones?: string[]
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('edit').alias('update').description("Edit a release's title, notes, release date or milestones")
    .argument('<tag>', 'the tag of the release')
    .option('-n, --name <name>', 'the release title')
    .option('-N, --notes <text>', 'the release notes (markdown)')
    .option('-F, --notes-file <file>', 'read the release notes from a file, or - for stdin')
    .option('-D, --released-at <time>', 'when the release is (ISO 8601)', isoDate)
  withMilestoneFlag(command)
  withJson(withProject(withConnection(command))).action((tag: string, flags: OptionValues) => rt.invoke(command, run, toOptions(tag, flags)))
}

export function toOptions(tag: string, flags: OptionValues): EditOptions {
  if (flags.notes !== undefined && flags.notesFile !== undefined) throw usageError('give the notes once: --notes or --notes-file')
  return {
    project: flags.project, tag, name: flags.name, notes: flags.notes, notesFile: flags.notesFile, releasedAt: flags.releasedAt,
    milestones: milestoneTitles(flags.milestone), json: flags.json === true,
  }
}

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  const description = await descriptionFrom(deps, options.notes, options.notesFile)
  const fields = Object.fromEntries(Object.entries({
    name: options.name, description, released_at: options.releasedAt, milestones: options.milestones,
  }).filter(([, v]) => v !== undefined))
  if (Object.keys(fields).length === 0) throw usageError('nothing to change', 'pass --name, --notes, --notes-file, --released-at or --milestone')
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('updateRelease', { id: ref, tag_name: options.tag }), fields)
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Updated release ${(data as Release).name || options.tag} (${options.tag}) in ${ref}`)
}
