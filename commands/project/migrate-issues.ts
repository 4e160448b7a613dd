// Issues with their iids (gaps stay gaps: each copy is created with its `iid`), labels, milestone, assignees, dates,
// time tracking, notes, award emoji and state.
import { route } from '../../src/client/paths.js'
import type { EndpointName } from '../../src/contract/routes.js'
import { at, count, eachItem, type Migration } from './migrate-context.js'
import { carried } from './migrate-uploads.js'
import { copyDiscussion, ITEM_PARAM, type NoteableKind } from './migrate-discussion.js'
import { authorHeader } from './migrate-people.js'
import { messageOf, statusOf } from './migrate-side.js'

interface SourceIssue {
  iid: number
  title: string
  description: string | null
  state: string
  created_at: string
  labels: string[]
  milestone: { id: number; title: string } | null
  assignees?: { username: string }[]
  author: { username: string }
  due_date: string | null
  confidential: boolean
  user_notes_count?: number
  discussion_locked: boolean | null
  time_stats?: { time_estimate: number; total_time_spent: number }
}

export async function copyIssues(m: Migration): Promise<void> {
  const all = await m.source.all<SourceIssue>(route('listProjectIssues', { id: m.from.id }), { state: 'all', order_by: 'created_at', sort: 'asc' })
  const issues = all.sort((a, b) => a.iid - b.iid)
  await eachItem(m, 'issue', 'issues', issues, (issue) => issue.iid, (issue) => createIssue(m, issue), async (issue, to) => {
    await copyTimeTracking(m, 'issue', issue, to)
    await copyDiscussion(m, { kind: 'issue', from: issue.iid, to, label: `issue #${issue.iid}`, userNotes: issue.user_notes_count })
    const edit = { state_event: issue.state === 'closed' ? 'close' : undefined, discussion_locked: issue.discussion_locked ? true : undefined }
    if (edit.state_event || edit.discussion_locked) await m.target.write(route('editProjectIssue', { id: m.to.id, issue_iid: to }), edit)
  })
  const renumbered = issues.filter((i) => (m.journal.get('issue', i.iid) ?? i.iid) !== i.iid).length
  if (renumbered > 0) m.tally.problems.push(`${renumbered} issues have another iid on the target: it did not take \`iid\` (an administrator's or the project owner's token keeps them)`)
}

async function createIssue(m: Migration, issue: SourceIssue): Promise<number> {
  const writer = await m.people.author(issue.author.username)
  const fields = {
    title: issue.title,
    description: (authorHeader(issue.author.username, writer.kept, issue.created_at, true) + (await carried(m, issue.description))) || undefined,
    iid: issue.iid,
    created_at: issue.created_at,
    labels: issue.labels.join(','),
    milestone_id: milestoneOf(m, issue.milestone),
    assignee_ids: await targetIds(m, issue.assignees ?? []),
    due_date: issue.due_date ?? undefined,
    confidential: issue.confidential || undefined,
  }
  let created: { iid: number }
  try {
    created = await m.target.write(route('createProjectIssue', { id: m.to.id }), fields, writer.sudo)
  } catch (err) {
    // The iid is taken: by this issue when a killed run created it and died before writing the journal.
    if (statusOf(err) !== 400 || !/iid/.test(messageOf(err))) throw err
    const there = await m.target.find<{ iid: number; title: string }>(route('getProjectIssue', { id: m.to.id, issue_iid: issue.iid }))
    if (there?.title !== issue.title) throw err
    m.journal.record('issue', issue.iid, there.iid)
    count(m.tally, 'already', 'issues')
    return there.iid
  }
  m.journal.record('issue', issue.iid, created.iid)
  count(m.tally, 'copied', 'issues')
  return created.iid
}

/** The target's copy of a project milestone; a group milestone of the source is named in the report. */
export function milestoneOf(m: Migration, milestone: { id: number; title: string } | null): number | undefined {
  if (!milestone) return undefined
  const id = m.milestones.get(milestone.id)
  if (id === undefined) m.tally.problems.push(`milestone ${milestone.title} is not the project's own (a group milestone?): not set on the copies`)
  return id
}

/** Target user ids of the source's users who exist there; the rest are named in the report. */
export async function targetIds(m: Migration, users: { username: string }[]): Promise<number[] | undefined> {
  if (users.length === 0) return undefined
  const ids: number[] = []
  for (const u of users) {
    const id = await m.people.userId(u.username)
    if (id === undefined) m.tally.problems.push(`${u.username} is not a user of the target: not assigned`)
    else ids.push(id)
  }
  return ids
}

const TIME_ROUTES: Record<Exclude<NoteableKind, 'snippet'>, { estimate: EndpointName; spent: EndpointName }> = {
  issue: { estimate: 'setIssueTimeEstimate', spent: 'addIssueSpentTime' },
  merge_request: { estimate: 'setMergeRequestTimeEstimate', spent: 'addMergeRequestSpentTime' },
}

/** The estimate is set (setting it twice is harmless); the time spent is added once, as one entry of the total. */
export async function copyTimeTracking(m: Migration, kind: 'issue' | 'merge_request', item: { iid: number; time_stats?: SourceIssue['time_stats'] }, to: number) {
  const stats = item.time_stats
  if (!stats) return
  const params = { id: m.to.id, [ITEM_PARAM[kind]]: to }
  if (stats.time_estimate > 0) await m.target.write(at(TIME_ROUTES[kind].estimate, params), { duration: `${stats.time_estimate}s` })
  const key = `${kind}:${item.iid}`
  if (stats.total_time_spent > 0 && !m.journal.has('spent', key)) {
    await m.target.write(at(TIME_ROUTES[kind].spent, params), { duration: `${stats.total_time_spent}s` })
    m.journal.record('spent', key, stats.total_time_spent)
  }
}
