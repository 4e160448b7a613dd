// collab commit diff <sha>: the commit's changes as a unified diff `git apply` reads, or the API's diff entries with --json.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import { printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { onCommit } from './shared.js'

/** api-v4.md §Commits, diff entries. */
export type DiffEntry = ResponseOf<'getCommitDiff'>[number]

export interface DiffOptions {
  project?: string
  sha: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onCommit(group.command('diff').description('Show the changes of a commit as a unified diff')))
    .action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): DiffOptions => ({ project: flags.project, sha, json: flags.json === true })

/** The `diff --git` header git writes before each file's hunks: modes, renames, and the ---/+++ lines. */
export function fileHeader(entry: DiffEntry): string[] {
  const lines = [`diff --git a/${entry.old_path} b/${entry.new_path}`]
  if (entry.new_file) lines.push(`new file mode ${entry.b_mode}`)
  else if (entry.deleted_file) lines.push(`deleted file mode ${entry.a_mode}`)
  else if (entry.a_mode !== entry.b_mode) lines.push(`old mode ${entry.a_mode}`, `new mode ${entry.b_mode}`)
  // The API gives no similarity score; an unchanged rename is 100%, and git apply does without the line otherwise.
  if (entry.renamed_file && entry.diff === '') lines.push('similarity index 100%')
  if (entry.renamed_file) lines.push(`rename from ${entry.old_path}`, `rename to ${entry.new_path}`)
  // A binary change carries its own `Binary files … differ` line; a pure rename or mode change has no hunks.
  if (entry.diff !== '' && !entry.diff.startsWith('Binary files ')) {
    lines.push(`--- ${entry.new_file ? '/dev/null' : `a/${entry.old_path}`}`, `+++ ${entry.deleted_file ? '/dev/null' : `b/${entry.new_path}`}`)
  }
  return lines
}

/** In a colour terminal: bold headers, dim hunk lines, additions green, deletions red (as git colours them). */
export function formatDiff(io: IO, entries: DiffEntry[]): string {
  const { color } = io
  let out = ''
  for (const entry of entries) {
    for (const line of fileHeader(entry)) out += `${color.bold(line)}\n`
    const body = entry.diff === '' || entry.diff.endsWith('\n') ? entry.diff : `${entry.diff}\n`
    for (const line of body.split('\n').slice(0, -1)) {
      const styled = line.startsWith('+') ? color.green(line) : line.startsWith('-') ? color.red(line) : line.startsWith('@@') ? color.dim(line) : line
      out += `${styled}\n`
    }
  }
  return out
}

export async function run(options: DiffOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  // A commit's diff is one document: every page, always (GitLab pages it 20 files at a time).
  const page = await api.list(route('getCommitDiff', { id: ref, sha: options.sha }), { per_page: 100 }, { all: true })
  if (options.json) printRaw(deps.io, page.text)
  else deps.io.stdout.write(formatDiff(deps.io, page.items))
}
