// collab wiki: list, view, create, edit and delete wiki pages; upload attachments; clone the wiki repository.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as clone from './clone.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as upload from './upload.js'
import * as view from './view.js'

export const summary = 'Work with project wikis: list, view, create, edit, delete pages, upload attachments, clone'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, edit, del, upload, clone]) verb.register(group, rt)
}
