// collab milestone create <title>: create a milestone.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { milestoneFields, withMilestoneFields, type MilestoneFields } from './shared.js'

export interface CreateOptions extends OwnerOptions { title: string; fields: MilestoneFields; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withMilestoneFields(group.command('create').description('Create a milestone').argument('<title>', 'the milestone title')), 'milestones'))
  command.action((title: string, flags: OptionValues) => rt.invoke(command, run, toOptions(title, flags)))
}

export const toOptions = (title: string, flags: OptionValues): CreateOptions => ({ project: flags.project, group: flags.group, title, fields: milestoneFields(flags), json: flags.json === true })

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const { api, group, id } = await ownerTarget(options, deps)
  const response = await api.call(route(group ? 'createGroupMilestone' : 'createProjectMilestone', { id }), { json: { title: options.title, ...options.fields } })
  reportWrite(deps.io, options.json, response, `Created milestone ${options.title} in ${id}`)
}
