// collab package: the project's package registry: upload and download generic package files, list and delete packages.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import * as del from './delete.js'
import * as download from './download.js'
import * as list from './list.js'
import * as upload from './upload.js'

export const summary = "Work with a project's package registry: upload and download generic package files, list, delete"

export function register(group: Command, rt: Runtime): void {
  for (const verb of [list, upload, download, del]) verb.register(group, rt)
}
