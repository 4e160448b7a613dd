// What the repository verbs of `collab project` share (branches, tags, file): -p, --host, --token, and the fields they read.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'

/** No `[project]` argument (the verbs have their own); the project comes from -p, COLLAB_PROJECT, CI_PROJECT_ID or the git remote. */
export const onRepository = (command: Command) => withProject(withConnection(command))

/** The commit fields a branch or tag listing shows. */
export interface HeadCommit {
  id: string
  short_id: string
  title: string
}

export interface Branch {
  name: string
  commit: HeadCommit
  default: boolean
  protected: boolean
  merged: boolean
}

export interface Tag {
  name: string
  message: string | null
  target: string
  commit: HeadCommit
}
