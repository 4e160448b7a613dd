// collab label edit <name>: rename a label or change its colour, description or priority.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from './owner.js'
import { labelFields, withLabelFields, type LabelFields } from './shared.js'

export interface EditOptions extends OwnerOptions { name: string; fields: LabelFields & { new_name?: string }; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withLabelFields(group.command('edit').description('Edit a label').argument('<name>', 'the label name or id')
    .option('-n, --name <new name>', 'rename the label')), 'labels'))
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): EditOptions => ({
  project: flags.project, group: flags.group, name, fields: { ...labelFields(flags), ...(flags.name === undefined ? {} : { new_name: flags.name }) }, json: flags.json === true,
})

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  if (!Object.keys(options.fields).length) throw usageError('nothing to change: pass --name, --color, --description or --priority')
  if (Number.isNaN(options.fields.priority)) throw usageError('--priority takes a number')
  const { api, group, id } = await ownerTarget(options, deps)
  if (group && options.fields.priority !== undefined) throw usageError('group labels have no priority: drop --priority')
  const response = await api.call(route(group ? 'editGroupLabel' : 'editProjectLabel', { id, label_id: options.name }), { json: options.fields })
  reportWrite(deps.io, options.json, response, `Updated label ${options.fields.new_name ?? options.name} in ${id}`)
}
