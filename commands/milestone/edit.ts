// collab milestone edit <id|title>: retitle, redate, close or reopen a milestone.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { milestoneFields, milestoneId, withMilestoneFields, type MilestoneFields } from './shared.js'

export interface EditOptions extends OwnerOptions { milestone: string; fields: MilestoneFields & { state_event?: 'close' | 'activate' }; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withOwner(withMilestoneFields(group.command('edit').description('Edit, close or reopen a milestone')
    .argument('<milestone>', 'the milestone id or title')
    .option('-t, --title <title>', 'a new title')
    .option('--close', 'close the milestone')
    .option('--reopen', 'make a closed milestone active again')), 'milestones'))
  command.action((milestone: string, flags: OptionValues) => rt.invoke(command, run, toOptions(milestone, flags)))
}

export function toOptions(milestone: string, flags: OptionValues): EditOptions {
  if (flags.close && flags.reopen) throw usageError('pass --close or --reopen, not both')
  const fields: EditOptions['fields'] = milestoneFields(flags)
  if (flags.title !== undefined) fields.title = flags.title
  if (flags.close) fields.state_event = 'close'
  if (flags.reopen) fields.state_event = 'activate'
  return { project: flags.project, group: flags.group, milestone, fields, json: flags.json === true }
}

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  if (!Object.keys(options.fields).length) throw usageError('nothing to change: pass --title, --description, --start-date, --due-date, --close or --reopen')
  const owner = await ownerTarget(options, deps)
  const milestone_id = await milestoneId(owner, options.milestone)
  const response = await owner.api.call(route(owner.group ? 'editGroupMilestone' : 'editProjectMilestone', { id: owner.id, milestone_id }), { json: options.fields })
  reportWrite(deps.io, options.json, response, `Updated milestone ${options.fields.title ?? options.milestone} in ${owner.id}`)
}
