// collab user block <user>: block a user (administrators); their tokens stop working at once.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { registerStateVerb, runState, type StateOptions } from './state.js'

const VERB = { name: 'block', description: 'Block a user: they can no longer sign in or use their tokens', done: 'Blocked', unchanged: 'is already blocked' } as const

export const register = (group: Command, rt: Runtime) => registerStateVerb(group, rt, VERB)
export const run = (options: StateOptions, deps: Deps) => runState(VERB, options, deps)
