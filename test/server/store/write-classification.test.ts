// Every write statement the store runs, across a broad run of the API, is checked against what it really changed: temp
// triggers on every table record each row a statement inserts, updates or deletes (its triggers' and foreign-key
// actions' rows too), and each table recorded must be among those the statement declares (else a stale read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../../src/server/store/db.js'
import { TRIGGER_WRITES } from '../../../src/server/store/tables.js'
import { watchWrites } from '../../../src/server/store/writes.js'
import { api, createGroup, createProject, createUser, expectStatus, request, type Reply, type TestUser } from '../../helpers/api.js'
import { createIssue, issuePath } from '../../helpers/issues.js'
import { commit, create, repo, update } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

interface Seen { tables: readonly string[] | null; runs: number; misses: Set<string> }

let server: TestServer
const seen = new Map<string, Seen>()

const tablesOf = (db: Db) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name)

/** Temp triggers (they live and die with the connection) that record which tables each statement changed. */
function recordWrites(db: Db) {
  db.exec('CREATE TEMP TABLE written (name TEXT NOT NULL)')
  for (const t of tablesOf(db)) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER "record_${t}_${event}" AFTER ${event} ON main."${t}" BEGIN INSERT INTO temp.written VALUES ('${t}'); END`)
    }
  }
  const clear = db.prepare('DELETE FROM temp.written')
  const changed = db.prepare('SELECT DISTINCT name FROM temp.written').pluck()
  watchWrites(db, (sql, tables, run) => {
    clear.run()
    const result = run()
    let entry = seen.get(sql)
    if (!entry) seen.set(sql, (entry = { tables, runs: 0, misses: new Set() }))
    entry.runs++
    for (const t of changed.all() as string[]) if (tables !== null && !tables.includes(t)) entry.misses.add(t)
    return result
  })
}

const ok = async (reply: Promise<Reply>, status: number): Promise<Reply> => expectStatus(await reply, status)

/** Users, tokens, settings, groups, members and custom attributes. */
async function accounts(root: ReturnType<typeof api>, alice: TestUser, bob: TestUser) {
  const imp = (await ok(root.post(`/users/${bob.id}/impersonation_tokens`, { name: 'imp', scopes: ['api'] }), 201)).body
  await ok(root.del(`/users/${bob.id}/impersonation_tokens/${imp.id}`), 204)
  const pat = (await ok(root.post(`/users/${bob.id}/personal_access_tokens`, { name: 'extra', scopes: ['api'] }), 201)).body
  await ok(root.del(`/personal_access_tokens/${pat.id}`), 204)
  const grant = (await ok(request(server, 'POST', '/oauth/token', { json: { grant_type: 'password', username: 'bob', password: bob.password } }), 200)).body
  await ok(request(server, 'POST', '/oauth/token', { json: { grant_type: 'refresh_token', refresh_token: grant.refresh_token } }), 200)
  await ok(root.put('/application/settings', { default_projects_limit: 50 }), 200)
  const group = await createGroup(alice.api, { name: 'team', path: 'team' })
  await ok(alice.api.post(`/groups/${group.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  await ok(alice.api.put(`/groups/${group.id}/members/${bob.id}`, { access_level: 20 }), 200)
  await ok(alice.api.del(`/groups/${group.id}/members/${bob.id}`), 204)
  for (const path of [`/users/${bob.id}`, `/groups/${group.id}`]) {
    await ok(root.put(`${path}/custom_attributes/k`, { value: 'v' }), 200)
    await ok(root.del(`${path}/custom_attributes/k`), 204)
  }
}

/** A project's life: settings, stars, members, the repository, statuses and comments, labels and milestones. */
async function projectLife(root: ReturnType<typeof api>, alice: TestUser, bob: TestUser) {
  const p = await createProject(alice.api, { name: 'demo', visibility: 'public' })
  await ok(alice.api.put(`/projects/${p.id}`, { description: 'changed' }), 200)
  await ok(root.put(`/projects/${p.id}/custom_attributes/k`, { value: 'v' }), 200)
  await ok(bob.api.post(`/projects/${p.id}/star`), 201)
  await ok(bob.api.post(`/projects/${p.id}/unstar`), 201)
  await ok(alice.api.post(`/projects/${p.id}/members`, { user_id: bob.id, access_level: 30 }), 201)
  await ok(alice.api.put(`/projects/${p.id}/members/${bob.id}`, { access_level: 20 }), 200)
  const first = (await commit(alice.api, p.id, { commit_message: 'Base', actions: [create('a.txt', 'a\n')] })).id
  await commit(alice.api, p.id, { commit_message: 'Change', actions: [update('a.txt', 'b\n')] })
  await ok(alice.api.post(`${repo(p.id)}/branches`, { branch: 'feature', ref: 'master' }), 201)
  await ok(alice.api.del(`${repo(p.id)}/branches/feature`), 204)
  await ok(alice.api.post(`/projects/${p.id}/statuses/${first}`, { state: 'running', name: 'ci' }), 201)
  await ok(alice.api.post(`/projects/${p.id}/statuses/${first}`, { state: 'success', name: 'ci' }), 201)
  await ok(alice.api.post(`${repo(p.id)}/commits/${first}/comments`, { note: 'nice' }), 201)
  await ok(root.post(`/projects/${p.id}/repository_check`), 201)
  const label = (await ok(alice.api.post(`/projects/${p.id}/labels`, { name: 'bug', color: '#ff0000' }), 201)).body
  await ok(alice.api.put(`/projects/${p.id}/labels/${label.id}`, { color: '#00ff00' }), 200)
  await ok(alice.api.post(`/projects/${p.id}/labels`, { name: 'gone', color: '#000000' }), 201)
  await ok(alice.api.del(`/projects/${p.id}/labels/gone`), 204)
  const m = (await ok(alice.api.post(`/projects/${p.id}/milestones`, { title: 'v1' }), 201)).body
  await ok(alice.api.put(`/projects/${p.id}/milestones/${m.id}`, { state_event: 'close' }), 200)
  await ok(alice.api.post(`/projects/${p.id}/archive`), 201)
  await ok(alice.api.post(`/projects/${p.id}/unarchive`), 201)
  return { p, m }
}

/** Issues with everything that hangs off them, moved and deleted; then whole projects deleted (cascades). */
async function issueLife(alice: TestUser, bob: TestUser, p: { id: number }, m: { id: number }) {
  const other = await createProject(alice.api, { name: 'other' })
  const issue = await createIssue(alice.api, p.id, { title: 'one', labels: 'bug,new-label', assignee_ids: [bob.id], milestone_id: m.id })
  await ok(alice.api.put(issuePath(p.id, issue.iid), { title: 'One', state_event: 'close', labels: 'bug', confidential: true, discussion_locked: true }), 200)
  await ok(alice.api.put(issuePath(p.id, issue.iid), { state_event: 'reopen', assignee_ids: [alice.id], milestone_id: 0 }), 200)
  const note = (await ok(alice.api.post(issuePath(p.id, issue.iid, '/notes'), { body: 'a comment' }), 201)).body
  await ok(alice.api.put(issuePath(p.id, issue.iid, `/notes/${note.id}`), { body: 'edited' }), 200)
  await ok(alice.api.post(issuePath(p.id, issue.iid, '/notes'), { body: ':thumbsup:' }), 201)
  await ok(alice.api.del(issuePath(p.id, issue.iid, `/notes/${note.id}`)), 204)
  await ok(bob.api.post(issuePath(p.id, issue.iid, '/subscribe')), 201)
  await ok(bob.api.post(issuePath(p.id, issue.iid, '/unsubscribe')), 201)
  const todo = (await ok(alice.api.post(issuePath(p.id, issue.iid, '/todo')), 201)).body
  await ok(alice.api.post(`/todos/${todo.id}/mark_as_done`), 201)
  await ok(bob.api.post('/todos/mark_as_done'), 204)
  await ok(alice.api.post(issuePath(p.id, issue.iid, '/time_estimate'), { duration: '3h' }), 200)
  await ok(alice.api.post(issuePath(p.id, issue.iid, '/add_spent_time'), { duration: '1h' }), 201)
  await ok(alice.api.post(issuePath(p.id, issue.iid, '/reset_spent_time')), 200)
  await ok(alice.api.post(issuePath(p.id, issue.iid, '/move'), { to_project_id: other.id }), 201)
  const doomed = await createIssue(alice.api, p.id, { title: 'doomed', labels: 'bug' })
  await ok(alice.api.del(issuePath(p.id, doomed.iid)), 204)
  await ok(bob.api.post(`/projects/${p.id}/fork`, {}), 201)
  await ok(alice.api.del(`/projects/${other.id}`), 202)
}

beforeAll(async () => {
  server = await startTestServer()
  recordWrites(server.app.db)
  const root = api(server, server.rootToken)
  const alice = await createUser(server, 'alice')
  const bob = await createUser(server, 'bob')
  await accounts(root, alice, bob)
  const { p, m } = await projectLife(root, alice, bob)
  await issueLife(alice, bob, p, m)
}, 60_000)
afterAll(async () => {
  watchWrites(server.app.db, undefined)
  await server.close()
})

describe('the tables each write statement declares', () => {
  it('reach every table it changed, for every write statement the run made', () => {
    const misses = [...seen].filter(([, s]) => s.misses.size).map(([sql, s]) => `${sql} -> declares ${s.tables}, changed ${[...s.misses]}`)
    expect(misses).toEqual([])
    expect(seen.size).toBeGreaterThan(60)
  })

  it('are declared: no write statement of the store falls back to "any table"', () => {
    expect([...seen].filter(([, s]) => s.tables === null).map(([sql]) => sql)).toEqual([])
  })

  it('include what every trigger of the schema writes', () => {
    const triggers = (server.app.db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'trigger'").all() as { name: string }[]).map((r) => r.name)
    expect(triggers.filter((t) => !(t in TRIGGER_WRITES))).toEqual([])
    expect(Object.keys(TRIGGER_WRITES).filter((t) => !triggers.includes(t))).toEqual([])
  })

  it('need no foreign-key actions but ON DELETE ones: no ON UPDATE action, no ON CONFLICT REPLACE column', () => {
    const db = server.app.db
    const updates = tablesOf(db).flatMap((t) => (db.prepare('SELECT on_update FROM pragma_foreign_key_list(?)').all(t) as { on_update: string }[])
      .filter((k) => k.on_update !== 'NO ACTION').map(() => t))
    expect(updates).toEqual([])
    expect(db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND sql LIKE '%ON CONFLICT REPLACE%'").all()).toEqual([])
  })
})
