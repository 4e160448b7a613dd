// collab issue participants <iid>: the author, assignees and commenters of an issue.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { participantColumns } from '../../src/cli/issuable/participants.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { onIssue } from './shared.js'

export interface ParticipantsOptions { project?: string; iid: number; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onIssue(group.command('participants').description('List the participants of an issue')))
    .action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export const toOptions = (iid: number, flags: OptionValues): ParticipantsOptions => ({ project: flags.project, iid, json: flags.json === true })

export async function run(options: ParticipantsOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('listIssueParticipants', { id: ref, issue_iid: options.iid }))
  if (options.json) return printRaw(deps.io, response.text)
  await printTable(deps.io, participantColumns(deps.io), parseJson<ResponseOf<'listIssueParticipants'>>(response))
}
