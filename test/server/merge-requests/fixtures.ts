// Merge request fixtures: a project with a master branch and feature branches made through the commits API.
import { expectStatus, type Api } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'

/** A branch off master with one commit adding `file`; returns the commit. */
export const branchWith = (as: Api, projectId: number, branch: string, file: string, content = `${file}\n`, message = `Add ${file}`) =>
  commit(as, projectId, { branch, start_branch: 'master', commit_message: message, actions: [create(file, content)] })

export async function seedMaster(as: Api, projectId: number) {
  return commit(as, projectId, { branch: 'master', commit_message: 'Initial commit', actions: [create('README.md', '# demo\n')] })
}

export async function openMergeRequest(as: Api, projectId: number, input: Record<string, unknown>): Promise<any> {
  return expectStatus(await as.post(`/projects/${projectId}/merge_requests`, { target_branch: 'master', ...input }), 201).body
}

export const mrPath = (projectId: number, iid: number, rest = '') => `/projects/${projectId}/merge_requests/${iid}${rest}`

export const noTime = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null }

/** The single form of a fresh, open, mergeable merge request with nothing set but what `over` names. */
export function expectedSingle(server: { url: string }, over: Record<string, unknown> & { id: number; iid: number; project: any; author: any; at: string }) {
  const { project, author, at, id, iid, ...rest } = over
  const path = project.path_with_namespace
  return {
    id, iid, project_id: project.id, title: 'Feature', description: null, state: 'opened', created_at: at, updated_at: at,
    merged_by: null, merge_user: null, merged_at: null, closed_by: null, closed_at: null, target_branch: 'master', source_branch: 'feature',
    user_notes_count: 0, upvotes: 0, downvotes: 0, author, assignees: [], assignee: null, reviewers: [],
    source_project_id: project.id, target_project_id: project.id, labels: [], draft: false, imported: false, imported_from: 'none',
    work_in_progress: false, milestone: null, merge_when_pipeline_succeeds: false, merge_status: 'can_be_merged',
    detailed_merge_status: 'mergeable', sha: '', merge_commit_sha: null, squash_commit_sha: null, discussion_locked: null,
    should_remove_source_branch: null, force_remove_source_branch: false, prepared_at: at, reference: `!${iid}`,
    references: { short: `!${iid}`, relative: `!${iid}`, full: `${path}!${iid}` },
    web_url: `${server.url}/${path}/-/merge_requests/${iid}`, time_stats: noTime, squash: false, squash_on_merge: false,
    task_completion_status: { count: 0, completed_count: 0 }, has_conflicts: false, blocking_discussions_resolved: true,
    allow_collaboration: false, allow_maintainer_to_push: false, subscribed: true, changes_count: '1', latest_build_started_at: null, latest_build_finished_at: null,
    first_deployed_to_production_at: null, pipeline: null, head_pipeline: null, diff_refs: null, merge_error: null,
    first_contribution: true, user: { can_merge: true },
    ...rest,
  }
}
