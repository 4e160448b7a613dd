// collab user unblock <user>: let a blocked or banned user back in (administrators).
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { registerStateVerb, runState, type StateOptions } from './state.js'

const VERB = { name: 'unblock', description: 'Unblock a user', done: 'Unblocked', unchanged: 'is not blocked' } as const

export const register = (group: Command, rt: Runtime) => registerStateVerb(group, rt, VERB)
export const run = (options: StateOptions, deps: Deps) => runState(VERB, options, deps)
