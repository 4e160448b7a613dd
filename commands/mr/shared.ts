// Merge requests as the mr verbs and the shared issuable verbs (src/cli/issuable) see them: the contract's types, and
// the `[mr]` argument (an iid, a source branch or a URL; the current git branch when left out) resolved to a project
// and an iid.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reference as issuableReference, type IssuableKind } from '../../src/cli/issuable/kind.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { completeWith } from '../complete.js'
import { currentBranch } from './git.js'

export type MergeRequest = ResponseOf<'getProjectMergeRequest'>
export type ListedMergeRequest = ResponseOf<'listProjectMergeRequests'>[number]

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

export const MERGE_REQUEST: IssuableKind = {
  noun: 'merge request',
  a: 'a merge request',
  sigil: '!',
  argKey: 'mr',
  iidParam: 'merge_request_iid',
  on: onMergeRequest,
  targetFirst: false,
  resolve: (deps, options) => resolveMergeRequest(deps, options.project, options.mr),
  endpoints: {
    get: 'getProjectMergeRequest',
    update: 'updateProjectMergeRequest',
    delete: 'deleteProjectMergeRequest',
    subscribe: 'subscribeToMergeRequest',
    unsubscribe: 'unsubscribeFromMergeRequest',
    todo: 'createMergeRequestTodo',
    notes: { list: 'listMergeRequestNotes', create: 'createMergeRequestNote', edit: 'editMergeRequestNote', delete: 'deleteMergeRequestNote' },
    time: {
      estimate: 'setMergeRequestTimeEstimate', spend: 'addMergeRequestSpentTime', 'reset-estimate': 'resetMergeRequestTimeEstimate',
      'reset-spent': 'resetMergeRequestSpentTime', stats: 'getMergeRequestTimeStats',
    },
  },
  spendSummary: true,
}

/** `!5 in root/demo`. */
export const reference = (target: MergeRequestTarget) => issuableReference(MERGE_REQUEST, target)
