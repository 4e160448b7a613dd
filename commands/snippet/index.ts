// collab snippet: list, view, create (from files or stdin), edit, delete and print raw snippets of a project, or with
// --personal your own.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as raw from './raw.js'
import * as view from './view.js'

export const summary = 'Work with snippets: list, view, create (from files or stdin), edit, delete, raw; --personal for your own'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, edit, del, raw]) verb.register(group, rt)
}
