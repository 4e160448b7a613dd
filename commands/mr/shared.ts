// What the mr verbs share: the contract's merge request types, list columns, and the `[mr]` argument (an iid, a source
// branch or a URL; the current git branch when left out) resolved to a project and an iid.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { stateStyle } from '../../src/cli/terminal.js'
import { fullReference } from '../issue/shared.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { completeWith } from '../complete.js'
import { currentBranch } from './git.js'

export type MergeRequest = ResponseOf<'getProjectMergeRequest'>
export type ListedMergeRequest = ResponseOf<'listProjectMergeRequests'>[number]

/** A merge request in a list: the basic form, or with `view=simple` the simple one (no branches, no people). */
const basic = (m: ListedMergeRequest) => ('source_branch' in m ? m : undefined)

/** `spansProjects`: a group or instance list, whose rows name their project (`group/proj!4`). */
export const mrColumns = (io: IO, spansProjects = false): Column<ListedMergeRequest>[] => [
  { header: 'IID', value: (m) => (spansProjects ? fullReference(m.web_url, '!', m.iid) : `!${m.iid}`), style: (text) => io.color.dim(text) },
  { header: 'STATE', value: (m) => (basic(m)?.draft && m.state === 'opened' ? 'draft' : m.state), style: (text) => stateStyle(io, text) },
  { header: 'TITLE', value: (m) => m.title, style: (text) => io.color.bold(text), flex: true },
  { header: 'BRANCHES', value: (m) => (basic(m) ? `${basic(m)!.source_branch} -> ${basic(m)!.target_branch}` : '') },
  { header: 'LABELS', value: (m) => basic(m)?.labels.join(',') },
  { header: 'ASSIGNEES', value: (m) => basic(m)?.assignees.map((u) => u.username).join(',') },
  { header: 'UPDATED', value: (m) => ('updated_at' in m ? m.updated_at : undefined), time: true, style: (text) => io.color.dim(text) },
]

/** `[mr]` plus -p, --host, --token: a verb on one merge request. */
export function onMergeRequest(command: Command): Command {
  command.argument('[mr]', 'the merge request: !iid, iid, source branch or URL (default: the current git branch)')
  completeWith(command.registeredArguments[command.registeredArguments.length - 1], 'merge-requests')
  return withProject(withConnection(command))
}

export interface MergeRequestTarget {
  api: ApiClient
  /** The target project's id or path, not encoded. */
  ref: string
  iid: number
}

/** `http://host/group/project/-/merge_requests/5(/diffs…)` */
const MR_URL = /^(https?:\/\/.+?)\/-\/merge_requests\/(\d+)(?:[/?#].*)?$/i

/** The project and iid a `[mr]` argument names; a branch is looked up among the project's merge requests. */
export async function resolveMergeRequest(deps: Deps, project: string | undefined, mr: string | undefined): Promise<MergeRequestTarget> {
  const url = mr === undefined ? undefined : MR_URL.exec(mr.trim())
  if (url) {
    const target = await deps.project(project ?? url[1])
    return { ...target, iid: Number(url[2]) }
  }
  const target = await deps.project(project)
  const number = mr === undefined ? undefined : /^[!#]?(\d+)$/.exec(mr.trim())
  if (number) return { ...target, iid: Number(number[1]) }
  const branch = mr ?? (await currentBranch(deps.io))
  if (branch === undefined) throw usageError('no merge request given, and the current directory is not on a git branch', 'pass an iid, a source branch or a URL')
  return { ...target, iid: await iidOfBranch(target.api, target.ref, branch) }
}

/** The open merge request from `branch`, else the newest one in any state (GitLab allows one open per source branch). */
async function iidOfBranch(api: ApiClient, ref: string, branch: string): Promise<number> {
  for (const state of ['opened', 'all']) {
    const page = await api.list(route('listProjectMergeRequests', { id: ref }), { source_branch: branch, state, view: 'simple', per_page: 1 })
    if (page.items.length > 0) return page.items[0].iid
  }
  throw failure(`no merge request has the source branch '${branch}' in ${ref}`, "see 'collab mr list'")
}

/** `!5`, and with a project `root/demo!5`, as GitLab references merge requests. */
export const reference = (target: MergeRequestTarget) => `!${target.iid} in ${target.ref}`
