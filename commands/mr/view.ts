// collab mr view [mr]: one merge request's main facts and description; its notes with --comments; its page in the browser with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printNotes } from '../../src/cli/notes.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { stateStyle, timeText } from '../../src/cli/terminal.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { onMergeRequest, resolveMergeRequest, type MergeRequest } from './shared.js'

export interface ViewOptions { project?: string; mr?: string; comments: boolean; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onMergeRequest(group.command('view').alias('show').description('Show a merge request, and its notes with --comments')))
    .option('-c, --comments', 'also print the notes, oldest first')
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): ViewOptions => ({
  project: flags.project, mr, comments: flags.comments === true, web: flags.web === true, json: flags.json === true,
})

/** Who approved, when the server has the approvals API (GitLab CE before 13.2 and some servers answer 404: nothing shown). */
async function approvedBy(api: ApiClient, ref: string, iid: number): Promise<string | undefined> {
  const response = await api.call(route('getMergeRequestApprovals', { id: ref, merge_request_iid: iid }), { throwOnError: false })
  if (response.status !== 200) return undefined
  return parseJson<ResponseOf<'getMergeRequestApprovals'>>(response).approved_by.map((a) => a.user.username).join(',')
}

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const { api, ref, iid } = target
  const response = await api.call(route('getProjectMergeRequest', { id: ref, merge_request_iid: iid }))
  if (options.json) return printRaw(deps.io, response.text)
  const m = parseJson<MergeRequest>(response)
  if (options.web) return openInBrowser(deps.io, m.web_url)
  const approvers = await approvedBy(api, ref, iid)
  const notes = options.comments
    ? await api.list(route('listMergeRequestNotes', { id: ref, merge_request_iid: iid }), { sort: 'asc', per_page: 100 }, { all: true })
    : undefined
  printFields(deps.io, [
    ['iid', m.iid],
    ['title', m.title],
    ['state', stateStyle(deps.io, m.state)],
    ['draft', m.draft],
    ['author', m.author.username],
    ['source_branch', m.source_branch],
    ['target_branch', m.target_branch],
    ['merge_status', m.merge_status],
    ['detailed_merge_status', m.detailed_merge_status],
    ['pipeline', (m.head_pipeline ?? m.pipeline)?.status],
    ['assignees', m.assignees.map((u) => u.username).join(',')],
    ['reviewers', m.reviewers.map((u) => u.username).join(',')],
    ['approved_by', approvers],
    ['labels', m.labels.join(',')],
    ['milestone', m.milestone?.title],
    ['squash', m.squash],
    ['remove_source_branch', m.force_remove_source_branch],
    ['changes', m.changes_count],
    ['created_at', timeText(deps.io, m.created_at)],
    ['merged_by', m.merged_by?.username],
    ['merged_at', timeText(deps.io, m.merged_at)],
    ['closed_at', timeText(deps.io, m.closed_at)],
    ['web_url', m.web_url],
  ], m.description, notes && (() => printNotes(deps.io, notes.items)))
}
