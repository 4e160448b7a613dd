// Merge requests: created from the copied branches (a deleted or forked source branch comes back from the merge
// request's head for as long as the copy is written), then their time tracking, notes, awards and state. The API
// has no way to mark a merge request merged without merging it again, so a merged one is closed with a note that
// links the original; merge requests take new iids on the target (the API has no `iid` for them).
import { route } from '../../src/client/paths.js'
import { count, eachItem, type Migration } from './migrate-context.js'
import { carried } from './migrate-uploads.js'
import { copyDiscussion } from './migrate-discussion.js'
import type { RepositoryCopy } from './migrate-git.js'
import { copyTimeTracking, milestoneOf, targetIds } from './migrate-issues.js'
import { authorHeader } from './migrate-people.js'
import { messageOf, statusOf } from './migrate-side.js'

interface SourceMergeRequest {
  iid: number
  title: string
  description: string | null
  state: string
  created_at: string
  source_branch: string
  target_branch: string
  source_project_id: number
  project_id: number
  sha: string | null
  labels: string[]
  milestone: { id: number; title: string } | null
  assignees?: { username: string }[]
  reviewers?: { username: string }[]
  author: { username: string }
  merged_by?: { username: string } | null
  merge_user?: { username: string } | null
  merged_at?: string | null
  merge_commit_sha?: string | null
  squash_commit_sha?: string | null
  web_url: string
  user_notes_count?: number
  time_stats?: { time_estimate: number; total_time_spent: number }
}

export async function copyMergeRequests(m: Migration, repo: RepositoryCopy): Promise<void> {
  const all = await m.source.all<SourceMergeRequest>(route('listProjectMergeRequests', { id: m.from.id }), { state: 'all', order_by: 'created_at', sort: 'asc' })
  const mrs = all.sort((a, b) => a.iid - b.iid)
  // One push brings back every source branch the pending merge requests need.
  const pending = mrs.filter((mr) => !m.journal.has('done', `merge_request:${mr.iid}`))
  const restore = pending.filter((mr) => !m.journal.has('merge_request', mr.iid) && !m.journal.has('branch', mr.iid) && needsRestore(mr, repo) && mr.sha)
  if (restore.length > 0) {
    const names = new Set<string>()
    const wanted = restore.map((mr) => {
      // Two merge requests from one deleted branch, or a fork's: each gets a branch named after it.
      const plain = mr.source_project_id === mr.project_id && !names.has(mr.source_branch)
      const branch = plain ? mr.source_branch : `migrated/mr-${mr.iid}/${mr.source_branch}`
      names.add(branch)
      return { iid: mr.iid, sha: mr.sha!, branch }
    })
    const failed = await repo.pushBranches(wanted)
    for (const w of wanted) if (!failed.has(w.branch)) m.journal.record('branch', w.iid, w.branch)
  }
  await eachItem(m, 'merge_request', 'merge requests', mrs, (mr) => mr.iid, (mr) => createMergeRequest(m, mr, repo), async (mr, to) => {
    await copyTimeTracking(m, 'merge_request', mr, to)
    await copyDiscussion(m, { kind: 'merge_request', from: mr.iid, to, label: `merge request !${mr.iid}`, userNotes: mr.user_notes_count })
    if (mr.state === 'merged') await noteMerged(m, mr, to)
    if (mr.state !== 'opened') await m.target.write(route('updateProjectMergeRequest', { id: m.to.id, merge_request_iid: to }), { state_event: 'close' })
    const branch = m.journal.get('branch', mr.iid) as string | undefined
    // A branch brought back for a closed copy goes again; an open one keeps it, or it could never merge.
    if (branch !== undefined && mr.state !== 'opened') await m.target.find(route('deleteBranch', { id: m.to.id, branch }))
  })
  const renumbered = mrs.filter((mr) => (m.journal.get('merge_request', mr.iid) ?? mr.iid) !== mr.iid).length
  if (renumbered > 0) m.tally.problems.push(`${renumbered} merge requests have another iid on the target (the API sets no merge request iid)`)
}

/** Whether the merge request's source branch must be brought back from its head: deleted since, or in a fork. */
const needsRestore = (mr: SourceMergeRequest, repo: RepositoryCopy) => mr.source_project_id !== mr.project_id || !repo.branches.has(mr.source_branch)

async function createMergeRequest(m: Migration, mr: SourceMergeRequest, repo: RepositoryCopy): Promise<number | undefined> {
  const branch = (m.journal.get('branch', mr.iid) as string | undefined) ?? mr.source_branch
  if (!repo.branches.has(mr.target_branch)) {
    m.tally.problems.push(`merge request !${mr.iid}: its target branch ${mr.target_branch} no longer exists`)
    return undefined
  }
  if (needsRestore(mr, repo) && !m.journal.has('branch', mr.iid)) {
    m.tally.problems.push(`merge request !${mr.iid}: its source branch ${mr.source_branch} is gone and its head could not be copied`)
    return undefined
  }
  const writer = await m.people.author(mr.author.username)
  const fields = {
    title: mr.title,
    description: authorHeader(mr.author.username, writer.kept, mr.created_at, false) + (await carried(m, mr.description)),
    source_branch: branch,
    target_branch: mr.target_branch,
    labels: mr.labels.join(','),
    milestone_id: milestoneOf(m, mr.milestone),
    assignee_ids: await targetIds(m, mr.assignees ?? []),
    reviewer_ids: await targetIds(m, mr.reviewers ?? []),
  }
  let created: { iid: number }
  try {
    created = await m.target.write(route('createProjectMergeRequest', { id: m.to.id }), fields, writer.sudo)
  } catch (err) {
    const status = statusOf(err)
    if (status === undefined || status >= 500) throw err
    // 409: an open copy exists already, created by a run killed before it wrote the journal.
    const twin = status === 409 ? await openTwin(m, branch, mr) : undefined
    if (twin === undefined) {
      m.tally.problems.push(`merge request !${mr.iid}: ${messageOf(err)}`)
      return undefined
    }
    m.journal.record('merge_request', mr.iid, twin)
    count(m.tally, 'already', 'merge requests')
    return twin
  }
  m.journal.record('merge_request', mr.iid, created.iid)
  count(m.tally, 'copied', 'merge requests')
  return created.iid
}

async function openTwin(m: Migration, branch: string, mr: SourceMergeRequest): Promise<number | undefined> {
  const open = await m.target.get<{ iid: number; title: string }[]>(route('listProjectMergeRequests', { id: m.to.id }), { state: 'opened', source_branch: branch, target_branch: mr.target_branch })
  return open.find((o) => o.title === mr.title)?.iid
}

async function noteMerged(m: Migration, mr: SourceMergeRequest, to: number) {
  const key = `merged:${mr.iid}`
  if (m.journal.has('note', key)) return
  const by = mr.merged_by?.username ?? mr.merge_user?.username
  const commit = mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.sha
  const body = `*Merged in the original project${by ? ` by ${by}` : ''}${mr.merged_at ? ` at ${mr.merged_at}` : ''}: ${mr.web_url}*` +
    (commit ? `\n\nMerge commit: ${commit}` : '')
  const note = await m.target.write<{ id: number }>(route('createMergeRequestNote', { id: m.to.id, merge_request_iid: to }), { body })
  m.journal.record('note', key, note.id)
}
