// collab commit: list, view, create, diff and cherry-pick commits, see their refs, comment on them and set their statuses.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as cherryPick from './cherry-pick.js'
import * as comment from './comment.js'
import * as comments from './comments.js'
import * as create from './create.js'
import * as diff from './diff.js'
import * as list from './list.js'
import * as refs from './refs.js'
import * as status from './status/index.js'
import * as view from './view.js'

export const summary = 'Work with commits: list, view, create, diff, cherry-pick, comment, statuses'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, diff, cherryPick, refs, comment, comments, status]) verb.register(group, rt)
}
