// collab pipeline (alias collab ci): list, view (and watch), run, retry, cancel and delete pipelines; lint a CI configuration.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as actions from './actions.js'
import * as lint from './lint.js'
import * as list from './list.js'
import * as run from './run.js'
import * as view from './view.js'

export const summary = 'Work with CI pipelines: list, view (--watch), status (--live), run, retry, cancel, delete, lint'
export const aliases = ['ci']

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, run, actions, lint]) verb.register(group, rt)
}
