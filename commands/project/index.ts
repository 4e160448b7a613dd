// collab project: list, view, create, edit, clone, fork, star, archive, download and delete projects; their members, branches, tags and files.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as archive from './archive.js'
import * as branches from './branches/index.js'
import * as clone from './clone.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as download from './download.js'
import * as edit from './edit.js'
import * as file from './file/index.js'
import * as fork from './fork.js'
import * as forks from './forks.js'
import * as languages from './languages.js'
import * as list from './list.js'
import * as members from './members/index.js'
import * as mirror from './mirror/index.js'
import * as migrate from './migrate.js'
import * as star from './star.js'
import * as tags from './tags/index.js'
import * as unarchive from './unarchive.js'
import * as unstar from './unstar.js'
import * as view from './view.js'

export const summary = 'Work with projects: list, view, create, edit, clone, fork, star, archive, members, branches, tags, files'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, edit, clone, fork, forks, star, unstar, archive, unarchive, download, migrate, languages, members, branches, tags, file, mirror, del]) verb.register(group, rt)
}
