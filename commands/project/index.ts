// collab project: list, view, create, edit, fork, star, archive and delete projects, and manage their members.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as archive from './archive.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as edit from './edit.js'
import * as fork from './fork.js'
import * as forks from './forks.js'
import * as languages from './languages.js'
import * as list from './list.js'
import * as members from './members/index.js'
import * as star from './star.js'
import * as unarchive from './unarchive.js'
import * as unstar from './unstar.js'
import * as view from './view.js'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, edit, fork, forks, star, unstar, archive, unarchive, languages, members, del]) verb.register(group, rt)
}
