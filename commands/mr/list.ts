// collab mr list: merge requests of a project (or a group, or every project with --instance), with the API's filters one to one.
import { Option, type Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { fullReference, registerList } from '../../src/cli/issuable/list.js'
import { stateStyle } from '../../src/cli/terminal.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { completeWith } from '../complete.js'

type ListedMergeRequest = ResponseOf<'listProjectMergeRequests'>[number]

/** A merge request in a list: the basic form, or with `view=simple` the simple one (no branches, no people). */
const basic = (m: ListedMergeRequest) => ('source_branch' in m ? m : undefined)

export const register = (group: Command, rt: Runtime) => registerList<ListedMergeRequest>(group, rt, {
  plural: 'merge requests',
  none: ['None', 'None'],
  states: ['opened', 'closed', 'locked', 'merged', 'all'],
  before: (command) => command
    .option('--reviewer-id <id>', 'only merge requests with this reviewer id, or None / Any')
    .option('--reviewer <username>', 'only merge requests with this reviewer username')
    .addOption(completeWith(new Option('--source-branch <branch>', 'only merge requests from this branch'), 'branches'))
    .addOption(completeWith(new Option('--target-branch <branch>', 'only merge requests into this branch'), 'branches'))
    .option('--draft', 'only drafts (wip=yes)')
    .option('--no-draft', 'only merge requests that are not drafts (wip=no)')
    .option('--simple', 'ask for the simple form (view=simple): iid, title, state and URL only'),
  query: (flags, shared) => ({
    state: flags.state ?? 'opened',
    ...shared,
    reviewer_id: flags.reviewerId,
    reviewer_username: flags.reviewer,
    source_branch: flags.sourceBranch,
    target_branch: flags.targetBranch,
    wip: flags.draft === undefined ? undefined : flags.draft ? 'yes' : 'no',
    view: flags.simple ? 'simple' : undefined,
  }),
  /** `spansProjects`: a group or instance list, whose rows name their project (`group/proj!4`). */
  columns: ({ io }, spansProjects) => [
    { header: 'IID', value: (m) => (spansProjects ? fullReference(m.web_url, '!', m.iid) : `!${m.iid}`), style: (text) => io.color.dim(text) },
    { header: 'STATE', value: (m) => (basic(m)?.draft && m.state === 'opened' ? 'draft' : m.state), style: (text) => stateStyle(io, text) },
    { header: 'TITLE', value: (m) => m.title, style: (text) => io.color.bold(text), flex: true },
    { header: 'BRANCHES', value: (m) => (basic(m) ? `${basic(m)!.source_branch} -> ${basic(m)!.target_branch}` : '') },
    { header: 'LABELS', value: (m) => basic(m)?.labels.join(',') },
    { header: 'ASSIGNEES', value: (m) => basic(m)?.assignees.map((u) => u.username).join(',') },
    { header: 'UPDATED', value: (m) => ('updated_at' in m ? m.updated_at : undefined), time: true, style: (text) => io.color.dim(text) },
  ],
  routes: {
    instance: route('listMergeRequests', {}),
    group: (id) => route('listGroupMergeRequests', { id }),
    project: (ref) => route('listProjectMergeRequests', { id: ref }),
  },
})
