// What the issue verbs share: the contract's issue and note types, list columns, the `<iid>` argument and description input.
import { promises as fs } from 'node:fs'
import type { Command } from 'commander'
import { positiveInt, withConnection, withProject } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export type Issue = ResponseOf<'getProjectIssue'>
export type Note = ResponseOf<'getIssueNote'>

export const issueColumns = (io: IO): Column<Issue>[] => [
  { header: 'IID', value: (i) => `#${i.iid}`, style: (text) => io.color.dim(text) },
  { header: 'STATE', value: (i) => i.state },
  { header: 'TITLE', value: (i) => i.title, style: (text) => io.color.bold(text) },
  { header: 'LABELS', value: (i) => i.labels.join(',') },
  { header: 'ASSIGNEES', value: (i) => i.assignees.map((u) => u.username).join(',') },
]

/** `<iid>` plus -p, --host, --token: a verb on one issue. */
export const onIssue = (command: Command) =>
  withProject(withConnection(command.argument('<iid>', 'the issue number in its project (#iid)', positiveInt)))

/** `--description-file FILE`, or `-` for stdin. */
export async function readText(deps: Deps, file: string): Promise<string> {
  if (file === '-') return deps.io.readStdin()
  try {
    return await fs.readFile(file, 'utf8')
  } catch (err) {
    throw usageError(`cannot read ${file}: ${(err as Error).message}`)
  }
}

export async function descriptionFrom(deps: Deps, text: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) throw usageError('--description and --description-file are mutually exclusive')
  return file !== undefined ? readText(deps, file) : text
}

/** Comma-separated values from repeated or CSV flags: `--label a --label b,c`. */
export const csv = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
