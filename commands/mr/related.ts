// collab mr participants [mr] and collab mr closes-issues [mr]: the people of a merge request and the issues merging it closes.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { participantColumns } from '../../src/cli/issuable/participants.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { onMergeRequest, resolveMergeRequest } from './shared.js'

type ClosedIssue = ResponseOf<'listMergeRequestClosesIssues'>[number]

export interface RelatedOptions extends PageOptions { project?: string; mr?: string; json: boolean }

export const toOptions = (mr: string | undefined, flags: OptionValues): RelatedOptions => ({ project: flags.project, mr, ...pageOptions(flags), json: flags.json === true })

export async function participants(options: RelatedOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const page = await target.api.list(route('listMergeRequestParticipants', { id: target.ref, merge_request_iid: target.iid }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, participantColumns(deps.io), page.items)
}

/** An external tracker's issue has a string id and a title only. */
export async function closesIssues(options: RelatedOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const page = await target.api.list(route('listMergeRequestClosesIssues', { id: target.ref, merge_request_iid: target.iid }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable<ClosedIssue>(deps.io, [
    { header: 'IID', value: (i) => ('iid' in i ? `#${i.iid}` : i.id), style: (text) => deps.io.color.dim(text) },
    { header: 'STATE', value: (i) => ('state' in i ? i.state : '') },
    { header: 'TITLE', value: (i) => i.title, style: (text) => deps.io.color.bold(text) },
    { header: 'WEB_URL', value: (i) => ('web_url' in i ? i.web_url : '') },
  ], page.items)
}

export function register(group: Command, rt: Runtime): void {
  const verbs = [
    ['participants', 'List the author, assignees and commenters of a merge request', participants],
    ['closes-issues', 'List the issues that merging a merge request closes', closesIssues],
  ] as const
  for (const [name, description, run] of verbs) {
    const command = withJson(withPagination(onMergeRequest(group.command(name).description(description))))
    command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
  }
}
