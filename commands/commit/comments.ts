// collab commit comments <sha>: the comments on a commit, oldest first.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onCommit } from './shared.js'

export interface CommentsOptions extends PageOptions {
  project?: string
  sha: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('comments').description('List the comments on a commit')
  withJson(withPagination(onCommit(command))).action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): CommentsOptions => ({
  project: flags.project,
  sha,
  ...pageOptions(flags),
  json: flags.json === true,
})

export async function run(options: CommentsOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listCommitComments', { id: ref, sha: options.sha }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, [
    { header: 'AUTHOR', value: (c) => c.author.username, style: (text) => deps.io.color.bold(text) },
    { header: 'CREATED', value: (c) => c.created_at },
    { header: 'LINE', value: (c) => (c.path ? `${c.path}${c.line ? `:${c.line}` : ''}` : '') },
    { header: 'NOTE', value: (c) => c.note },
  ], page.items)
}
