// collab issue participants <iid>: the author, assignees and commenters of an issue.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { issuePath, onIssue } from './shared.js'

interface User { id: number; username: string; name: string }

export interface ParticipantsOptions { project?: string; iid: number; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onIssue(group.command('participants').description('List the participants of an issue')))
    .action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export const toOptions = (iid: number, flags: OptionValues): ParticipantsOptions => ({ project: flags.project, iid, json: flags.json === true })

export async function run(options: ParticipantsOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.request('GET', issuePath(ref, options.iid, 'participants'))
  if (options.json) return printRaw(deps.io, response.text)
  await printTable<User>(deps.io, [
    { header: 'ID', value: (u) => u.id, style: (text) => deps.io.color.dim(text) },
    { header: 'USERNAME', value: (u) => u.username, style: (text) => deps.io.color.bold(text) },
    { header: 'NAME', value: (u) => u.name },
  ], parseJson<User[]>(response))
}
