// What block and unblock share: POST /users/:id/<action>, and GitLab's answer told in words.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onUser, userId } from './shared.js'

export interface StateOptions { user: string }

interface StateVerb {
  name: 'block' | 'unblock'
  description: string
  done: string
  /** GitLab answers `null` (block) or `false` (unblock) when the user was already in that state. */
  unchanged: string
}

export function registerStateVerb(group: Command, rt: Runtime, verb: StateVerb): void {
  const command = onUser(group.command(verb.name).description(verb.description))
  command.action((user: string, _flags: OptionValues) => rt.invoke(command, (o: StateOptions, d: Deps) => runState(verb, o, d), { user }))
}

export async function runState(verb: StateVerb, options: StateOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const id = await userId(api, options.user)
  const route_ = route(verb.name === 'block' ? 'blockUser' : 'unblockUser', { id })
  const answer = JSON.parse((await api.call(route_)).text) as boolean | null
  if (answer !== true) throw failure(`${options.user} ${verb.unchanged}`)
  status(deps.io, `${verb.done} ${options.user}`)
}
