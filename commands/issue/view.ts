// collab issue view <iid>: one issue's main facts and description; its notes with --comments (as mr view and glab); its page in the browser with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printNotes } from '../../src/cli/notes.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { stateStyle, timeText } from '../../src/cli/terminal.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onIssue, type Issue } from './shared.js'

export interface ViewOptions { project?: string; iid: number; comments: boolean; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onIssue(group.command('view').alias('show').description('Show an issue, and its notes with --comments')))
    .option('-c, --comments', 'also print the notes, oldest first')
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
    .action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export const toOptions = (iid: number, flags: OptionValues): ViewOptions => ({
  project: flags.project, iid, comments: flags.comments === true, web: flags.web === true, json: flags.json === true,
})

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getProjectIssue', { id: ref, issue_iid: options.iid }))
  if (options.json) return printRaw(deps.io, response.text)
  const i = parseJson<Issue>(response)
  if (options.web) return openInBrowser(deps.io, i.web_url)
  const notes = options.comments
    ? await api.list(route('listIssueNotes', { id: ref, issue_iid: options.iid }), { sort: 'asc', per_page: 100 }, { all: true })
    : undefined
  printFields(deps.io, [
    ['iid', i.iid],
    ['title', i.title],
    ['state', stateStyle(deps.io, i.state)],
    ['author', i.author.username],
    ['assignees', i.assignees.map((u) => u.username).join(',')],
    ['labels', i.labels.join(',')],
    ['milestone', i.milestone?.title],
    ['due_date', i.due_date],
    ['confidential', i.confidential],
    ['locked', i.discussion_locked],
    ['estimate', i.time_stats.human_time_estimate],
    ['spent', i.time_stats.human_total_time_spent],
    ['created_at', timeText(deps.io, i.created_at)],
    ['closed_at', timeText(deps.io, i.closed_at)],
    ['closed_by', i.closed_by?.username],
    ['web_url', i.web_url],
  ], i.description, notes && (() => printNotes(deps.io, notes.items)))
}
