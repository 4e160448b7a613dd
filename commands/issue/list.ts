// collab issue list: issues of a project (or a group, or every project with --instance), with the API's filters one to one.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { fullReference, registerList } from '../../src/cli/issuable/list.js'
import { stateStyle } from '../../src/cli/terminal.js'
import { route } from '../../src/client/paths.js'
import type { Issue } from './shared.js'

export const register = (group: Command, rt: Runtime) => registerList<Issue>(group, rt, {
  plural: 'issues',
  none: ['No Label', 'No Milestone'],
  states: ['opened', 'closed', 'all'],
  before: (command) => command.option('-c, --closed', 'only closed issues (--state closed)'),
  after: (command) => command
    .option('--confidential', 'only confidential issues')
    .option('--no-confidential', 'only issues that are not confidential'),
  query: (flags, shared) => ({ state: flags.state ?? (flags.closed ? 'closed' : 'opened'), ...shared, confidential: flags.confidential }),
  columns: ({ io }, spansProjects) => [
    { header: 'IID', value: (i) => (spansProjects ? fullReference(i.web_url, '#', i.iid) : `#${i.iid}`), style: (text) => io.color.dim(text) },
    { header: 'STATE', value: (i) => i.state, style: (text) => stateStyle(io, text) },
    { header: 'TITLE', value: (i) => i.title, style: (text) => io.color.bold(text), flex: true },
    { header: 'LABELS', value: (i) => i.labels.join(',') },
    { header: 'ASSIGNEES', value: (i) => i.assignees.map((u) => u.username).join(',') },
    { header: 'UPDATED', value: (i) => i.updated_at, time: true, style: (text) => io.color.dim(text) },
  ],
  routes: {
    instance: route('listIssues', {}),
    group: (id) => route('listGroupIssues', { id }),
    project: (ref) => route('listProjectIssues', { id: ref }),
  },
})
