// collab commit view <sha>: one commit with its stats and the status its pipelines and CI scripts gave it.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onCommit, type Commit } from './shared.js'

export interface ViewOptions {
  project?: string
  sha: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onCommit(group.command('view').alias('show').description('Show a commit with its stats and status')))
    .action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): ViewOptions => ({ project: flags.project, sha, json: flags.json === true })

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getCommit', { id: ref, sha: options.sha }), { query: { stats: true } })
  if (options.json) return printRaw(deps.io, response.text)
  const c = parseJson<Commit>(response)
  const { io } = deps
  printFields(io, [
    ['id', c.id],
    ['title', c.title],
    ['author', `${c.author_name} <${c.author_email}>`],
    ['authored_date', c.authored_date],
    ['committer', `${c.committer_name} <${c.committer_email}>`],
    ['committed_date', c.committed_date],
    ['parents', c.parent_ids.join(' ')],
    ['additions', c.stats?.additions],
    ['deletions', c.stats?.deletions],
    ['status', c.status],
    ['web_url', c.web_url],
    // One line per field when piped; in a terminal the message follows, indented as `git show` prints it.
    ...(io.stdoutIsTTY ? [] : [['message', c.message.replace(/\n+$/, '')] as [string, string]]),
  ])
  if (io.stdoutIsTTY) io.stdout.write(`\n${c.message.replace(/\n+$/, '').split('\n').map((line) => `    ${line}`.trimEnd()).join('\n')}\n`)
}
