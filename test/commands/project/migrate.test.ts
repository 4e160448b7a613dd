// collab project migrate between two collab serve instances (both GitLab-compatible servers): everything copied is
// compared through the API item by item; a second run copies nothing twice; an interrupted run resumes.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type Reply } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { rootCli, type Cli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'
import { until } from '../../helpers/wait.js'

let source: TestServer
let target: TestServer
let from: Api
let to: Api
let c: Cli
const P = encodeURIComponent('root/demo')

/** An attachment's bytes; its markdown link, relative to the project, is in alice's issue. */
const SHOT = Buffer.from('\x89PNG not really an image \x00\x01\x02')
/** Attachment links with their secret left out: the copy's file has one of its own. */
const unsecret = (text: string | null) => text?.replace(/\/uploads\/[0-9a-f]+\//g, '/uploads/SECRET/') ?? null

const ok = <T = any>(reply: Promise<Reply<T>>, status = 201) => reply.then((r) => expectStatus(r, status).body)

/** Commits through the API: `files` on `branch`, started from `start` when the branch is new. */
async function commit(branch: string, message: string, files: Record<string, string>, start?: string) {
  const actions = Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content }))
  return ok(from.post(`/projects/${P}/repository/commits`, { branch, start_branch: start, commit_message: message, actions }))
}

/** A project with something of every kind the migration copies, written by root, alice and bob. */
async function seed() {
  const alice = await createUser(source, 'alice')
  const bob = await createUser(source, 'bob')
  await createUser(target, 'alice', { admin: true })
  const project = await createProject(from, { name: 'demo', description: 'The demo project', visibility: 'internal' })
  for (const u of [alice, bob]) await ok(from.post(`/projects/${P}/members`, { user_id: u.id, access_level: 30 }))
  await commit('main', 'First commit', { 'README.md': '# demo\n' })
  await commit('feature', 'Add a feature', { 'feature.txt': 'feature\n' }, 'main')
  await commit('fix', 'Fix the crash', { 'fix.txt': 'fixed\n' }, 'main')
  await ok(from.post(`/projects/${P}/repository/tags`, { tag_name: 'v1.0', ref: 'main' }))

  await ok(from.post(`/projects/${P}/labels`, { name: 'bug', color: '#ff0000', description: 'Something is broken' }))
  await ok(from.post(`/projects/${P}/labels`, { name: 'feature', color: '#00ff00' }))
  const v1 = await ok(from.post(`/projects/${P}/milestones`, { title: 'v1', due_date: '2024-02-01', start_date: '2024-01-01' }))
  const v0 = await ok(from.post(`/projects/${P}/milestones`, { title: 'v0', description: 'The first one' }))
  await ok(from.put(`/projects/${P}/milestones/${v0.id}`, { state_event: 'close' }), 200)

  // Issues 1..5 by root, alice and bob; #3 is deleted, leaving a gap.
  await ok(from.post(`/projects/${P}/issues`, { title: 'Crash on start', description: 'It crashes', labels: 'bug', milestone_id: v1.id, assignee_ids: [alice.id] }))
  const form = new FormData()
  form.append('file', new Blob([SHOT]), 'shot.png')
  const upload = (await (await fetch(`${source.api}/projects/${P}/uploads`, { method: 'POST', headers: { 'PRIVATE-TOKEN': source.rootToken }, body: form })).json()) as { markdown: string }
  await ok(alice.api.post(`/projects/${P}/issues`, { title: 'Slow search', description: `Search takes a minute ${upload.markdown}` }))
  await ok(from.post(`/projects/${P}/issues`, { title: 'Doomed' }))
  await ok(bob.api.post(`/projects/${P}/issues`, { title: 'Typo in README', description: 'teh' }))
  await ok(from.post(`/projects/${P}/issues`, { title: 'Old bug', labels: 'bug,feature' }))
  await ok(from.del(`/projects/${P}/issues/3`), 204)
  await ok(from.put(`/projects/${P}/issues/5`, { state_event: 'close' }), 200)
  await ok(from.post(`/projects/${P}/issues/1/notes`, { body: 'I see it too' }))
  const aliceNote = await ok(alice.api.post(`/projects/${P}/issues/1/notes`, { body: 'Fixed in !2' }))
  await ok(bob.api.post(`/projects/${P}/issues/1/notes`, { body: 'Thanks!' }))
  await ok(from.post(`/projects/${P}/issues/1/award_emoji`, { name: 'thumbsup' }))
  await ok(alice.api.post(`/projects/${P}/issues/1/award_emoji`, { name: 'tada' }))
  await ok(bob.api.post(`/projects/${P}/issues/1/award_emoji`, { name: 'heart' }))
  await ok(from.post(`/projects/${P}/issues/1/notes/${aliceNote.id}/award_emoji`, { name: 'rocket' }))
  await ok(from.post(`/projects/${P}/issues/1/time_estimate`, { duration: '3h' }), 200)
  await ok(from.post(`/projects/${P}/issues/1/add_spent_time`, { duration: '1h30m' }))

  // An open merge request and a merged one whose branch is gone.
  await ok(from.post(`/projects/${P}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Add a feature', labels: 'feature' }))
  await ok(alice.api.post(`/projects/${P}/merge_requests`, { source_branch: 'fix', target_branch: 'main', title: 'Fix the crash', description: 'Closes #1' }))
  await ok(from.post(`/projects/${P}/merge_requests/1/notes`, { body: 'Looks good' }))
  await ok(from.post(`/projects/${P}/merge_requests/2/notes`, { body: 'Merging' }))
  await ok(from.post(`/projects/${P}/merge_requests/1/time_estimate`, { duration: '2h' }), 200)
  await mergeWhenReady(2)
  await ok(from.del(`/projects/${P}/repository/branches/fix`), 204)

  await ok(from.post(`/projects/${P}/wikis`, { title: 'Home', content: 'Welcome to the wiki' }))
  await ok(from.post(`/projects/${P}/wikis`, { title: 'Setup', content: 'Run `npm install`' }))
  const snippet = await ok(from.post(`/projects/${P}/snippets`, { title: 'Config', visibility: 'private', files: [{ file_path: 'a.yml', content: 'a: 1\n' }, { file_path: 'b.txt', content: 'B' }] }))
  await ok(from.post(`/projects/${P}/snippets/${snippet.id}/notes`, { body: 'Handy' }))
  await ok(from.post(`/projects/${P}/releases`, {
    tag_name: 'v1.0', name: 'Version 1.0', description: 'The first release', released_at: '2024-01-05T00:00:00Z',
    milestones: ['v1'], assets: { links: [{ name: 'Binary', url: 'https://example.com/app.tgz', link_type: 'package' }] },
  }))
  await ok(from.post(`/projects/${P}/variables`, { key: 'DEPLOY_KEY', value: 's3cr3t-value', masked: true, protected: true }))
  await ok(from.post(`/projects/${P}/variables`, { key: 'REGION', value: 'eu', environment_scope: 'production' }))
  return project
}

async function mergeWhenReady(iid: number) {
  await until(`merge request !${iid} to merge`, async () => (await from.put(`/projects/${P}/merge_requests/${iid}/merge`, {})).status === 200, { everyMs: 100 })
}

/** Everything the migration copies, read through the API in a comparable form. */
async function snapshot(a: Api, path: string) {
  const id = encodeURIComponent(path)
  const all = async (p: string, query: Record<string, string | number> = {}) => ok(a.get(`/projects/${id}${p}`, { query: { per_page: 100, ...query } }), 200)
  const discussion = async (kind: string, iid: number) => ({
    notes: (await all(`/${kind}/${iid}/notes`, { sort: 'asc' })).filter((n: any) => !n.system).map((n: any) => ({ body: n.body, author: n.author.username, created_at: n.created_at })),
    awards: (await all(`/${kind}/${iid}/award_emoji`)).map((e: any) => `${e.name}:${e.user.username}`).sort(),
  })
  const issues = []
  for (const i of (await all('/issues', { state: 'all', sort: 'asc' })).sort((x: any, y: any) => x.iid - y.iid)) {
    issues.push({
      iid: i.iid, title: i.title, description: unsecret(i.description), state: i.state, labels: i.labels, milestone: i.milestone?.title ?? null,
      author: i.author.username, created_at: i.created_at, assignees: i.assignees.map((u: any) => u.username),
      time: [i.time_stats.time_estimate, i.time_stats.total_time_spent], ...(await discussion('issues', i.iid)),
    })
  }
  const mergeRequests = []
  for (const mr of (await all('/merge_requests', { state: 'all', sort: 'asc' })).sort((x: any, y: any) => x.iid - y.iid)) {
    mergeRequests.push({
      iid: mr.iid, title: mr.title, description: mr.description, state: mr.state, source_branch: mr.source_branch, target_branch: mr.target_branch,
      labels: mr.labels, author: mr.author.username, time: [mr.time_stats.time_estimate, mr.time_stats.total_time_spent], ...(await discussion('merge_requests', mr.iid)),
    })
  }
  const snippets = []
  for (const s of await all('/snippets')) {
    const files = []
    for (const f of s.files) files.push([f.path, (await a.get(`/projects/${id}/snippets/${s.id}/files/main/${encodeURIComponent(f.path)}/raw`)).text])
    snippets.push({ title: s.title, visibility: s.visibility, files, notes: (await all(`/snippets/${s.id}/notes`)).map((n: any) => n.body) })
  }
  const project = await ok(a.get(`/projects/${id}`), 200)
  return {
    project: { description: project.description, visibility: project.visibility, default_branch: project.default_branch },
    branches: (await all('/repository/branches')).map((b: any) => `${b.name} ${b.commit.id}`).sort(),
    tags: (await all('/repository/tags')).map((t: any) => `${t.name} ${t.commit.id}`).sort(),
    labels: (await all('/labels')).map((l: any) => ({ name: l.name, color: l.color, description: l.description })),
    milestones: (await all('/milestones')).map((m: any) => ({ title: m.title, state: m.state, due_date: m.due_date, start_date: m.start_date, description: m.description })),
    issues,
    mergeRequests,
    wiki: (await all('/wikis', { with_content: 1 })).map((w: any) => ({ slug: w.slug, title: w.title, content: w.content })),
    snippets,
    releases: (await all('/releases')).map((r: any) => ({ tag: r.tag_name, name: r.name, description: r.description, released_at: r.released_at, milestones: r.milestones.map((m: any) => m.title), links: r.assets.links.map((l: any) => [l.name, l.url, l.link_type]) })),
    variables: (await all('/variables')).map((v: any) => ({ key: v.key, value: v.value, masked: v.masked, protected: v.protected, environment_scope: v.environment_scope })),
  }
}

/** What the copy must hold: the source, but for what the target cannot keep (merge states, bob's authorship, new MR iids). */
function expected(original: Awaited<ReturnType<typeof snapshot>>) {
  const withoutBob = (n: { body: string; author: string; created_at: string }) => (n.author === 'bob' ? { ...n, author: 'root', body: `*Created by: bob*\n\n${n.body}` } : n)
  return {
    ...original,
    // fix was deleted on the source: brought back for the copy of !2, then deleted again.
    issues: original.issues.map((i) => ({
      ...i,
      ...(i.author === 'bob' ? { author: 'root', description: `*Created by: bob*\n\n${i.description}` } : {}),
      notes: i.notes.map(withoutBob),
      awards: i.awards.filter((a: string) => !a.endsWith(':bob')),
    })),
    mergeRequests: original.mergeRequests.map((mr) => ({
      ...mr,
      state: mr.state === 'merged' ? 'closed' : mr.state,
      description: `*Created at: ${createdAt[mr.iid]}*\n\n${mr.description ?? ''}`,
      notes: mr.state === 'merged'
        ? [...mr.notes, { body: expect.stringMatching(new RegExp(`^\\*Merged in the original project by root at .*: ${source.url}/root/demo/-/merge_requests/2\\*\\n\\nMerge commit: [0-9a-f]{40}$`)), author: 'root', created_at: expect.any(String) }]
        : mr.notes,
    })),
  }
}

const createdAt: Record<number, string> = {}

/** Note dates of notes written by this run are the target's: compare everything else. */
const undated = <T extends { notes: { created_at: string }[] }>(items: T[]) => items.map((i) => ({ ...i, notes: i.notes.map((n) => ({ ...n, created_at: 'any' })) }))

beforeAll(async () => {
  source = await startTestServer()
  target = await startTestServer()
  from = api(source, source.rootToken)
  to = api(target, target.rootToken)
  c = await rootCli(source)
  await seed()
  for (const mr of await ok(from.get(`/projects/${P}/merge_requests`, { query: { state: 'all' } }), 200)) createdAt[mr.iid] = mr.created_at
}, 60_000)

afterAll(async () => {
  c?.cleanup()
  await source?.close()
  await target?.close()
})

const migrate = (extra: string[] = [], env: Record<string, string> = {}) =>
  c.run(['project', 'migrate', 'root/demo', '--to', target.url, '--to-token', target.rootToken, '--variables', '--json', ...extra], { env })

describe('project migrate', () => {
  it('takes the source, --to, the target token and the choices from argv; --to is required', async () => {
    expect(await optionsOf(['project', 'migrate', 'g/p', '--to', 'https://gitlab.example.com', '--to-token', 'T', '--namespace', 'team', '--path', 'p2', '--variables', '--state', 'j.jsonl', '--json'])).toEqual({
      command: 'project migrate',
      options: { project: 'g/p', to: 'https://gitlab.example.com', toToken: 'T', namespace: 'team', path: 'p2', variables: true, state: 'j.jsonl', json: true },
    })
    expect((await optionsOf(['project', 'migrate', '-p', '7', '--to', 'h'])).options).toEqual({ project: '7', to: 'h', toToken: undefined, namespace: undefined, path: undefined, variables: false, state: undefined, json: false })
    const missing = await parse(['project', 'migrate', 'g/p'])
    expect([missing.exitCode, missing.stderr]).toEqual([2, "error: required option '--to <url>' not specified\nhint: see 'collab project migrate --help'\n"])
  })

  it('copies the repository, wiki, labels, milestones, issues, merge requests, snippets, releases and variables', async () => {
    const result = await migrate()
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    const summary = JSON.parse(result.stdout)
    expect(summary.target).toEqual({ host: target.url, project: 'root/demo', web_url: `${target.url}/root/demo` })
    expect(summary.copied).toMatchObject({ issues: 4, 'merge requests': 2, labels: 2, milestones: 2, notes: 6, snippets: 1, releases: 1, variables: 2, 'award emoji': 3, attachments: 1 })
    expect(summary.not_copied).toEqual(['award :heart: by bob on issue #1: no such user on the target'])
    const original = await snapshot(from, 'root/demo')
    const copy = await snapshot(to, 'root/demo')
    const want = expected(original)
    expect(copy.project).toEqual(original.project)
    expect(copy.branches).toEqual(original.branches)
    expect(copy.tags).toEqual(original.tags)
    expect(copy.labels).toEqual(original.labels)
    expect(copy.milestones).toEqual(original.milestones)
    expect(copy.issues.map((i) => i.iid)).toEqual([1, 2, 4, 5])
    expect(copy.issues[1].description).toBe('Search takes a minute ![shot](/uploads/SECRET/shot.png)')
    const link = /\/uploads\/[0-9a-f]+\/shot\.png/.exec((await ok(to.get(`/projects/${P}/issues/2`), 200)).description)![0]
    const file = await fetch(`${target.api}/projects/${P}${link}`, { headers: { 'PRIVATE-TOKEN': target.rootToken } })
    expect(Buffer.from(await file.arrayBuffer())).toEqual(SHOT)
    expect(copy.issues).toEqual(want.issues)
    expect(undated(copy.mergeRequests)).toEqual(undated(want.mergeRequests))
    expect(copy.wiki).toEqual(original.wiki)
    expect(copy.snippets).toEqual(original.snippets)
    expect(copy.releases).toEqual(original.releases)
    expect(copy.variables).toEqual(original.variables)
  })

  it('copies nothing twice when run again', async () => {
    const before = await snapshot(to, 'root/demo')
    const result = await migrate()
    expect(result.exitCode).toBe(0)
    const summary = JSON.parse(result.stdout)
    expect(summary.copied).toEqual({ 'git refs': 0, 'wiki refs': 0 })
    expect(summary.already).toMatchObject({ issues: 4, 'merge requests': 2, labels: 2, milestones: 2, snippets: 1, releases: 1, variables: 2 })
    expect(await snapshot(to, 'root/demo')).toEqual(before)
    // A run killed between creating issue #5 and writing its journal line: the next one finds #5 by its iid.
    const lines = readFileSync(summary.journal, 'utf8').split('\n')
    const kept = lines.filter((l) => !/^\{"k":"(issue","s":"5"|done","s":"issue:5")/.test(l))
    expect(lines.length - kept.length).toBe(2)
    writeFileSync(summary.journal, kept.join('\n'))
    const again = await migrate()
    expect(again.exitCode).toBe(0)
    expect(JSON.parse(again.stdout).copied).toEqual({ 'git refs': 0, 'wiki refs': 0 })
    expect(await snapshot(to, 'root/demo')).toEqual(before)
  })

  it('resumes an interrupted run where it stopped', async () => {
    const stopped = await migrate(['--path', 'demo-2'], { COLLAB_MIGRATE_STOP_AFTER: '9' })
    expect(stopped.exitCode).toBe(1)
    expect(stopped.stderr).toMatch(/stopped after 9 records/)
    const partial = await snapshot(to, 'root/demo-2')
    expect(partial.issues.length).toBeLessThan(4)
    const resumed = await migrate(['--path', 'demo-2'])
    expect(resumed.exitCode).toBe(0)
    const first = await snapshot(to, 'root/demo')
    const second = await snapshot(to, 'root/demo-2')
    expect(undated(second.issues)).toEqual(undated(first.issues))
    expect(undated(second.mergeRequests)).toEqual(undated(first.mergeRequests))
    expect({ ...second, issues: [], mergeRequests: [], project: null }).toEqual({ ...first, issues: [], mergeRequests: [], project: null })
  })

  it('writes the authors into the texts when the target token cannot sudo, and keeps iids and dates as the project owner', async () => {
    const carol = await createUser(target, 'carol')
    const result = await c.run(['project', 'migrate', 'root/demo', '--to', target.url, '--json'], { env: { COLLAB_TO_TOKEN: carol.token } })
    expect(result.exitCode).toBe(0)
    const summary = JSON.parse(result.stdout)
    expect(summary.target.project).toBe('carol/demo')
    const cannot = (what: string) => `award ${what}: the target token may not award as another user (sudo)`
    expect(summary.not_copied).toEqual([cannot(':thumbsup: by root on issue #1'), cannot(':tada: by alice on issue #1'), cannot(':heart: by bob on issue #1'), cannot(':rocket: by root on a note on issue #1')])
    const original = await snapshot(from, 'root/demo')
    const copy = await snapshot(carol.api, 'carol/demo')
    const header = (author: string, text: string | null) => `*Created by: ${author}*\n\n${text ?? ''}`
    expect(copy.issues).toEqual(original.issues.map((i) => ({
      ...i, author: 'carol', description: header(i.author, i.description), awards: [],
      notes: i.notes.map((n: { body: string; author: string; created_at: string }) => ({ ...n, author: 'carol', body: header(n.author, n.body) })),
    })))
    expect(copy.mergeRequests.map((mr) => [mr.author, mr.description.split('\n')[0]])).toEqual([['carol', expect.stringMatching(/^\*Created by: root at 20/)], ['carol', expect.stringMatching(/^\*Created by: alice at 20/)]])
  })
})
