// What the project verbs share: the fields they read, the list columns, the project argument and the --json/status ending.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'

/** A project in its full form, as GET /projects/:id answers without `simple`. */
export type Project = ResponseOf<'createProject'>
/** A project in a list: the full form, or with `simple=true` the simple one, which has no visibility. */
type ListedProject = ResponseOf<'listProjects'>[number]

export const VISIBILITIES = ['private', 'internal', 'public'] as const

export const projectColumns = (io: IO): Column<ListedProject>[] => [
  { header: 'ID', value: (p) => p.id, style: (text) => io.color.dim(text) },
  { header: 'PATH', value: (p) => p.path_with_namespace, style: (text) => io.color.bold(text) },
  { header: 'VISIBILITY', value: (p) => ('visibility' in p ? p.visibility : undefined) },
  { header: 'DESCRIPTION', value: (p) => p.description, flex: true },
]

/** `[project]` plus -p, --host, --token: a verb on one project. */
export const onProject = (command: Command) =>
  withProject(withConnection(command.argument('[project]', 'project id, path or URL (default: -p, COLLAB_PROJECT, git remote)')))
