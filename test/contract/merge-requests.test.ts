// The merge-request contract: sample bodies in the spec's field lists validate against the entities, and the
// declarations parse parameters the way GitLab's clients send them (query strings read by the server's own parser).
import { describe, expect, it } from 'vitest'
import type { Endpoint } from '../../src/contract/define.js'
import * as actions from '../../src/contract/endpoints/merge-request-actions.js'
import * as notes from '../../src/contract/endpoints/merge-request-notes.js'
import * as mrs from '../../src/contract/endpoints/merge-requests.js'
import {
  ClosesIssuesEntry, MergeRequest, MergeRequestApprovals, MergeRequestAwardEmoji, MergeRequestBasic,
  MergeRequestChanges, MergeRequestCommit, MergeRequestSimple, MergeRequestTodo, RebaseAccepted,
} from '../../src/contract/entities/merge-requests.js'
import { contract } from '../../src/contract/index.js'
import { buildOpenApi } from '../../src/contract/openapi.js'
import { parseParams } from '../../src/server/http/body.js'

const base = 'http://localhost:3000'
const alice = { id: 2, username: 'alice', name: 'Alice', state: 'active', avatar_url: null, web_url: `${base}/alice` }
const sha = '1f2e3d4c5b6a79887766554433221100ffeeddcc'
const timeStats = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null }

const simple = {
  id: 11, iid: 1, project_id: 3, title: 'Draft: add the parser', description: 'Closes #4', state: 'opened',
  created_at: '2026-01-02T03:04:05.000Z', updated_at: '2026-01-02T03:04:05.000Z', web_url: `${base}/group/app/-/merge_requests/1`,
}

const basic = {
  ...simple,
  merged_by: null, merge_user: null, merged_at: null, closed_by: null, closed_at: null,
  target_branch: 'main', source_branch: 'parser', user_notes_count: 0, upvotes: 0, downvotes: 0,
  author: alice, assignees: [alice], assignee: alice, reviewers: [],
  source_project_id: 3, target_project_id: 3, labels: ['backend'], draft: true, imported: false, imported_from: 'none',
  work_in_progress: true, milestone: null, merge_when_pipeline_succeeds: false,
  merge_status: 'can_be_merged', detailed_merge_status: 'draft_status', sha, merge_commit_sha: null, squash_commit_sha: null,
  discussion_locked: null, should_remove_source_branch: null, force_remove_source_branch: true, prepared_at: '2026-01-02T03:04:05.000Z',
  reference: '!1', references: { short: '!1', relative: '!1', full: 'group/app!1' },
  time_stats: timeStats, squash: false, squash_on_merge: false, task_completion_status: { count: 0, completed_count: 0 },
  has_conflicts: false, blocking_discussions_resolved: true, allow_collaboration: false, allow_maintainer_to_push: false,
}

const single = {
  ...basic,
  subscribed: true, changes_count: '1', latest_build_started_at: null, latest_build_finished_at: null,
  first_deployed_to_production_at: null, pipeline: null, head_pipeline: null,
  diff_refs: { base_sha: sha, head_sha: sha, start_sha: sha }, merge_error: null, first_contribution: true,
  user: { can_merge: true },
}

const change = {
  old_path: 'src/parser.ts', new_path: 'src/parser.ts', a_mode: '100644', b_mode: '100644',
  diff: '@@ -1 +1 @@\n-a\n+b\n', new_file: false, renamed_file: false, deleted_file: false, generated_file: false,
}

describe('merge request entities', () => {
  it('accept a single merge request with the fields glab needs to merge', () => {
    expect(MergeRequest.strict().parse(single)).toEqual(single)
  })

  it('require user.can_merge, has_conflicts, draft and detailed_merge_status on the single form (glab refuses without them)', () => {
    for (const field of ['user', 'has_conflicts', 'draft', 'detailed_merge_status'] as const) {
      const { [field]: _, ...without } = single
      expect(MergeRequest.safeParse(without).success, field).toBe(false)
    }
  })

  it('take changes_count as a string, "1000+" past the cap, or null before a diff exists, never a number', () => {
    for (const value of ['3', '1000+', null]) expect(MergeRequest.safeParse({ ...single, changes_count: value }).success).toBe(true)
    expect(MergeRequest.safeParse({ ...single, changes_count: 3 }).success).toBe(false)
  })

  it('carry the optional single-read fields only when asked for', () => {
    const asked = { ...single, diverged_commits_count: 2, rebase_in_progress: false }
    expect(MergeRequest.strict().parse(asked)).toEqual(asked)
    const forked = { ...single, allow_collaboration: true, allow_maintainer_to_push: true, title_html: '<p>x</p>', description_html: '' }
    const { allow_collaboration: _, ...withoutCollaboration } = single
    expect(MergeRequest.safeParse(withoutCollaboration).success).toBe(false)
    expect(MergeRequest.strict().parse(forked)).toEqual(forked)
  })

  it('accept a merged merge request with its merger, merge commit and pipeline', () => {
    const pipeline = {
      id: 7, iid: 1, project_id: 3, sha, ref: 'parser', status: 'success', source: 'push',
      created_at: simple.created_at, updated_at: simple.updated_at, web_url: `${base}/group/app/-/pipelines/7`,
    }
    const merged = {
      ...single, state: 'merged', merged_by: alice, merge_user: alice, merged_at: simple.updated_at,
      merge_commit_sha: sha, merge_status: 'can_be_merged', detailed_merge_status: 'not_open', pipeline, head_pipeline: pipeline,
    }
    expect(MergeRequest.strict().parse(merged)).toEqual(merged)
    expect(MergeRequest.safeParse({ ...single, merge_status: 'mergeable' }).success).toBe(false)
  })

  it('keep the list form without the single-only fields, and view=simple to nine fields', () => {
    expect(MergeRequestBasic.strict().parse(basic)).toEqual(basic)
    expect(MergeRequestBasic.strict().safeParse(single).success).toBe(false)
    expect(MergeRequestSimple.strict().parse(simple)).toEqual(simple)
    expect(Object.keys(MergeRequestSimple.shape).sort()).toEqual(
      ['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url'])
  })

  it('answer a list in either form', () => {
    const list = mrs.listProjectMergeRequests.responses[200]
    expect(list.parse([basic])).toEqual([basic])
    expect(list.parse([simple])).toEqual([simple])
  })

  it('accept the changes form with its diff entries', () => {
    const body = { ...single, changes: [change], overflow: false }
    expect(MergeRequestChanges.strict().parse(body)).toEqual(body)
  })

  it("accept api-v4.md's reduced commit and GitLab 17's full one on …/commits", () => {
    const reduced = { id: sha, short_id: sha.slice(0, 8), title: 'Add the parser', author_name: 'Alice', author_email: 'alice@example.com', created_at: simple.created_at, message: 'Add the parser\n' }
    expect(MergeRequestCommit.strict().parse(reduced)).toEqual(reduced)
    const full = {
      ...reduced, parent_ids: [], authored_date: simple.created_at, committer_name: 'Alice', committer_email: 'alice@example.com',
      committed_date: simple.created_at, trailers: {}, extended_trailers: {}, web_url: `${base}/group/app/-/commit/${sha}`,
    }
    expect(MergeRequestCommit.strict().parse(full)).toEqual(full)
    const { message: _, ...noMessage } = reduced
    expect(MergeRequestCommit.safeParse(noMessage).success).toBe(false)
  })

  it('accept closes_issues entries of an external tracker', () => {
    expect(ClosesIssuesEntry.parse({ id: 'PROJ-7', title: 'Crash on start' })).toEqual({ id: 'PROJ-7', title: 'Crash on start' })
  })

  it('accept the small answers: rebase, approvals, award emoji, todo', () => {
    expect(RebaseAccepted.strict().parse({ rebase_in_progress: true })).toEqual({ rebase_in_progress: true })
    const approvals = { user_has_approved: true, user_can_approve: false, approved: true, approved_by: [{ user: alice }] }
    expect(MergeRequestApprovals.strict().parse(approvals)).toEqual(approvals)
    const award = { id: 1, name: 'thumbsup', user: alice, created_at: simple.created_at, updated_at: simple.created_at, awardable_id: 11, awardable_type: 'MergeRequest', url: null }
    expect(MergeRequestAwardEmoji.strict().parse(award)).toEqual(award)
    const todo = {
      id: 1, project: { id: 3, name: 'app', name_with_namespace: 'group / app', path: 'app', path_with_namespace: 'group/app' },
      author: alice, action_name: 'marked', target_type: 'MergeRequest', target: single,
      target_url: simple.web_url, body: simple.title, state: 'pending', created_at: simple.created_at,
    }
    expect(MergeRequestTodo.strict().parse(todo)).toEqual(todo)
  })
})

/** Parses a query string as the server does, adds path params, and runs the declaration's schema. */
const parse = (e: Endpoint, query: string, path: Record<string, string> = { id: '3', merge_request_iid: '1' }) =>
  e.schema.safeParse({ ...parseParams(query), ...path })
const ok = (e: Endpoint, query: string) => {
  const r = parse(e, query)
  if (!r.success) throw new Error(JSON.stringify(r.error.issues))
  return r.data as Record<string, unknown>
}

describe('merge request parameters', () => {
  it('read every list filter', () => {
    const q = 'state=merged&order_by=updated_at&sort=asc&milestone=v1&view=simple&labels=bug,ui&created_after=2026-01-01T00:00:00Z'
      + '&created_before=2026-02-01&updated_after=2026-01-01&updated_before=2026-03-01&scope=all&author_id=2&assignee_id=None'
      + '&my_reaction_emoji=thumbsup&source_branch=feature%2Fx&target_branch=main&search=parser&wip=yes&iids[]=1&iids[]=4&page=2&per_page=100'
    expect(ok(mrs.listProjectMergeRequests, q)).toEqual({
      id: '3', state: 'merged', order_by: 'updated_at', sort: 'asc', milestone: 'v1', view: 'simple', labels: ['bug', 'ui'],
      created_after: '2026-01-01T00:00:00Z', created_before: '2026-02-01', updated_after: '2026-01-01', updated_before: '2026-03-01',
      scope: 'all', author_id: 2, assignee_id: 'none', my_reaction_emoji: 'thumbsup', source_branch: 'feature/x', target_branch: 'main',
      search: 'parser', wip: 'yes', iids: [1, 4], page: 2, per_page: 100,
    })
  })

  it('take iids as iids[] pairs, a comma list or a JSON array, and labels as a comma list', () => {
    expect(ok(mrs.listProjectMergeRequests, 'iids[]=5').iids).toEqual([5])
    expect(ok(mrs.listProjectMergeRequests, 'iids=5,6').iids).toEqual([5, 6])
    expect((mrs.listProjectMergeRequests.schema.parse({ id: 3, iids: [7, '8'] })).iids).toEqual([7, 8])
    expect(ok(mrs.listMergeRequests, 'labels=a, b,c').labels).toEqual(['a', 'b', 'c'])
    expect(parse(mrs.listProjectMergeRequests, 'iids[]=x').success).toBe(false)
  })

  it('reject values outside the enumerations', () => {
    for (const q of ['wip=maybe', 'state=reopened', 'view=full', 'order_by=title', 'scope=mine', 'sort=up', 'created_after=soon']) {
      expect(parse(mrs.listGroupMergeRequests, q).success, q).toBe(false)
    }
    expect(ok(mrs.listMergeRequests, 'wip=no').wip).toBe('no')
    expect(ok(mrs.listMergeRequests, 'state=locked&scope=assigned-to-me')).toMatchObject({ state: 'locked', scope: 'assigned-to-me' })
  })

  it('read the single-read switches as lenient booleans', () => {
    expect(ok(mrs.getProjectMergeRequest, 'include_diverged_commits_count=True&include_rebase_in_progress=1&render_html=false'))
      .toMatchObject({ include_diverged_commits_count: true, include_rebase_in_progress: true, render_html: false })
  })

  it('require source_branch, target_branch and title on create, and read the rest', () => {
    expect(parse(mrs.createProjectMergeRequest, 'source_branch=a&target_branch=main').success).toBe(false)
    expect(ok(mrs.createProjectMergeRequest,
      'source_branch=a&target_branch=main&title=T&target_project_id=9&assignee_ids[]=2&reviewer_ids[]=3&labels=x,y'
      + '&milestone_id=4&remove_source_branch=true&allow_collaboration=yes&squash=True&description=D'))
      .toMatchObject({
        source_branch: 'a', target_branch: 'main', title: 'T', target_project_id: 9, assignee_ids: [2], reviewer_ids: [3],
        labels: ['x', 'y'], milestone_id: 4, remove_source_branch: true, allow_collaboration: true, squash: true, description: 'D',
      })
  })

  it('read every update parameter; empty ids unassign', () => {
    expect(ok(mrs.updateProjectMergeRequest,
      'state_event=close&target_branch=dev&discussion_locked=true&squash=false&remove_source_branch=0&allow_collaboration=f'
      + '&allow_maintainer_to_push=t&labels=&add_labels=a&remove_labels=b,c&assignee_id=&assignee_ids[]=&reviewer_ids[]=5&milestone_id=0&title=T&description='))
      .toMatchObject({
        state_event: 'close', target_branch: 'dev', discussion_locked: true, squash: false, remove_source_branch: false,
        allow_collaboration: false, allow_maintainer_to_push: true, labels: [], add_labels: ['a'], remove_labels: ['b', 'c'],
        assignee_id: 0, assignee_ids: [], reviewer_ids: [5], milestone_id: 0, title: 'T', description: '',
      })
    expect(parse(mrs.updateProjectMergeRequest, 'state_event=merge').success).toBe(false)
    expect(ok(mrs.updateProjectMergeRequest, 'state_event=reopen').state_event).toBe('reopen')
  })

  it('read the merge parameters from the JSON body and the query, as python-gitlab splits them', () => {
    const body = { merge_commit_message: 'Merge it', should_remove_source_branch: true, merge_when_pipeline_succeeds: false }
    const r = actions.mergeMergeRequest.schema.parse({ ...parseParams(`sha=${sha}&squash=True`), ...body, id: '3', merge_request_iid: '1' })
    expect(r).toEqual({ ...body, sha, squash: true, id: '3', merge_request_iid: 1 })
    expect(ok(actions.mergeMergeRequest, 'auto_merge=true&squash_commit_message=S'))
      .toMatchObject({ auto_merge: true, squash_commit_message: 'S' })
    expect(parse(actions.mergeMergeRequest, 'should_remove_source_branch=perhaps').success).toBe(false)
  })

  it('read skip_ci on rebase, durations on time tracking, and a body on notes', () => {
    expect(ok(actions.rebaseMergeRequest, 'skip_ci=True').skip_ci).toBe(true)
    expect(ok(actions.setMergeRequestTimeEstimate, 'duration=3h30m').duration).toBe('3h30m')
    expect(parse(actions.addMergeRequestSpentTime, '').success).toBe(false)
    expect(parse(notes.createMergeRequestNote, '').success).toBe(false)
    expect(ok(notes.listMergeRequestNotes, 'sort=asc&order_by=updated_at')).toMatchObject({ sort: 'asc', order_by: 'updated_at' })
    expect(ok(notes.createMergeRequestAwardEmoji, 'name=thumbsup').name).toBe('thumbsup')
  })

  it('take merge_request_iid as an integer and reject anything else', () => {
    expect(ok(mrs.getProjectMergeRequest, '').merge_request_iid).toBe(1)
    expect(parse(mrs.getProjectMergeRequest, '', { id: '3', merge_request_iid: 'one' }).success).toBe(false)
  })
})

describe('the merge request declarations', () => {
  const declared = [mrs, actions, notes].flatMap((mod) =>
    Object.entries(mod).filter(([, v]) => v && typeof v === 'object' && 'method' in v) as [string, Endpoint][])
  const mine = new Set<string>(['mergeRequests', 'mergeRequestActions', 'mergeRequestNotes'])
  const existing = Object.entries(contract).filter(([group]) => !mine.has(group)).flatMap(([, g]) => Object.entries(g as Record<string, Endpoint>))

  it('each have a summary, and no name or METHOD path clashes with the other groups of the contract', () => {
    const names = new Set(existing.map(([n]) => n))
    const routes = new Set(existing.map(([, e]) => `${e.method} ${e.path}`))
    for (const [name, e] of declared) {
      expect(e.summary.length, name).toBeGreaterThan(10)
      expect(names.has(name), name).toBe(false)
      expect(routes.has(`${e.method} ${e.path}`), name).toBe(false)
    }
    expect(new Set(declared.map(([, e]) => `${e.method} ${e.path}`)).size).toBe(declared.length)
  })

  it('cover the endpoints of the issue, with cancel auto-merge under both PUT and POST', () => {
    expect(declared.map(([, e]) => `${e.method} ${e.path.replace('/projects/:id/merge_requests/:merge_request_iid', '…')}`).sort()).toEqual([
      'DELETE …',
      'DELETE …/award_emoji/:award_id',
      'DELETE …/notes/:note_id',
      'GET /groups/:id/merge_requests',
      'GET /merge_requests',
      'GET /projects/:id/merge_requests',
      'GET …',
      'GET …/approvals',
      'GET …/award_emoji',
      'GET …/award_emoji/:award_id',
      'GET …/changes',
      'GET …/closes_issues',
      'GET …/commits',
      'GET …/merge_ref',
      'GET …/notes',
      'GET …/notes/:note_id',
      'GET …/participants',
      'GET …/pipelines',
      'GET …/time_stats',
      'POST /projects/:id/merge_requests',
      'POST …/add_spent_time',
      'POST …/approve',
      'POST …/award_emoji',
      'POST …/cancel_merge_when_pipeline_succeeds',
      'POST …/notes',
      'POST …/pipelines',
      'POST …/reset_spent_time',
      'POST …/reset_time_estimate',
      'POST …/subscribe',
      'POST …/time_estimate',
      'POST …/todo',
      'POST …/unapprove',
      'POST …/unsubscribe',
      'PUT …',
      'PUT …/cancel_merge_when_pipeline_succeeds',
      'PUT …/merge',
      'PUT …/notes/:note_id',
      'PUT …/rebase',
      'PUT …/reset_approvals',
    ])
  })

  it('turn into OpenAPI operations, with the required create fields', () => {
    const pick = (mod: object) => Object.fromEntries(Object.entries(mod).filter(([, v]) => v && typeof v === 'object' && 'method' in v))
    const doc = buildOpenApi({ mergeRequests: pick(mrs), mergeRequestActions: pick(actions), mergeRequestNotes: pick(notes) }, '17.0.0', base)
    const create = (doc.paths['/projects/{id}/merge_requests'] as any).post
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['source_branch', 'target_branch', 'title'])
    expect(Object.values(doc.paths).flatMap((ops) => Object.keys(ops)).length).toBe(declared.length)
  })
})
