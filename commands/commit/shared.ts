// What the commit verbs share: the fields they read, the `<sha>` argument, API paths and the list columns.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'

/** A commit as the contract declares it (stats and status when asked for). */
export type Commit = ResponseOf<'getCommit'>

export const SHA_ARGUMENT = 'commit SHA (full or short), branch or tag'

/** -p, --host, --token: a verb on a project, the project coming from the flag, COLLAB_PROJECT, CI_PROJECT_ID or the git remote. */
export const onRepository = (command: Command) => withProject(withConnection(command))

/** `<sha>` plus -p, --host, --token. */
export const onCommit = (command: Command) => onRepository(command.argument('<sha>', SHA_ARGUMENT))

/** Full SHAs when piped (scripts want them), short ones in a terminal table. */
export const commitColumns = (io: IO, withStats = false): Column<Commit>[] => [
  { header: 'SHA', value: (c) => (io.stdoutIsTTY ? c.short_id : c.id), style: (text) => io.color.dim(text) },
  { header: 'DATE', value: (c) => c.authored_date, time: true },
  { header: 'AUTHOR', value: (c) => c.author_name },
  { header: 'TITLE', value: (c) => c.title, style: (text) => io.color.bold(text), flex: true },
  ...(withStats ? [
    { header: 'ADDED', value: (c: Commit) => c.stats?.additions },
    { header: 'DELETED', value: (c: Commit) => c.stats?.deletions },
  ] : []),
]
