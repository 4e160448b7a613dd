// collab mr view [mr]: one merge request's main facts and description; its notes with --comments; its page in the browser with --web.
import type { Command } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { registerView } from '../../src/cli/issuable/view.js'
import { stateStyle, timeText } from '../../src/cli/terminal.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { MERGE_REQUEST, type MergeRequest } from './shared.js'

/** Who approved, when the server has the approvals API (GitLab CE before 13.2 and some servers answer 404: nothing shown). */
async function approvedBy(api: ApiClient, ref: string, iid: number): Promise<string | undefined> {
  const response = await api.call(route('getMergeRequestApprovals', { id: ref, merge_request_iid: iid }), { throwOnError: false })
  if (response.status !== 200) return undefined
  return parseJson<ResponseOf<'getMergeRequestApprovals'>>(response).approved_by.map((a) => a.user.username).join(',')
}

export const register = (group: Command, rt: Runtime) => registerView<MergeRequest>(group, rt, MERGE_REQUEST, async (m, { api, ref, iid }, { io }) => [
  ['iid', m.iid],
  ['title', m.title],
  ['state', stateStyle(io, m.state)],
  ['draft', m.draft],
  ['author', m.author.username],
  ['source_branch', m.source_branch],
  ['target_branch', m.target_branch],
  ['merge_status', m.merge_status],
  ['detailed_merge_status', m.detailed_merge_status],
  ['pipeline', (m.head_pipeline ?? m.pipeline)?.status],
  ['assignees', m.assignees.map((u) => u.username).join(',')],
  ['reviewers', m.reviewers.map((u) => u.username).join(',')],
  ['approved_by', await approvedBy(api, ref, iid)],
  ['labels', m.labels.join(',')],
  ['milestone', m.milestone?.title],
  ['squash', m.squash],
  ['remove_source_branch', m.force_remove_source_branch],
  ['changes', m.changes_count],
  ['created_at', timeText(io, m.created_at)],
  ['merged_by', m.merged_by?.username],
  ['merged_at', timeText(io, m.merged_at)],
  ['closed_at', timeText(io, m.closed_at)],
  ['web_url', m.web_url],
])
