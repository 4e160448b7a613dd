// What the repository verbs of `collab project` share (branches, tags, file): -p, --host, --token.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'

/** No `[project]` argument (the verbs have their own); the project comes from -p, COLLAB_PROJECT, CI_PROJECT_ID or the git remote. */
export const onRepository = (command: Command) => withProject(withConnection(command))
