// collab user delete <user>: delete a user (administrators), after a confirmation or --yes.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onUser, userId } from './shared.js'

export interface DeleteOptions { user: string; hard: boolean; yes: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = onUser(group.command('delete').description('Delete a user: what they wrote moves to the ghost user, their personal projects go'))
    .option('--hard', 'also remove what they wrote (issues, notes, merge requests) and the groups only they own')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((user: string, flags: OptionValues) => rt.invoke(command, run, toOptions(user, flags)))
}

export const toOptions = (user: string, flags: OptionValues): DeleteOptions => ({ user, hard: flags.hard === true, yes: flags.yes === true })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const id = await userId(api, options.user)
  const what = options.hard ? 'with everything they wrote' : 'and their personal projects'
  if (!options.yes && !(await deps.prompter.confirm(`Delete user ${options.user} ${what}?`, '--yes'))) throw failure('nothing was deleted')
  await api.call(route('deleteUser', { id }), { query: options.hard ? { hard_delete: true } : {} })
  status(deps.io, `Deleted user ${options.user}`)
}
