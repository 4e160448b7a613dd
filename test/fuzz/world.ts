// The fuzz test's world: users, tokens, a session, a group, a private and a public project with commits, issues, notes,
// labels, milestones, a merge request, a pipeline and its job, a snippet and a wiki page, all made through the API, so that generated ids reach past the lookups into the handlers.
import { expectStatus, request, type Api, api as apiFor } from '../helpers/api.js'
import { postSignIn } from '../helpers/web-sign-in.js'
import type { Known } from './values.js'

/** A running server to fuzz: in-process for the test suite, a `collab serve` child for the benchmark. */
export interface Target { url: string; rootToken: string; close(): Promise<void> }

export interface World {
  target: Target
  tokens: { root: string; alice: string; aliceRead: string; bob: string }
  session: { cookie: string; csrf: string }
  /** Already-encoded path segments that name real objects, by path parameter name. */
  segments: Record<string, string[]>
  known: Known
  /** GETs (path, token) that answer 200 while the world is whole. */
  probes: { path: string; token: string }[]
  settings: string
}

export const PASSWORD = 'fuzz-password-123'

async function user(root: Api, username: string, scopes: string[][]) {
  const u = expectStatus(await root.post('/users', { username, email: `${username}@example.com`, name: `User ${username}`, password: PASSWORD }), 201).body
  const tokens: string[] = []
  for (const s of scopes) tokens.push(expectStatus(await root.post(`/users/${u.id}/personal_access_tokens`, { name: s.join('-'), scopes: s }), 201).body.token)
  return { id: u.id as number, tokens }
}

async function signIn(target: Target, login: string) {
  const res = await postSignIn(target, { 'user[login]': login, 'user[password]': PASSWORD })
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0], csrf: res.headers.get('x-csrf-token') ?? '' }
}

/** Settings as compared by the probes: a change (a throttle switched on, sign-in off) means the world must be rebuilt. */
export const settingsText = (body: Record<string, unknown>) => JSON.stringify({ ...body, updated_at: null })

export async function buildWorld(target: Target): Promise<World> {
  const root = apiFor(target, target.rootToken)
  const alice = await user(root, 'alice', [['api'], ['read_api']])
  const bob = await user(root, 'bob', [['api']])
  const a = apiFor(target, alice.tokens[0])
  const group = expectStatus(await root.post('/groups', { name: 'Fuzz Group', path: 'fuzz-group', visibility: 'public' }), 201).body
  expectStatus(await root.post(`/groups/${group.id}/members`, { user_id: alice.id, access_level: 30 }), 201)
  const secret = expectStatus(await a.post('/projects', { name: 'secret', visibility: 'private', initialize_with_readme: true }), 201).body
  const pub = expectStatus(await root.post('/projects', { name: 'public', namespace_id: group.id, visibility: 'public', initialize_with_readme: true }), 201).body
  const branch = pub.default_branch as string
  const repo = `/projects/${pub.id}/repository`
  const commit = expectStatus(await root.post(`${repo}/commits`, {
    branch, commit_message: 'add files', actions: [{ action: 'create', file_path: 'dir/file.txt', content: 'one\ntwo\n' }, { action: 'update', file_path: 'README.md', content: '# fuzz\n' },
      { action: 'create', file_path: '.gitlab-ci.yml', content: 'build:\n  script: [echo hi]\n' }],
  }), 201).body
  expectStatus(await root.post(`${repo}/commits`, {
    branch: 'feature', start_branch: branch, commit_message: 'feature work', actions: [{ action: 'create', file_path: 'feature.txt', content: 'f\n' }],
  }), 201)
  expectStatus(await root.post(`${repo}/tags`, { tag_name: 'v1.0', ref: branch }), 201)
  const label = expectStatus(await root.post(`/projects/${pub.id}/labels`, { name: 'bug', color: '#ff0000' }), 201).body
  const issue = expectStatus(await root.post(`/projects/${pub.id}/issues`, { title: 'public issue', labels: 'bug' }), 201).body
  const secretIssue = expectStatus(await a.post(`/projects/${secret.id}/issues`, { title: 'secret issue', confidential: true }), 201).body
  const note = expectStatus(await root.post(`/projects/${pub.id}/issues/${issue.iid}/notes`, { body: 'a note' }), 201).body
  const milestone = expectStatus(await root.post(`/projects/${pub.id}/milestones`, { title: 'v1' }), 201).body
  const mr = expectStatus(await root.post(`/projects/${pub.id}/merge_requests`, { source_branch: 'feature', target_branch: branch, title: 'fuzz mr' }), 201).body
  // A pipeline with jobs (no runner here: they stay pending), a snippet and a wiki page, so their routes reach handlers.
  const pipeline = expectStatus(await root.post(`/projects/${pub.id}/pipeline`, { ref: branch }), 201).body
  const job = expectStatus(await root.get(`/projects/${pub.id}/pipelines/${pipeline.id}/jobs`), 200).body[0]
  const snippet = expectStatus(await root.post(`/projects/${pub.id}/snippets`, { title: 'snip', file_name: 'a.txt', content: 'x', visibility: 'public' }), 201).body
  const page = expectStatus(await root.post(`/projects/${pub.id}/wikis`, { title: 'Home', content: 'hello' }), 201).body
  for (const on of [`/projects/${pub.id}`, `/groups/${group.id}`, `/users/${alice.id}`]) expectStatus(await root.put(`${on}/custom_attributes/fuzzkey`, { value: 'v' }), 200)
  const imp = expectStatus(await root.post(`/users/${alice.id}/impersonation_tokens`, { name: 'imp', scopes: ['api'] }), 201).body
  const pat = expectStatus(await apiFor(target, alice.tokens[0]).get('/personal_access_tokens/self'), 200).body
  const settings = settingsText(expectStatus(await root.get('/application/settings'), 200).body)
  const session = await signIn(target, 'alice')
  const e = encodeURIComponent

  const ids = [pub.id, secret.id, group.id, alice.id, bob.id, 1]
  const segments: Record<string, string[]> = {
    id: [...ids.map(String), e(pub.path_with_namespace), e(secret.path_with_namespace), 'fuzz-group', 'alice', String(issue.id)],
    issue_iid: [String(issue.iid), String(secretIssue.iid)],
    sha: [commit.id, commit.short_id, branch, 'feature', 'v1.0', `${branch}~1`],
    file_path: ['README.md', e('dir/file.txt'), 'dir'],
    branch: [branch, 'feature'],
    tag_name: ['v1.0'],
    user_id: [String(alice.id), String(bob.id), '1', 'alice'],
    token_id: [String(pat.id), String(imp.id)],
    note_id: [String(note.id)],
    label_id: [String(label.id), e(label.name)],
    milestone_id: [String(milestone.id)],
    key: ['fuzzkey'],
    merge_request_iid: [String(mr.iid)],
    pipeline_id: [String(pipeline.id)],
    job_id: [String(job.id)],
    snippet_id: [String(snippet.id)],
    slug: [page.slug],
  }
  const known: Known = {
    ints: [...ids, issue.iid, note.id, label.id, milestone.id, mr.iid, pipeline.id, job.id, snippet.id, 10, 20, 30, 40, 50],
    strings: [branch, 'feature', 'v1.0', commit.id, 'README.md', 'dir/file.txt', 'alice', 'bob', 'root', 'bug', pub.path_with_namespace, 'private', 'public', 'internal'],
  }
  const t = { root: target.rootToken, alice: alice.tokens[0], aliceRead: alice.tokens[1], bob: bob.tokens[0] }
  const probes = [
    ...Object.values(t).map((token) => ({ path: '/user', token })),
    { path: `/projects/${secret.id}/issues/${secretIssue.iid}`, token: t.alice },
    { path: `/projects/${pub.id}/issues/${issue.iid}/notes/${note.id}`, token: t.root },
    { path: `/projects/${pub.id}/labels/${label.id}`, token: t.root },
    { path: `/projects/${pub.id}/milestones/${milestone.id}`, token: t.root },
    { path: `/projects/${pub.id}/merge_requests/${mr.iid}`, token: t.root },
    { path: `/projects/${pub.id}/pipelines/${pipeline.id}`, token: t.root },
    { path: `/projects/${pub.id}/snippets/${snippet.id}`, token: t.root },
    { path: `/projects/${pub.id}/wikis/${page.slug}`, token: t.root },
    { path: `${repo}/branches/feature`, token: t.root },
    { path: `${repo}/tags/v1.0`, token: t.root },
    { path: `/groups/${group.id}/custom_attributes/fuzzkey`, token: t.root },
  ]
  return { target, tokens: t, session, segments, known, probes, settings }
}

/** True while every object of the world is there, every token works, the session holds and the settings are unchanged. */
export async function worldIsWhole(w: World): Promise<boolean> {
  for (const p of w.probes) if ((await apiFor(w.target, p.token).get(p.path)).status !== 200) return false
  if ((await request(w.target, 'GET', '/api/v4/user', { headers: { Cookie: w.session.cookie } })).status !== 200) return false
  const s = await apiFor(w.target, w.tokens.root).get('/application/settings')
  return s.status === 200 && settingsText(s.body) === w.settings
}
