// Grape's at_least_one_of, declared once per endpoint: an update naming none of GitLab's attributes answers 400 with
// Grape's words (it answered 200 and changed nothing); a body with one of them, in any encoding, still updates; PUT
// actions that take no body are not touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createGroup, createProject, expectStatus, request, type Api } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
const paths: Record<string, string> = {}

const missing = (names: string) => ({ error: `${names} are missing, at least one parameter must be provided` })

const PROJECT = 'allow_merge_on_skipped_pipeline, analytics_access_level, autoclose_referenced_issues, auto_devops_enabled, '
  + 'auto_devops_deploy_strategy, auto_cancel_pending_pipelines, build_git_strategy, build_timeout, '
  + 'builds_access_level, ci_config_path, ci_default_git_depth, ci_allow_fork_pipelines_to_run_in_parent_project, '
  + 'ci_forward_deployment_enabled, ci_forward_deployment_rollback_allowed, ci_separated_caches, '
  + 'container_registry_access_level, container_expiration_policy_attributes, default_branch, description, '
  + 'emails_disabled, emails_enabled, forking_access_level, issues_access_level, lfs_enabled, '
  + 'merge_pipelines_enabled, merge_requests_access_level, merge_requests_template, merge_trains_enabled, '
  + 'merge_method, name, only_allow_merge_if_all_discussions_are_resolved, only_allow_merge_if_pipeline_succeeds, '
  + 'pages_access_level, path, printing_merge_request_link_enabled, public_builds, public_jobs, '
  + 'remove_source_branch_after_merge, repository_access_level, request_access_enabled, '
  + 'resolve_outdated_diff_discussions, restrict_user_defined_variables, show_diff_preview_in_email, '
  + 'security_and_compliance_access_level, squash_option, shared_runners_enabled, group_runners_enabled, '
  + 'snippets_access_level, tag_list, topics, visibility, wiki_access_level, avatar, suggestion_commit_message, '
  + 'merge_commit_template, squash_commit_template, issue_branch_template, repository_storage, packages_enabled, '
  + 'service_desk_enabled, keep_latest_artifact, mr_default_target_self, enforce_auth_checks_on_uploads, '
  + 'releases_access_level, environments_access_level, feature_flags_access_level, infrastructure_access_level, '
  + 'monitor_access_level, model_experiments_access_level, model_registry_access_level, '
  + 'warn_about_potentially_unwanted_characters, ci_pipeline_variables_minimum_override_role, '
  + 'ci_push_repository_for_job_token_allowed, ci_delete_pipelines_in_seconds, max_artifacts_size, issues_enabled, '
  + 'jobs_enabled, merge_requests_enabled, wiki_enabled, snippets_enabled, container_registry_enabled'

/** Each marked endpoint: its path in this world, GitLab's list, and one attribute of the list with a value to send. */
const CASES: [name: string, list: string, attribute: Record<string, unknown>][] = [
  ['project', PROJECT, { description: 'changed' }],
  ['issue', 'assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, labels, add_labels, remove_labels, milestone_id, state_event, title, issue_type', { title: 'renamed' }],
  ['merge request', 'assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, milestone, remove_source_branch, allow_collaboration, allow_maintainer_to_push, squash, target_branch, title, state_event, discussion_locked, merge_after', { title: 'renamed' }],
  ['label', 'new_name, color, description, priority, archived', { description: 'd' }],
  ['label by name', 'new_name, color, description, priority, archived', { description: 'd' }],
  ['group label', 'new_name, color, description, archived', { description: 'd' }],
  ['group label by name', 'new_name, color, description, archived', { description: 'd' }],
  ['milestone', 'title, description, start_date, due_date, state_event', { description: 'd' }],
  ['group milestone', 'title, description, start_date, due_date, state_event', { description: 'd' }],
  ['project snippet', 'content, description, files, file_name, title, visibility', { description: 'd' }],
  ['personal snippet', 'content, description, files, file_name, title, visibility', { description: 'd' }],
  ['wiki page', 'content, title, format', { content: 'new text' }],
]

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  const group = await createGroup(root, { name: 'g', path: 'g' })
  const p = await createProject(root, { name: 'p', namespace_id: group.id, initialize_with_readme: true })
  const base = `/projects/${p.id}`
  expectStatus(await root.post(`${base}/repository/branches`, { branch: 'feature', ref: p.default_branch }), 201)
  const issue = expectStatus(await root.post(`${base}/issues`, { title: 'i' }), 201).body
  const mr = expectStatus(await root.post(`${base}/merge_requests`, { source_branch: 'feature', target_branch: p.default_branch, title: 'm' }), 201).body
  const label = expectStatus(await root.post(`${base}/labels`, { name: 'bug', color: '#ff0000' }), 201).body
  const groupLabel = expectStatus(await root.post(`/groups/${group.id}/labels`, { name: 'gbug', color: '#00ff00' }), 201).body
  const milestone = expectStatus(await root.post(`${base}/milestones`, { title: 'v1' }), 201).body
  const groupMilestone = expectStatus(await root.post(`/groups/${group.id}/milestones`, { title: 'g1' }), 201).body
  const snippet = expectStatus(await root.post(`${base}/snippets`, { title: 's', file_name: 'a.txt', content: 'x', visibility: 'private' }), 201).body
  const personal = expectStatus(await root.post('/snippets', { title: 's', file_name: 'a.txt', content: 'x' }), 201).body
  const page = expectStatus(await root.post(`${base}/wikis`, { title: 'Home', content: 'hello' }), 201).body
  Object.assign(paths, {
    'project': base, 'issue': `${base}/issues/${issue.iid}`, 'merge request': `${base}/merge_requests/${mr.iid}`,
    'label': `${base}/labels/${label.id}`, 'label by name': `${base}/labels?name=bug`,
    'group label': `/groups/${group.id}/labels/${groupLabel.id}`, 'group label by name': `/groups/${group.id}/labels?name=gbug`,
    'milestone': `${base}/milestones/${milestone.id}`, 'group milestone': `/groups/${group.id}/milestones/${groupMilestone.id}`,
    'project snippet': `${base}/snippets/${snippet.id}`, 'personal snippet': `/snippets/${personal.id}`, 'wiki page': `${base}/wikis/${page.slug}`,
    'mr base': `${base}/merge_requests/${mr.iid}`,
  })
})
afterAll(() => server.close())

const put = (path: string, opts: Parameters<typeof request>[3] = {}) =>
  request(server, 'PUT', `/api/v4${path}`, { ...opts, headers: { 'PRIVATE-TOKEN': server.rootToken, ...opts.headers } })

describe.each(CASES)('PUT %s', (name, list, attribute) => {
  it('answers 400 with Grape\'s words to an empty body', async () => {
    const res = await put(paths[name])
    expect([res.status, res.body]).toEqual([400, missing(list)])
  })

  it('answers 400 to a body of attributes it does not know', async () => {
    const res = await put(paths[name], { json: { nothing: 1, sudo_not: 'x' } })
    expect([res.status, res.body]).toEqual([400, missing(list)])
  })

  it('updates when one attribute of the list comes alone, as a form', async () => {
    const [[key, value]] = Object.entries(attribute)
    const res = await put(paths[name], { form: { [key]: String(value) } })
    expect([res.status, res.body[key]]).toEqual([200, value])
  })
})

it('counts an attribute given in the query string, as Grape merges every source', async () => {
  const res = await put(`${paths.issue}?title=from-the-query`)
  expect([res.status, res.body.title]).toEqual([200, 'from-the-query'])
})

it('takes every setting the CLI\'s project edit sends alone, public_jobs among them', async () => {
  for (const [key, value] of [['public_jobs', true], ['issues_enabled', false], ['request_access_enabled', true], ['ci_config_path', 'ci.yml']] as const) {
    const res = await put(paths.project, { json: { [key]: value } })
    expect([key, res.status]).toEqual([key, 200])
  }
})

it('counts an attribute given with an empty value: it is named, so it is given', async () => {
  const res = await put(paths.issue, { json: { description: '' } })
  expect([res.status, res.body.description]).toEqual([200, ''])
})

it('answers an anonymous caller 401 before looking at the body', async () => {
  const res = await request(server, 'PUT', `/api/v4${paths.issue}`)
  expect([res.status, res.body]).toEqual([401, { message: '401 Unauthorized' }])
})

it('leaves PUT actions that take no body alone', async () => {
  for (const action of ['rebase', 'merge', 'cancel_merge_when_pipeline_succeeds']) {
    const res = await put(`${paths['mr base']}/${action}`)
    expect(res.body?.error ?? '').not.toMatch(/at least one parameter/)
  }
})
