// collab release: create, list, view, edit, delete a project's releases; upload and download their assets.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as create from './create.js'
import * as del from './delete.js'
import * as download from './download.js'
import * as edit from './edit.js'
import * as list from './list.js'
import * as upload from './upload.js'
import * as view from './view.js'

export const summary = 'Work with releases: list, view, create, edit, delete; upload and download their assets'

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, view, create, edit, del, upload, download]) verb.register(group, rt)
}
