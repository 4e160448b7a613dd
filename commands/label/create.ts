// collab label create <name>: create a label (--color is required by the API).
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { route } from '../../src/client/paths.js'
import { reportWrite } from '../project/shared.js'
import { labelFields, withLabelFields, type LabelFields } from './shared.js'

export interface CreateOptions { project?: string; name: string; fields: LabelFields; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withProject(withConnection(withLabelFields(group.command('create').description('Create a label').argument('<name>', 'the label name')))))
  command.action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): CreateOptions => ({ project: flags.project, name, fields: labelFields(flags), json: flags.json === true })

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  if (options.fields.color === undefined) throw usageError('--color is required (a hex colour such as #FF0000, or a colour name)')
  if (Number.isNaN(options.fields.priority)) throw usageError('--priority takes a number')
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('createProjectLabel', { id: ref }), { json: { name: options.name, ...options.fields } })
  reportWrite(deps.io, options.json, response, `Created label ${options.name} in ${ref}`)
}
