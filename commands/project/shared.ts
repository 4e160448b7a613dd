// What the project verbs share: the fields they read, the list columns, the project argument and the --json/status ending.
import type { Command } from 'commander'
import type { ApiResponse } from '../../src/client/http.js'
import { withConnection, withProject } from '../../src/cli/command.js'
import type { IO } from '../../src/cli/io.js'
import { printRaw, status, type Column } from '../../src/cli/output.js'

/** The fields of api-v4.md §Project the CLI reads; the simple form lacks visibility and archived. */
export interface Project {
  id: number
  name: string
  path_with_namespace: string
  description: string | null
  default_branch: string | null
  web_url: string
  http_url_to_repo: string
  ssh_url_to_repo: string
  star_count: number
  forks_count: number
  created_at: string
  visibility?: string
  archived?: boolean
  forked_from_project?: { path_with_namespace: string }
}

export const VISIBILITIES = ['private', 'internal', 'public'] as const

export const projectColumns = (io: IO): Column<Project>[] => [
  { header: 'ID', value: (p) => p.id, style: (text) => io.color.dim(text) },
  { header: 'PATH', value: (p) => p.path_with_namespace, style: (text) => io.color.bold(text) },
  { header: 'VISIBILITY', value: (p) => p.visibility },
  { header: 'DESCRIPTION', value: (p) => p.description },
]

/** `[project]` plus -p, --host, --token: a verb on one project. */
export const onProject = (command: Command) =>
  withProject(withConnection(command.argument('[project]', 'project id, path or URL (default: -p, COLLAB_PROJECT, git remote)')))

/** A write verb's ending: the response with --json, a status line on stderr always. */
export function reportWrite(io: IO, json: boolean, response: ApiResponse, message: string): void {
  if (json) printRaw(io, response.text)
  status(io, message)
}
