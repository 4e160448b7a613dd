// collab runner: a runner of GitLab's runner protocol, for collab serve or any GitLab: register, run, list, verify, unregister.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as list from './list.js'
import * as registerVerb from './register.js'
import * as run from './run.js'
import * as unregister from './unregister.js'
import * as verify from './verify.js'

export const summary = 'Run CI jobs for collab serve or GitLab over the runner protocol: register, run, list, verify, unregister'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [registerVerb, run, list, verify, unregister]) verb.register(group, rt)
}
