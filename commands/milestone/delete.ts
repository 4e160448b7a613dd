// collab milestone delete <id|title>: delete a milestone (its issues and merge requests lose it).
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { milestoneId } from './shared.js'

export interface DeleteOptions { project?: string; milestone: string }

export function register(group: Command, rt: Runtime): void {
  const command = withProject(withConnection(group.command('delete').alias('rm').description('Delete a milestone').argument('<milestone>', 'the milestone id or title')))
  command.action((milestone: string, flags: OptionValues) => rt.invoke(command, run, toOptions(milestone, flags)))
}

export const toOptions = (milestone: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, milestone })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteProjectMilestone', { id: ref, milestone_id: await milestoneId(api, ref, options.milestone) }))
  status(deps.io, `Deleted milestone ${options.milestone} in ${ref}`)
}
