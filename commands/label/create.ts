// collab label create <name>: create a label (--color is required by the API).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from './owner.js'
import { labelFields, withLabelFields, type LabelFields } from './shared.js'

export interface CreateOptions extends OwnerOptions { name: string; fields: LabelFields; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withLabelFields(group.command('create').description('Create a label').argument('<name>', 'the label name')), 'labels'))
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): CreateOptions => ({ project: flags.project, group: flags.group, name, fields: labelFields(flags), json: flags.json === true })

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  if (options.fields.color === undefined) throw usageError('--color is required (a hex colour such as #FF0000, or a colour name)')
  if (Number.isNaN(options.fields.priority)) throw usageError('--priority takes a number')
  const { api, group, id } = await ownerTarget(options, deps)
  if (group && options.fields.priority !== undefined) throw usageError('group labels have no priority: drop --priority')
  const response = await api.call(route(group ? 'createGroupLabel' : 'createProjectLabel', { id }), { json: { name: options.name, ...options.fields } })
  reportWrite(deps.io, options.json, response, `Created label ${options.name} in ${id}`)
}
