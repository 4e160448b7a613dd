// collab milestone delete <id|title>: delete a milestone (its issues and merge requests lose it).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { ownerTarget, withOwner, type OwnerOptions } from '../label/owner.js'
import { milestoneId } from './shared.js'

export interface DeleteOptions extends OwnerOptions { milestone: string }

export function register(group: Command, rt: Runtime): void {
  const command = withOwner(group.command('delete').alias('rm').description('Delete a milestone').argument('<milestone>', 'the milestone id or title'), 'milestones')
  command.action((milestone: string, flags: OptionValues) => rt.invoke(command, run, toOptions(milestone, flags)))
}

export const toOptions = (milestone: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, group: flags.group, milestone })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const owner = await ownerTarget(options, deps)
  const milestone_id = await milestoneId(owner, options.milestone)
  await owner.api.call(route(owner.group ? 'deleteGroupMilestone' : 'deleteProjectMilestone', { id: owner.id, milestone_id }))
  status(deps.io, `Deleted milestone ${options.milestone} in ${owner.id}`)
}
