// collab issue view <iid>: one issue's main facts and description; its notes with --comments (as mr view and glab); its page in the browser with --web.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerView } from '../../src/cli/issuable/view.js'
import { stateStyle, timeText } from '../../src/cli/terminal.js'
import { ISSUE, type Issue } from './shared.js'

export const register = (group: Command, rt: Runtime) => registerView<Issue>(group, rt, ISSUE, (i, _target, { io }) => [
  ['iid', i.iid],
  ['title', i.title],
  ['state', stateStyle(io, i.state)],
  ['author', i.author.username],
  ['assignees', i.assignees.map((u) => u.username).join(',')],
  ['labels', i.labels.join(',')],
  ['milestone', i.milestone?.title],
  ['due_date', i.due_date],
  ['confidential', i.confidential],
  ['locked', i.discussion_locked],
  ['estimate', i.time_stats.human_time_estimate],
  ['spent', i.time_stats.human_total_time_spent],
  ['created_at', timeText(io, i.created_at)],
  ['closed_at', timeText(io, i.closed_at)],
  ['closed_by', i.closed_by?.username],
  ['web_url', i.web_url],
])
