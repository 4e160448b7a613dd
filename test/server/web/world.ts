// A whole world seeded through the API, hostile text in every field a page renders: a group with a subgroup,
// public/internal/private projects with repositories, branches, tags, commits with comments and statuses, issues with
// notes, discussions and links, labels and milestones (project and group), merge requests open and merged, a pipeline
// run by the built-in runner with a hostile job name and log, wiki pages with nested slugs, project and personal
// snippets, users with hostile bios. Then every API GET that answers a web_url, called to collect the page addresses.
import { contract } from '../../../src/contract/index.js'
import { api, createGroup, createProject, createUser, expectStatus, type Api, type Reply, type TestUser } from '../../helpers/api.js'
import { startCiServer, waitForFinished } from '../../helpers/ci.js'
import { createIssue } from '../../helpers/issues.js'
import { commit, create, update } from '../../helpers/repository.js'
import type { TestServer } from '../../helpers/server.js'

/** Markup, a template expression, an ANSI escape and an RTL override: every one must show as text. */
export const MARKUP = '<script>window.__xss=1</script>"><img src=x onerror=alert(1)> {{7*7}}'
export const HOSTILE = `${MARKUP} \u001b[31mred\u001b[0m \u202Eevil.exe`
/** The same for markdown fields, with a javascript: link and a very long line. */
export const HOSTILE_MD = [
  `Hostile ${HOSTILE}`, '', '[click](javascript:alert(1)) [two](JaVaScRiPt:alert(1)) <a href="javascript:alert(1)">raw</a>', '',
  'x'.repeat(5000), '', '```html', '<script>alert(1)</script>', '```',
].join('\n')
/** A ref name git accepts that breaks out of an attribute. */
export const HOSTILE_REF = 'x"><svg/onload=alert(1)>'
export const HOSTILE_TAG = 't"><img/src=x/onerror=alert(1)>'
export const HOSTILE_FILE = '"><img src=x onerror=alert(1)>.txt'

const CI = `
"<script>alert(1)</script>":
  script:
    - printf '\\033[31mred <b>bold</b>\\033[0m <img src=x onerror=alert(1)> {{7*7}}\\n'
    - printf '\\033]8;;javascript:alert(1)\\033\\\\link\\033]8;;\\033\\\\ \\342\\200\\256evil\\n'
    - printf '%05000d\\n' 0
`

export interface World {
  server: TestServer
  alice: TestUser
  bob: TestUser
  group: any
  sub: any
  pub: any
  internal: any
  priv: any
  issue: any
  mr: any
  /** A comment on the issue and one on the merge request, each with an award. */
  issueNote: any
  mrNote: any
  merged: any
  pipeline: any
  snippet: any
  personal: any
  sha: string
}

const created = async (reply: Promise<Reply>): Promise<any> => expectStatus(await reply, 201).body

async function repository(as: Api, pub: any) {
  const first = await commit(as, pub.id, {
    branch: 'main', commit_message: `Files ${HOSTILE}`,
    actions: [
      create('README.md', `# Readme\n\n${HOSTILE_MD}\n`), create('.gitlab-ci.yml', CI), create('src/app.js', `const a = "${HOSTILE}"\n`),
      create(HOSTILE_FILE, HOSTILE), create('docs/very/deep/notes.md', HOSTILE_MD),
    ],
  })
  await created(as.post(`/projects/${pub.id}/repository/branches`, { branch: HOSTILE_REF, ref: 'main' }))
  await created(as.post(`/projects/${pub.id}/repository/branches`, { branch: 'feature/nested', ref: 'main' }))
  await created(as.post(`/projects/${pub.id}/repository/tags`, { tag_name: 'v1.0', ref: 'main', message: `Tag ${HOSTILE}` }))
  await created(as.post(`/projects/${pub.id}/repository/tags`, { tag_name: HOSTILE_TAG, ref: 'main' }))
  await created(as.post(`/projects/${pub.id}/repository/commits/${first.id}/comments`, { note: `Comment ${HOSTILE_MD}` }))
  await created(as.post(`/projects/${pub.id}/statuses/${first.id}`, { state: 'success', name: `ext ${HOSTILE}`, description: HOSTILE, target_url: 'https://ci.example/1' }))
  return first.id as string
}

async function issues(as: Api, pub: any, group: any) {
  await created(as.post(`/projects/${pub.id}/labels`, { name: `bug ${HOSTILE}`, color: '#ff0000', description: HOSTILE }))
  const milestone = await created(as.post(`/projects/${pub.id}/milestones`, { title: `M1 ${HOSTILE}`, description: HOSTILE_MD }))
  await created(as.post(`/groups/${group.id}/milestones`, { title: `G1 ${HOSTILE}`, description: HOSTILE_MD }))
  const issue = await createIssue(as, pub.id, { title: `Issue ${HOSTILE}`, description: HOSTILE_MD, labels: `bug ${HOSTILE}`, milestone_id: milestone.id })
  const other = await createIssue(as, pub.id, { title: 'Other issue', description: 'plain' })
  const issueNote = await created(as.post(`/projects/${pub.id}/issues/${issue.iid}/notes`, { body: `Note ${HOSTILE_MD}` }))
  await created(as.post(`/projects/${pub.id}/issues/${issue.iid}/award_emoji`, { name: 'thumbsup' }))
  await created(as.post(`/projects/${pub.id}/issues/${issue.iid}/notes/${issueNote.id}/award_emoji`, { name: 'thumbsup' }))
  await created(as.post(`/projects/${pub.id}/issues/${issue.iid}/discussions`, { body: `Thread ${HOSTILE}` }))
  await created(as.post(`/projects/${pub.id}/issues/${issue.iid}/links`, { target_project_id: pub.id, target_issue_iid: other.iid }))
  expectStatus(await as.put(`/projects/${pub.id}/issues/${other.iid}`, { state_event: 'close' }), 200)
  for (const state_event of ['close', 'reopen']) expectStatus(await as.put(`/projects/${pub.id}/issues/${issue.iid}`, { state_event }), 200)
  const closing = await createIssue(as, pub.id, { title: 'Closed by a merge' })
  return { issue, issueNote, milestone, closing }
}

/** A thread on a line of the merge request's diff, and the viewer's pending review: a draft on a line and a draft reply. */
async function reviewed(as: Api, pub: any, mr: any) {
  const refs = (await as.get(`/projects/${pub.id}/merge_requests/${mr.iid}`)).body.diff_refs
  const position = { ...refs, position_type: 'text', old_path: HOSTILE_FILE, new_path: HOSTILE_FILE }
  const path = `/projects/${pub.id}/merge_requests/${mr.iid}`
  const thread = await created(as.post(`${path}/discussions`, { body: `On a line ${HOSTILE_MD}`, position: { ...position, new_line: 1 } }))
  await created(as.post(`${path}/draft_notes`, { note: `Draft ${HOSTILE_MD}`, position: { ...position, old_line: 1 } }))
  await created(as.post(`${path}/draft_notes`, { note: `Draft reply ${HOSTILE}`, in_reply_to_discussion_id: thread.id }))
}

async function mergeRequests(as: Api, pub: any, milestone: any, issue: any, closing: any) {
  const change = await commit(as, pub.id, { branch: HOSTILE_REF, commit_message: `Change ${HOSTILE}`, actions: [update(HOSTILE_FILE, `changed ${HOSTILE}`)] })
  await created(as.post(`/projects/${pub.id}/repository/commits/${change.id}/comments`, { note: `On the change ${HOSTILE}`, path: HOSTILE_FILE, line: 1, line_type: 'new' }))
  await created(as.post(`/projects/${pub.id}/statuses/${change.id}`, { state: 'failed', name: `lint ${HOSTILE}`, target_url: 'https://ci.example/2' }))
  const mr = await created(as.post(`/projects/${pub.id}/merge_requests`, {
    source_branch: HOSTILE_REF, target_branch: 'main', title: `MR ${HOSTILE}`, description: `${HOSTILE_MD}\n\nCloses #${issue.iid}`, labels: `bug ${HOSTILE}`,
  }))
  const mrNote = await created(as.post(`/projects/${pub.id}/merge_requests/${mr.iid}/notes`, { body: `MR note ${HOSTILE_MD}` }))
  await created(as.post(`/projects/${pub.id}/merge_requests/${mr.iid}/notes/${mrNote.id}/award_emoji`, { name: 'thumbsup' }))
  await created(as.post(`/projects/${pub.id}/merge_requests/${mr.iid}/award_emoji`, { name: 'thumbsup' }))
  await reviewed(as, pub, mr)
  expectStatus(await as.put(`/projects/${pub.id}/merge_requests/${mr.iid}`, { milestone_id: milestone.id }), 200)
  for (const state_event of ['close', 'reopen']) expectStatus(await as.put(`/projects/${pub.id}/merge_requests/${mr.iid}`, { state_event }), 200)
  await commit(as, pub.id, { branch: 'topic', start_branch: 'main', commit_message: 'Topic', actions: [create('topic.txt', 'topic\n')] })
  const open = await created(as.post(`/projects/${pub.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Topic', description: `Closes #${closing.iid}` }))
  const merged = expectStatus(await as.put(`/projects/${pub.id}/merge_requests/${open.iid}/merge`, {}), 200).body
  return { mr, mrNote, merged }
}

async function wikisAndSnippets(as: Api, pub: any) {
  // A wiki title takes no control characters.
  for (const title of ['home', 'docs/setup/deep', `Evil ${MARKUP}`]) {
    await created(as.post(`/projects/${pub.id}/wikis`, { title, content: `${title}\n\n${HOSTILE_MD}` }))
  }
  const files = [{ file_path: HOSTILE_FILE, content: HOSTILE_MD }, { file_path: 'app.js', content: `x = "${HOSTILE}"` }]
  const snippet = await created(as.post(`/projects/${pub.id}/snippets`, { title: `Snip ${HOSTILE}`, description: HOSTILE_MD, visibility: 'public', files }))
  const note = await created(as.post(`/projects/${pub.id}/snippets/${snippet.id}/notes`, { body: `Snip note ${HOSTILE_MD}` }))
  await created(as.post(`/projects/${pub.id}/snippets/${snippet.id}/award_emoji`, { name: 'thumbsup' }))
  await created(as.post(`/projects/${pub.id}/snippets/${snippet.id}/notes/${note.id}/award_emoji`, { name: 'thumbsup' }))
  const personal = await created(as.post('/snippets', { title: `Mine ${HOSTILE}`, description: HOSTILE, visibility: 'public', files }))
  return { snippet, personal }
}

/** What other lists show: a star, a fork, a todo, and an issue and merge request in the group with its milestone. */
async function elsewhere(as: Api, bob: TestUser, pub: any, internal: any, group: any) {
  await created(as.post(`/projects/${pub.id}/star`))
  expectStatus(await bob.api.post(`/projects/${pub.id}/fork`, {}), 201)
  await createIssue(bob.api, pub.id, { title: `For alice ${HOSTILE}`, assignee_ids: [(await as.get('/user')).body.id] })
  const [g1] = expectStatus(await as.get(`/groups/${group.id}/milestones`), 200).body
  await createIssue(as, internal.id, { title: `Inner ${HOSTILE}`, description: HOSTILE_MD, milestone_id: g1.id })
  await commit(as, internal.id, { branch: 'inner-topic', start_branch: 'main', commit_message: 'Inner', actions: [create('inner.txt', HOSTILE)] })
  await created(as.post(`/projects/${internal.id}/merge_requests`, {
    source_branch: 'inner-topic', target_branch: 'main', title: `Inner MR ${HOSTILE}`, milestone_id: g1.id,
  }))
}

export async function seedWorld(): Promise<World> {
  const server = await startCiServer({ runner: true })
  const root = api(server, server.rootToken)
  const alice = await createUser(server, 'alice', { name: `Alice ${HOSTILE}` })
  const bob = await createUser(server, 'bob')
  expectStatus(await root.put(`/users/${alice.id}`, { bio: `Bio ${HOSTILE}`, location: HOSTILE, website_url: 'javascript:alert(1)', job_title: HOSTILE }), 200)
  const as = alice.api
  const group = await createGroup(as, { name: 'Team', path: 'team', visibility: 'public', description: `Team ${HOSTILE}` })
  const sub = await createGroup(as, { name: 'Sub', path: 'sub', parent_id: group.id, visibility: 'public', description: HOSTILE })
  const pub = await createProject(as, { name: 'demo', path: 'demo', visibility: 'public', description: `Demo ${HOSTILE}` })
  const internal = await createProject(as, { name: 'inner', path: 'inner', namespace_id: sub.id, visibility: 'internal', initialize_with_readme: true })
  const priv = await createProject(as, { name: 'secret', path: 'secret', visibility: 'private', initialize_with_readme: true })
  await created(as.post(`/projects/${pub.id}/members`, { user_id: bob.id, access_level: 30 }))
  const sha = await repository(as, pub)
  const { issue, issueNote, milestone, closing } = await issues(as, pub, group)
  await created(as.post(`/projects/${pub.id}/releases`, {
    tag_name: 'v1.0', name: `Release ${HOSTILE}`, description: `${HOSTILE_MD}\n\nFixes #${issue.iid}`, milestones: [milestone.title],
    assets: { links: [{ name: `Asset ${HOSTILE}`, url: 'https://example.com/asset', direct_asset_path: '/asset' }] },
  }))
  const { mr, mrNote, merged } = await mergeRequests(as, pub, milestone, issue, closing)
  // An environment with a deployment of main, and a generic package: their web_url and _links.web_path open pages.
  await created(as.post(`/projects/${pub.id}/environments`, { name: "review/feature-1", external_url: 'https://example.com/review' }))
  await created(as.post(`/projects/${pub.id}/deployments`, { environment: 'production', sha, ref: 'main', tag: false, status: 'success' }))
  await created(as.request('PUT', `/projects/${pub.id}/packages/generic/app/1.0.0/app.txt`, { body: `Package ${HOSTILE}`, headers: { 'Content-Type': 'application/octet-stream' } }))
  await elsewhere(as, bob, pub, internal, group)
  await created(as.post(`/projects/${pub.id}/triggers`, { description: `Trigger ${HOSTILE}` }))
  // A project runner of alice's (it takes no job: the built-in runner is quicker), for the Runners API's pages.
  await created(as.post('/user/runners', { runner_type: 'project_type', project_id: pub.id, description: `Runner ${HOSTILE}`, paused: true }))
  const made = await wikisAndSnippets(as, pub)
  await server.app.tasks.idle()
  const pipelines = expectStatus(await as.get(`/projects/${pub.id}/pipelines`, { query: { sort: 'asc' } }), 200).body
  for (const p of pipelines) await waitForFinished(server, p.id, 60_000)
  return { server, alice, bob, group, sub, pub, internal, priv, issue, issueNote, mr, mrNote, merged, pipeline: pipelines[0], sha, ...made }
}
