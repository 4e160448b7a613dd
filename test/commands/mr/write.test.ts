// collab mr create, edit, close, reopen, subscribe, delete, merge, notes and time: the built CLI against a real server, piped.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createUser, expectStatus } from '../../helpers/api.js'
import { branchHead } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'
import { seeded } from './fixture.js'

const t = useServerAndCli()

const read = async (projectId: number, iid = 1) => expectStatus(await t.root.get(`/projects/${projectId}/merge_requests/${iid}`), 200).body

describe('mr create', () => {
  it('creates a merge request into the default branch, prints its URL and reports on stderr', async () => {
    const { p } = await seeded(t, false)
    writeFileSync(join(t.c.configDir, 'desc.md'), 'Details\n')
    const res = await t.c.run(['mr', 'create', '-p', 'root/demo', '-s', 'fix', '-t', 'Fix it', '-F', 'desc.md', '--draft', '--squash',
      '--remove-source-branch', '-l', 'bug,ui', '--assignee', 'root'])
    expect(res).toEqual(ok(`${t.server.url}/root/demo/-/merge_requests/1\n`, 'Created merge request !1 (fix -> master)\n'))
    const got = await read(p.id)
    expect([got.title, got.description, got.draft, got.squash, got.force_remove_source_branch, got.labels, got.assignees.map((u: any) => u.username), got.target_branch])
      .toEqual(['Draft: Fix it', 'Details\n', true, true, true, ['bug', 'ui'], ['root'], 'master'])
  })

  it('fails naming --title when there is no terminal to ask on (exit 2), after finding the project', async () => {
    await seeded(t, false)
    expect(await t.c.run(['mr', 'create', '-p', 'root/demo', '-s', 'fix'])).toEqual({ stdout: '', stderr: 'error: --title is required when not running interactively\n', exitCode: 2 })
    expect(await t.c.run(['mr', 'create', '-p', 'root/nope', '-s', 'fix'])).toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: root/nope\n', exitCode: 1 })
    expect(await t.c.run(['mr', 'create', '-p', 'root/demo', '-t', 'x'])).toEqual({
      stdout: '', stderr: 'error: --source-branch is required: the current directory is not on a git branch\n', exitCode: 2,
    })
  })

  it('prints the API body with --json and fails with the API message for a second open merge request', async () => {
    const { p } = await seeded(t, false)
    const res = await t.c.run(['mr', 'create', '-p', 'root/demo', '-s', 'fix', '-t', 'One', '--json'])
    expect([res.exitCode, JSON.parse(res.stdout).iid, res.stderr]).toEqual([0, 1, 'Created merge request !1 (fix -> master)\n'])
    expect(JSON.parse(res.stdout)).toEqual(await read(p.id))
    const again = await t.c.run(['mr', 'create', '-p', 'root/demo', '-s', 'fix', '-t', 'Two'])
    expect(again).toEqual({ stdout: '', stderr: 'error: Another open merge request already exists for this source branch: !1 (HTTP 409)\n', exitCode: 1 })
  })
})

describe('mr edit, close, reopen, subscribe, todo, delete', () => {
  it('changes only what the flags name, by username and milestone title', async () => {
    const { p } = await seeded(t)
    const ann = await createUser(t.server, 'ann')
    expectStatus(await t.root.post(`/projects/${p.id}/members`, { user_id: ann.id, access_level: 30 }), 201)
    const ms = expectStatus(await t.root.post(`/projects/${p.id}/milestones`, { title: 'v1' }), 201).body
    expect(await t.c.run(['mr', 'edit', '1', '-p', 'root/demo', '-t', 'Renamed', '--assignee', 'ann', '-m', 'v1', '--add-label', 'x']))
      .toEqual(ok('', 'Updated merge request !1 in root/demo\n'))
    const got = await read(p.id)
    expect([got.title, got.assignees.map((u: any) => u.username), got.milestone.id, got.labels, got.description]).toEqual(['Renamed', ['ann'], ms.id, ['x'], null])
    expect(await t.c.run(['mr', 'edit', '1', '-p', 'root/demo'])).toEqual({
      stdout: '', stderr: "error: nothing to change\nhint: pass at least one flag; see 'collab mr edit --help'\n", exitCode: 2,
    })
    expect(await t.c.run(['mr', 'edit', '1', '-p', 'root/demo', '--assignee', 'nobody'])).toEqual({ stdout: '', stderr: "error: --assignee: no user is named 'nobody'\n", exitCode: 2 })
  })

  it('closes and reopens; subscribe and todo say when nothing changed (304)', async () => {
    const { p } = await seeded(t)
    expect(await t.c.run(['mr', 'close', 'fix', '-p', 'root/demo'])).toEqual(ok('', 'Closed merge request !1 in root/demo\n'))
    expect((await read(p.id)).state).toBe('closed')
    expect(await t.c.run(['mr', 'reopen', '1', '-p', 'root/demo'])).toEqual(ok('', 'Reopened merge request !1 in root/demo\n'))
    expect((await read(p.id)).state).toBe('opened')
    expect(await t.c.run(['mr', 'subscribe', '1', '-p', 'root/demo'])).toEqual(ok('', 'Already subscribed to merge request !1 in root/demo\n'))
    expect(await t.c.run(['mr', 'unsubscribe', '1', '-p', 'root/demo'])).toEqual(ok('', 'Unsubscribed from merge request !1 in root/demo\n'))
    expect(await t.c.run(['mr', 'todo', '1', '-p', 'root/demo'])).toEqual(ok('', 'Added a todo for merge request !1 in root/demo\n'))
    expect(await t.c.run(['mr', 'todo', '1', '-p', 'root/demo'])).toEqual(ok('', 'Already a pending todo for merge request !1 in root/demo\n'))
  })

  it('deletes with --yes, and without a terminal fails naming --yes', async () => {
    const { p } = await seeded(t)
    expect(await t.c.run(['mr', 'delete', '1', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: --yes is required when not running interactively\n', exitCode: 2 })
    expect(await t.c.run(['mr', 'delete', '1', '-p', 'root/demo', '--yes'])).toEqual(ok('', 'Deleted merge request !1 in root/demo\n'))
    expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1`), 404)
  })
})

describe('mr merge', () => {
  it('merges, removes the source branch, and reports the merge commit', async () => {
    const { p } = await seeded(t)
    const res = await t.c.run(['mr', 'merge', 'fix', '-p', 'root/demo', '--remove-source-branch', '-m', 'Merge the fix'])
    const got = await read(p.id)
    expect(res).toEqual(ok('', `Merged !1 in root/demo into master (${got.merge_commit_sha.slice(0, 8)})\n`))
    expect([got.state, await branchHead(t.root, p.id, 'master'), await branchHead(t.root, p.id, 'fix')]).toEqual(['merged', got.merge_commit_sha, null])
    const commit = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/${got.merge_commit_sha}`), 200).body
    expect(commit.message).toBe('Merge the fix\n')
  })

  it('fails with exit 1 and the API message for a stale --sha', async () => {
    const { p, seed, fix } = await seeded(t)
    const res = await t.c.run(['mr', 'merge', '1', '-p', 'root/demo', '--sha', seed.id])
    expect(res).toEqual({ stdout: '', stderr: `error: SHA does not match HEAD of source branch: ${fix.id} (HTTP 409)\n`, exitCode: 1 })
    expect((await read(p.id)).state).toBe('opened')
  })
})

describe('mr rebase and merge when the pipeline succeeds', () => {
  it('asks the server to rebase, and prints its answer with --json', async () => {
    await seeded(t)
    expect(await t.c.run(['mr', 'rebase', '1', '-p', 'root/demo'])).toEqual(ok('', 'Rebase requested for merge request !1 in root/demo\n'))
    expect(await t.c.run(['mr', 'rebase', '1', '-p', 'root/demo', '--json'])).toEqual(ok('{"rebase_in_progress":true}\n', 'Rebase requested for merge request !1 in root/demo\n'))
  })

  it('merges at once with --when-pipeline-succeeds when there is no pipeline to wait for', async () => {
    const { p } = await seeded(t)
    const res = await t.c.run(['mr', 'merge', '1', '-p', 'root/demo', '--when-pipeline-succeeds', '--squash', '--json'])
    const got = await read(p.id)
    expect([res.exitCode, JSON.parse(res.stdout).state, got.state, got.squash]).toEqual([0, 'merged', 'merged', true])
  })
})

describe('mr note and time', () => {
  it('adds, lists, edits and deletes a note', async () => {
    const { p } = await seeded(t)
    expect(await t.c.run(['mr', 'note', 'add', '1', '-p', 'root/demo', '-m', 'First'])).toEqual(ok('', 'Added a note to merge request !1 in root/demo\n'))
    const [note] = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1/notes`), 200).body.filter((n: any) => !n.system)
    expect(await t.c.run(['mr', 'note', 'edit', String(note.id), '1', '-p', 'root/demo', '-F', '-'], { input: 'Second' }))
      .toEqual(ok('', `Updated note ${note.id} of merge request !1 in root/demo\n`))
    const listed = await t.c.run(['mr', 'note', 'list', '1', '-p', 'root/demo'])
    expect(listed.stdout).toContain(`${note.id}\troot\t${note.created_at}\tcomment\tSecond\n`)
    expect(await t.c.run(['mr', 'note', 'delete', String(note.id), '1', '-p', 'root/demo'])).toEqual(ok('', `Deleted note ${note.id} of merge request !1 in root/demo\n`))
    expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1/notes/${note.id}`), 404)
  })

  it('without a terminal, a note needs -m or -F, and a merge request must be named outside a git branch (exit 2)', async () => {
    await seeded(t)
    expect(await t.c.run(['mr', 'note', 'add', '1', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: --message is required when not running interactively\n', exitCode: 2 })
    expect(await t.c.run(['mr', 'view', '-p', 'root/demo'])).toEqual({
      stdout: '', stderr: 'error: no merge request given, and the current directory is not on a git branch\nhint: pass an iid, a source branch or a URL\n', exitCode: 2,
    })
  })

  it('sets an estimate, spends time and prints the stats', async () => {
    await seeded(t)
    expect(await t.c.run(['mr', 'time', 'estimate', '3h', '1', '-p', 'root/demo'])).toEqual(ok('estimate\t3h\nspent\t\nestimate_seconds\t10800\nspent_seconds\t0\n', 'Set the estimate of merge request !1 in root/demo\n'))
    expect((await t.c.run(['mr', 'time', 'spend', '1h30m', 'fix', '-p', 'root/demo'])).exitCode).toBe(0)
    expect(await t.c.run(['mr', 'time', 'stats', '1', '-p', 'root/demo'])).toEqual(ok('estimate\t3h\nspent\t1h 30m\nestimate_seconds\t10800\nspent_seconds\t5400\n'))
  })
})
