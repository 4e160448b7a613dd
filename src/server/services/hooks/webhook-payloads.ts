// GitLab's webhook payloads for issues, notes, merge requests and wiki pages (docs: user/project/integrations/webhook_events),
// built from the stored rows after the write committed.
import { userAvatarUrl } from '../../../core/avatar-url.js'
import { ciBaseUrl } from '../../ci/lifecycle-events.js'
import type { AppDeps } from '../../context.js'
import { readCommitInfo } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import { findIssueById, type IssueRow } from '../../store/issues.js'
import { findLabelById } from '../../store/labels.js'
import { authorMergedBefore, findMergeRequestById, sourceProjectOf, type MergeRequestRow } from '../../store/merge-requests.js'
import { assigneeIdsOf, labelIdsOf, type NoteableKind } from '../../store/noteables.js'
import { commitShaOf } from '../../store/discussions.js'
import { findNote } from '../../store/notes.js'
import { headPipeline } from '../../store/pipelines.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { findUserById, type UserRow } from '../../store/users.js'
import { blockedByDiscussions } from '../issuables/discussions.js'
import { detailedStatus, isDraft } from '../merge-requests/merge-requests.js'
import type { HookEvent, WebhookEvent } from './webhook-events.js'

const VISIBILITY_LEVEL = { private: 0, internal: 10, public: 20 } as const

/** A user's avatar_url in a payload: the one rule the API's presenters follow, under the server's base URL. */
export const hookAvatarUrl = (app: AppDeps, u: Pick<UserRow, 'id' | 'avatar_path'>) => userAvatarUrl(ciBaseUrl(app), u)

/** GitLab 17 keeps e-mail addresses out of hook payloads. */
export const hookUser = (app: AppDeps, u: UserRow | undefined) => u
  ? { id: u.id, name: u.name, username: u.username, avatar_url: hookAvatarUrl(app, u), email: '[REDACTED]' }
  : null

export function projectUrls(app: AppDeps, p: ProjectView) {
  const base = ciBaseUrl(app)
  const web = `${base}/${p.ns_full_path}/${p.path}`
  const host = new URL(base).hostname
  return { web, http: `${web}.git`, ssh: `git@${host}:${p.ns_full_path}/${p.path}.git` }
}

export function hookProject(app: AppDeps, p: ProjectView) {
  const u = projectUrls(app, p)
  return {
    id: p.id, name: p.name, description: p.description, web_url: u.web, avatar_url: null, git_ssh_url: u.ssh, git_http_url: u.http,
    namespace: p.ns_name, visibility_level: VISIBILITY_LEVEL[p.visibility], path_with_namespace: `${p.ns_full_path}/${p.path}`,
    default_branch: p.default_branch, ci_config_path: p.ci_config_path, homepage: u.web, url: u.ssh, ssh_url: u.ssh, http_url: u.http,
  }
}

export function hookRepository(app: AppDeps, p: ProjectView) {
  const u = projectUrls(app, p)
  return { name: p.name, url: u.ssh, description: p.description, homepage: u.web, git_http_url: u.http, git_ssh_url: u.ssh, visibility_level: VISIBILITY_LEVEL[p.visibility] }
}

function hookLabels(app: AppDeps, projectId: number, noteableId: number) {
  return labelIdsOf(app.db, noteableId).map((id) => findLabelById(app.db, projectId, id)).filter((l) => l !== undefined).map((l) => ({
    id: l.id, title: l.name, color: l.color, project_id: l.project_id, created_at: l.created_at, updated_at: l.updated_at,
    template: false, description: l.description, type: l.group_id !== null ? 'GroupLabel' : 'ProjectLabel', group_id: l.group_id,
  }))
}

const usersOf = (app: AppDeps, ids: number[]) => ids.map((id) => hookUser(app, findUserById(app.db, id))).filter((u) => u !== null)

function issueAttributes(app: AppDeps, p: ProjectView, i: IssueRow) {
  const assignees = assigneeIdsOf(app.db, [i.id]).get(i.id) ?? []
  return {
    author_id: i.author_id, closed_at: i.closed_at, confidential: i.confidential === 1, created_at: i.created_at, description: i.description,
    discussion_locked: i.discussion_locked === 1, due_date: i.due_date, id: i.id, iid: i.iid, last_edited_at: null, last_edited_by_id: null,
    milestone_id: i.milestone_id, moved_to_id: i.moved_to_id, duplicated_to_id: null, project_id: i.project_id, relative_position: null,
    state_id: i.state === 'opened' ? 1 : 2, time_estimate: i.time_estimate, title: i.title, updated_at: i.updated_at, updated_by_id: null,
    type: 'Issue', url: `${projectUrls(app, p).web}/-/issues/${i.iid}`, total_time_spent: i.total_time_spent, time_change: 0,
    assignee_ids: assignees, assignee_id: assignees[0] ?? null, labels: hookLabels(app, p.id, i.id), state: i.state,
    severity: 'unknown',
  }
}

function mergeRequestAttributes(app: AppDeps, p: ProjectView, m: MergeRequestRow) {
  const assignees = assigneeIdsOf(app.db, [m.id]).get(m.id) ?? []
  // GitLab's source_project.try(:hook_attrs): null once the fork is deleted; its head is still in the target.
  const source = sourceProjectOf(app.db, m)
  const blocked = blockedByDiscussions({ app }, [m]).has(m.id)
  return {
    assignee_id: assignees[0] ?? null, author_id: m.author_id, created_at: m.created_at, description: m.description,
    draft: isDraft(m.title), head_pipeline_id: headPipeline(app.db, m)?.id ?? null, id: m.id, iid: m.iid,
    merge_commit_sha: m.merge_commit_sha, merge_error: m.merge_error, merge_status: m.merge_status, merge_user_id: m.merge_user_id,
    merge_when_pipeline_succeeds: m.merge_when_pipeline_succeeds === 1, milestone_id: m.milestone_id, source_branch: m.source_branch,
    source_project_id: m.source_project_id, state_id: { opened: 1, closed: 2, merged: 3, locked: 4 }[m.state as string] ?? 1,
    target_branch: m.target_branch, target_project_id: m.project_id, time_estimate: m.time_estimate, title: m.title, updated_at: m.updated_at,
    url: `${projectUrls(app, p).web}/-/merge_requests/${m.iid}`, source: source ? hookProject(app, source) : null, target: hookProject(app, p),
    last_commit: m.source_sha ? { id: m.source_sha, url: `${projectUrls(app, source ?? p).web}/-/commit/${m.source_sha}` } : null,
    total_time_spent: m.total_time_spent, assignee_ids: assignees, reviewer_ids: [], labels: hookLabels(app, p.id, m.id), state: m.state,
    blocking_discussions_resolved: !blocked, first_contribution: !authorMergedBefore(app.db, m), detailed_merge_status: detailedStatus(m, blocked),
  }
}

export interface BuiltPayload { payload: Record<string, unknown>; confidential: boolean; project: ProjectView }

function issuePayload(app: AppDeps, p: ProjectView, e: Extract<HookEvent, { kind: 'issue' }>): BuiltPayload | null {
  const issue = findIssueById(app.db, e.issueId)
  if (!issue) return null
  const confidential = issue.confidential === 1
  const attrs = issueAttributes(app, p, issue)
  return {
    confidential, project: p, payload: {
      object_kind: 'issue', event_type: confidential ? 'confidential_issue' : 'issue', user: hookUser(app, findUserById(app.db, e.userId)),
      project: hookProject(app, p), object_attributes: { ...attrs, action: e.action }, labels: attrs.labels, changes: e.changes ?? {},
      repository: hookRepository(app, p), assignees: usersOf(app, attrs.assignee_ids),
    },
  }
}

function mergeRequestPayload(app: AppDeps, p: ProjectView, e: Extract<HookEvent, { kind: 'merge_request' }>): BuiltPayload | null {
  const mr = findMergeRequestById(app.db, e.mergeRequestId)
  if (!mr) return null
  const attrs = mergeRequestAttributes(app, p, mr)
  return {
    confidential: false, project: p, payload: {
      object_kind: 'merge_request', event_type: 'merge_request', user: hookUser(app, findUserById(app.db, e.userId)), project: hookProject(app, p),
      object_attributes: { ...attrs, action: e.action }, labels: attrs.labels, changes: {}, repository: hookRepository(app, p),
      assignees: usersOf(app, attrs.assignee_ids), reviewers: [],
    },
  }
}

const NOTEABLE_PATH: Partial<Record<NoteableKind, string>> = { Issue: 'issues', MergeRequest: 'merge_requests', Snippet: 'snippets', Commit: 'commit' }

/** A commit note's commit, as GitLab's note hook shows it; null when the commit cannot be read. */
async function commitAttributes(app: AppDeps, p: ProjectView, noteableId: number) {
  const sha = commitShaOf(app.db, noteableId)
  const c = sha ? await readCommitInfo(repositoryDir(app.layout.repositories, p.id), sha).catch(() => null) : null
  if (!c) return null
  return {
    id: c.id, title: c.message.split('\n')[0], message: c.message, timestamp: c.authoredDate,
    url: `${projectUrls(app, p).web}/-/commit/${c.id}`, author: { name: c.authorName, email: c.authorEmail },
  }
}

async function notePayload(app: AppDeps, p: ProjectView, e: Extract<HookEvent, { kind: 'note' }>): Promise<BuiltPayload | null> {
  const note = findNote(app.db, e.noteableId, e.noteId)
  if (!note) return null
  const issue = e.noteableKind === 'Issue' ? findIssueById(app.db, e.noteableId) : undefined
  const mr = e.noteableKind === 'MergeRequest' ? findMergeRequestById(app.db, e.noteableId) : undefined
  const commit = e.noteableKind === 'Commit' ? await commitAttributes(app, p, e.noteableId) : undefined
  if (commit === null) return null
  const iid = issue?.iid ?? mr?.iid ?? commit?.id ?? e.noteableId
  const confidential = issue?.confidential === 1
  const attached = issue ? { issue: issueAttributes(app, p, issue) } : mr ? { merge_request: mergeRequestAttributes(app, p, mr) }
    : commit ? { commit } : {}
  // Only a DiffNote's position is GitLab's Position; a legacy line comment keeps its line in line_code, not here.
  const position = note.type === 'DiffNote' && note.position ? JSON.parse(note.position) as Record<string, unknown> : null
  return {
    confidential, project: p, payload: {
      object_kind: 'note', event_type: confidential ? 'confidential_note' : 'note', user: hookUser(app, findUserById(app.db, e.userId)),
      project_id: p.id, project: hookProject(app, p),
      object_attributes: {
        attachment: null, author_id: note.author_id, change_position: null, commit_id: commit?.id ?? null, created_at: note.created_at,
        discussion_id: note.discussion_id, id: note.id, line_code: null, note: note.body, noteable_id: commit ? null : e.noteableId,
        noteable_type: e.noteableKind,
        original_position: position, position, project_id: p.id, resolved_at: note.resolved_at, resolved_by_id: note.resolved_by_id,
        resolved_by_push: null, st_diff: null, system: note.system === 1, type: note.type, updated_at: note.updated_at, updated_by_id: null,
        description: note.body,
        url: `${projectUrls(app, p).web}/-/${NOTEABLE_PATH[e.noteableKind]}/${iid}#note_${note.id}`, action: 'create',
      },
      repository: hookRepository(app, p), ...attached,
    },
  }
}

function wikiPayload(app: AppDeps, p: ProjectView, e: Extract<HookEvent, { kind: 'wiki_page' }>): BuiltPayload {
  const u = projectUrls(app, p)
  const wikiUrl = `${u.web}/-/wikis`
  return {
    confidential: false, project: p, payload: {
      object_kind: 'wiki_page', user: hookUser(app, findUserById(app.db, e.userId)), project: hookProject(app, p),
      wiki: { web_url: `${wikiUrl}/home`, git_ssh_url: u.ssh.replace(/\.git$/, '.wiki.git'), git_http_url: u.http.replace(/\.git$/, '.wiki.git'),
        path_with_namespace: `${p.ns_full_path}/${p.path}.wiki`, default_branch: 'master' },
      object_attributes: {
        title: e.page.title, content: e.page.content, format: e.page.format, message: e.page.message, slug: e.page.slug,
        url: `${wikiUrl}/${e.page.slug}`, action: e.action, diff_url: `${wikiUrl}/${e.page.slug}/diff`, version_id: null,
      },
    },
  }
}

/** The payload of an event, or null when what it names is gone already. */
export async function buildPayload(app: AppDeps, e: WebhookEvent): Promise<BuiltPayload | null> {
  const p = findProjectById(app.db, e.projectId)
  if (!p) return null
  switch (e.kind) {
    case 'issue': return issuePayload(app, p, e)
    case 'merge_request': return mergeRequestPayload(app, p, e)
    case 'note': return notePayload(app, p, e)
    case 'wiki_page': return wikiPayload(app, p, e)
    case 'release': return { payload: e.payload, confidential: false, project: p }
  }
}
