// collab issue …: the built CLI against a real server, piped, with exact output.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../helpers/api.js'
import { ok, useServerAndCli } from './cli.js'

const t = useServerAndCli()

const setup = async () => {
  const p = await createProject(t.root, { name: 'demo' })
  const issue = (title: string, extra: Record<string, unknown> = {}) => t.root.post(`/projects/${p.id}/issues`, { title, ...extra }).then((r) => expectStatus(r, 201).body)
  return { p, issue }
}

describe('issue list', () => {
  it('prints one tab-separated line per issue, newest first', async () => {
    const { issue } = await setup()
    await issue('First', { labels: 'bug,ui' })
    await issue('Second')
    expect(await t.c.run(['issue', 'list', '-p', 'root/demo'])).toEqual(ok('#2\topened\tSecond\t\t\t2024-01-02T03:04:05.000Z\n#1\topened\tFirst\tbug,ui\t\t2024-01-02T03:04:05.000Z\n'))
  })

  it('lists open issues unless asked (glab and gh do), and --closed / --state all / gh\'s open', async () => {
    const { p, issue } = await setup()
    await issue('Done')
    await issue('Open')
    expectStatus(await t.root.put(`/projects/${p.id}/issues/1`, { state_event: 'close' }), 200)
    const run = (...args: string[]) => t.c.run(['issue', 'list', '-p', 'root/demo', ...args]).then((r) => r.stdout.replace(/\t[^\t]*\n/g, '\n'))
    expect(await run()).toBe('#2\topened\tOpen\t\t\n')
    expect(await run('--closed')).toBe('#1\tclosed\tDone\t\t\n')
    expect(await run('-s', 'all')).toBe('#2\topened\tOpen\t\t\n#1\tclosed\tDone\t\t\n')
    expect(await run('--state', 'open')).toBe('#2\topened\tOpen\t\t\n')
  })

  it('takes usernames and @me for --author and --assignee, milestone titles for --milestone', async () => {
    const { p, issue } = await setup()
    const alice = expectStatus(await t.root.post('/users', { username: 'alice', name: 'Alice', email: 'a@example.com', password: 'secret-pass-123' }), 201).body
    expectStatus(await t.root.post(`/projects/${p.id}/members`, { user_id: alice.id, access_level: 30 }), 201)
    const m = expectStatus(await t.root.post(`/projects/${p.id}/milestones`, { title: 'v1.0' }), 201).body
    await issue('Mine', { assignee_ids: [1] })
    await issue('Hers', { assignee_ids: [alice.id], milestone_id: m.id })
    const titles = (...args: string[]) => t.c.run(['issue', 'list', '-p', 'root/demo', ...args]).then((r) => r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[2]))
    expect(await titles('--assignee', '@me')).toEqual(['Mine'])
    expect(await titles('-a', 'alice')).toEqual(['Hers'])
    expect(await titles('--author', '@me')).toEqual(['Hers', 'Mine'])
    expect(await titles('--author', 'alice')).toEqual([])
    expect(await titles('-m', 'v1.0')).toEqual(['Hers'])
    const bad = await t.c.run(['issue', 'list', '-p', 'root/demo', '--assignee-id', 'alice'])
    expect(bad).toEqual({ stdout: '', exitCode: 2, stderr: "error: option '--assignee-id <id>' argument 'alice' is invalid. expected a user id, None or Any (for a username use --assignee)\nhint: see 'collab issue list --help'\n" })
  })

  it('maps filters one to one to the API and prints its body with --json', async () => {
    const { p, issue } = await setup()
    await issue('Crash', { labels: 'bug' })
    await issue('Other')
    const query = { labels: 'bug', state: 'opened', search: 'Cra', order_by: 'updated_at', sort: 'asc' }
    const body = expectStatus(await t.root.get(`/projects/${p.id}/issues`, { query }), 200).text
    const args = ['issue', 'list', '-p', 'root/demo', '--label', 'bug', '--state', 'opened', '--search', 'Cra', '--order-by', 'updated_at', '--sort', 'asc', '--json']
    expect(await t.c.run(args)).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['issue', 'list', '-p', 'root/demo', '--iid', '2', '--state', 'all'])).toEqual(ok('#2\topened\tOther\t\t\t2024-01-02T03:04:05.000Z\n'))
    expect(await t.c.run(['issue', 'list', '--instance', '--scope', 'all', '--search', 'Other'])).toEqual(ok('root/demo#2\topened\tOther\t\t\t2024-01-02T03:04:05.000Z\n'))
  })

  it('refuses an unknown state with exit 2', async () => {
    const res = await t.c.run(['issue', 'list', '-p', 'root/demo', '--state', 'shut'])
    expect([res.exitCode, res.stdout]).toEqual([2, ''])
  })
})

describe('issue create', () => {
  it('takes assignees by username or @me and the milestone by title, as glab does', async () => {
    const { p } = await setup()
    const m = expectStatus(await t.root.post(`/projects/${p.id}/milestones`, { title: 'v1.0' }), 201).body
    expect((await t.c.run(['issue', 'create', '-p', 'root/demo', '-t', 'Mine', '-a', '@me', '-m', 'v1.0'])).exitCode).toBe(0)
    const got = expectStatus(await t.root.get(`/projects/${p.id}/issues/1`), 200).body
    expect([got.assignees.map((u: { username: string }) => u.username), got.milestone.id]).toEqual([['root'], m.id])
    expect(await t.c.run(['issue', 'create', '-p', 'root/demo', '-t', 'Nobody', '-a', 'nosuchuser'])).toEqual({ stdout: '', stderr: "error: --assignee: no user is named 'nosuchuser'\n", exitCode: 2 })
  })

  it('creates an issue, prints its URL and reports on stderr', async () => {
    await setup()
    const res = await t.c.run(['issue', 'create', '-p', 'root/demo', '--title', 'From CLI', '--label', 'a', '--label', 'b', '--due-date', '2024-05-01'])
    expect(res).toEqual(ok(`${t.server.url}/root/demo/-/issues/1\n`, 'Created issue #1 in root/demo\n'))
    const got = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).body
    expect([got.title, got.labels, got.due_date, got.description]).toEqual(['From CLI', ['a', 'b'], '2024-05-01', null])
  })

  it('reads the description from stdin with --description-file - and from a file', async () => {
    await setup()
    expect((await t.c.run(['issue', 'create', '-p', 'root/demo', '-t', 'Piped', '--description-file', '-'], { input: 'from stdin\n' })).exitCode).toBe(0)
    const file = join(t.c.configDir, 'desc.md')
    writeFileSync(file, '# From a file\n')
    expect((await t.c.run(['issue', 'create', '-p', 'root/demo', '-t', 'Filed', '-F', file])).exitCode).toBe(0)
    const list = expectStatus(await t.root.get('/projects/root%2Fdemo/issues', { query: { sort: 'asc' } }), 200).body
    expect(list.map((i: any) => i.description)).toEqual(['from stdin\n', '# From a file\n'])
  })

  it('fails naming --title when there is no terminal to ask on', async () => {
    await setup()
    expect(await t.c.run(['issue', 'create', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: --title is required when not running interactively\n', exitCode: 2 })
  })

  it('fails with exit 1 and the API message for a bad due date', async () => {
    await setup()
    expect(await t.c.run(['issue', 'create', '-p', 'root/demo', '-t', 'x', '--due-date', 'soon'])).toEqual({
      stdout: '', stderr: 'error: due_date: is invalid (HTTP 400)\n', exitCode: 1,
    })
  })
})

describe('issue view', () => {
  it('prints the fields and then the notes, oldest first', async () => {
    const { p, issue } = await setup()
    await issue('Viewed', { description: 'Line one\nline two', labels: 'bug' })
    expectStatus(await t.root.post(`/projects/${p.id}/issues/1/notes`, { body: 'A comment' }), 201)
    expectStatus(await t.root.put(`/projects/${p.id}/issues/1`, { state_event: 'close' }), 200)
    const notes = expectStatus(await t.root.get(`/projects/${p.id}/issues/1/notes`, { query: { sort: 'asc' } }), 200).body
    expect(await t.c.run(['issue', 'view', '1', '-p', 'root/demo', '--comments'])).toEqual(ok([
      'iid\t1', 'title\tViewed', 'state\tclosed', 'author\troot', 'assignees\t', 'labels\tbug', 'milestone\t', 'due_date\t',
      'confidential\tfalse', 'locked\tfalse', 'estimate\t', 'spent\t', 'created_at\t2024-01-02T03:04:05.000Z',
      'closed_at\t2024-01-02T03:04:05.000Z', 'closed_by\troot', `web_url\t${t.server.url}/root/demo/-/issues/1`,
      `note\t${notes[0].id}\troot\t2024-01-02T03:04:05.000Z\tcomment\tA comment`,
      `note\t${notes[1].id}\troot\t2024-01-02T03:04:05.000Z\tsystem\tclosed`, '--', 'Line one', 'line two', '',
    ].join('\n')))
  })

  it('prints the issue body unchanged with --json, and exit 1 for an unknown issue', async () => {
    const { issue } = await setup()
    await issue('Json')
    const body = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).text
    expect(await t.c.run(['issue', 'view', '1', '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['issue', 'view', '9', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: 404 Issue Not Found\n', exitCode: 1 })
  })
})

describe('issue edit, close, reopen, delete, move', () => {
  it('edits only what the flags name, and closes and reopens', async () => {
    const { issue } = await setup()
    await issue('Edit me', { labels: 'a' })
    expect(await t.c.run(['issue', 'edit', '1', '-p', 'root/demo', '--title', 'Edited', '--add-label', 'b', '--lock'])).toEqual(ok('', 'Updated issue #1 in root/demo\n'))
    let got = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).body
    expect([got.title, got.labels, got.discussion_locked]).toEqual(['Edited', ['a', 'b'], true])
    expect(await t.c.run(['issue', 'close', '1', '-p', 'root/demo'])).toEqual(ok('', 'Closed issue #1 in root/demo\n'))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).body.state).toBe('closed')
    expect(await t.c.run(['issue', 'reopen', '1', '-p', 'root/demo'])).toEqual(ok('', 'Reopened issue #1 in root/demo\n'))
    got = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).body
    expect([got.state, got.closed_by]).toEqual(['opened', null])
    expect((await t.c.run(['issue', 'edit', '1', '-p', 'root/demo'])).exitCode).toBe(2)
  })

  it('deletes with --yes, and refuses to ask without a terminal', async () => {
    const { issue } = await setup()
    await issue('Doomed')
    expect(await t.c.run(['issue', 'delete', '1', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: --yes is required when not running interactively\n', exitCode: 2 })
    expect(await t.c.run(['issue', 'delete', '1', '-p', 'root/demo', '--yes'])).toEqual(ok('', 'Deleted issue #1 in root/demo\n'))
    expect((await t.root.get('/projects/root%2Fdemo/issues/1')).status).toBe(404)
  })

  it('moves an issue to a project given by path and prints the new URL', async () => {
    const { issue } = await setup()
    await createProject(t.root, { name: 'other' })
    await issue('Traveller')
    expect(await t.c.run(['issue', 'move', '1', '-p', 'root/demo', '--to', 'root/other'])).toEqual(ok(`${t.server.url}/root/other/-/issues/1\n`, 'Moved issue #1 of root/demo to root/other as #1\n'))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1'), 200).body.state).toBe('closed')
  })
})

describe('issue subscribe, unsubscribe, todo, participants', () => {
  it('reports 304 answers as unchanged', async () => {
    const { issue } = await setup()
    await issue('Watched')
    expect(await t.c.run(['issue', 'subscribe', '1', '-p', 'root/demo'])).toEqual(ok('', 'Already subscribed to issue #1 in root/demo\n'))
    expect(await t.c.run(['issue', 'unsubscribe', '1', '-p', 'root/demo'])).toEqual(ok('', 'Unsubscribed from issue #1 in root/demo\n'))
    expect(await t.c.run(['issue', 'subscribe', '1', '-p', 'root/demo'])).toEqual(ok('', 'Subscribed to issue #1 in root/demo\n'))
    expect(await t.c.run(['issue', 'todo', '1', '-p', 'root/demo'])).toEqual(ok('', 'Added a todo for issue #1 in root/demo\n'))
    expect(await t.c.run(['issue', 'todo', '1', '-p', 'root/demo'])).toEqual(ok('', 'Already a pending todo for issue #1 in root/demo\n'))
    expect(expectStatus(await t.root.get('/todos'), 200).body.map((x: any) => x.target.iid)).toEqual([1])
  })

  it('lists participants', async () => {
    const { issue } = await setup()
    await issue('Crowd')
    expect(await t.c.run(['issue', 'participants', '1', '-p', 'root/demo'])).toEqual(ok('1\troot\tAdministrator\n'))
  })
})

describe('issue note', () => {
  it('adds, lists, edits and deletes notes', async () => {
    const { issue } = await setup()
    await issue('Talk')
    expect(await t.c.run(['issue', 'note', 'add', '1', '-p', 'root/demo', '-m', 'Hello'])).toEqual(ok('', 'Added a note to issue #1 in root/demo\n'))
    expect((await t.c.run(['issue', 'note', 'add', '1', '-p', 'root/demo', '-F', '-'], { input: 'From stdin' })).exitCode).toBe(0)
    const notes = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1/notes', { query: { sort: 'asc' } }), 200).body
    expect(await t.c.run(['issue', 'note', 'list', '1', '-p', 'root/demo', '--sort', 'asc'])).toEqual(ok(
      `${notes[0].id}\troot\t2024-01-02T03:04:05.000Z\tcomment\tHello\n${notes[1].id}\troot\t2024-01-02T03:04:05.000Z\tcomment\tFrom stdin\n`))
    expect(await t.c.run(['issue', 'note', 'edit', '1', String(notes[0].id), '-p', 'root/demo', '-m', 'Hi'])).toEqual(ok('', `Updated note ${notes[0].id} of issue #1 in root/demo\n`))
    expect(await t.c.run(['issue', 'note', 'delete', '1', String(notes[1].id), '-p', 'root/demo'])).toEqual(ok('', `Deleted note ${notes[1].id} of issue #1 in root/demo\n`))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1/notes'), 200).body.map((n: any) => n.body)).toEqual(['Hi'])
    expect((await t.c.run(['issue', 'note', 'add', '1', '-p', 'root/demo'])).stderr).toBe('error: --message is required when not running interactively\n')
  })
})

describe('issue time', () => {
  it('estimates, spends, shows and resets, in GitLab durations', async () => {
    const { issue } = await setup()
    await issue('Timed')
    expect(await t.c.run(['issue', 'time', 'estimate', '1', '3h30m', '-p', 'root/demo'])).toEqual(ok('estimate\t3h 30m\nspent\t\nestimate_seconds\t12600\nspent_seconds\t0\n', 'Set the estimate of issue #1 in root/demo\n'))
    expect((await t.c.run(['issue', 'time', 'spend', '1', '1w 2d', '-p', 'root/demo'])).stdout).toBe('estimate\t3h 30m\nspent\t1w 2d\nestimate_seconds\t12600\nspent_seconds\t201600\n')
    expect((await t.c.run(['issue', 'time', 'spend', '1', '-p', 'root/demo', '--', '-1d'])).stdout).toContain('spent\t1w 1d\n')
    expect((await t.c.run(['issue', 'time', 'spend', '1', '-30m', '-p', 'root/demo'])).stdout).toContain('spent\t1w 7h 30m\n')
    expect((await t.c.run(['issue', 'time', 'spend', '1', '30m', '-p', 'root/demo'])).stdout).toContain('spent\t1w 1d\n')
    expect(await t.c.run(['issue', 'time', 'stats', '1', '-p', 'root/demo', '--json'])).toEqual(ok(`${expectStatus(await t.root.get('/projects/root%2Fdemo/issues/1/time_stats'), 200).text}\n`))
    expect((await t.c.run(['issue', 'time', 'reset-estimate', '1', '-p', 'root/demo'])).stdout).toBe('estimate\t\nspent\t1w 1d\nestimate_seconds\t0\nspent_seconds\t172800\n')
    expect((await t.c.run(['issue', 'time', 'reset-spent', '1', '-p', 'root/demo'])).stdout).toBe('estimate\t\nspent\t\nestimate_seconds\t0\nspent_seconds\t0\n')
    // Checked before any request: a server is not even needed.
    expect(await t.c.run(['issue', 'time', 'estimate', '1', 'soon', '-p', 'root/demo', '--host', 'http://127.0.0.1:9'])).toEqual({ stdout: '', exitCode: 2,
      stderr: "error: command-argument value 'soon' is invalid for argument 'duration'. expected a duration such as 3h30m, 1.5h or 1w 2d (mo, w, d, h, m), or -30m to subtract\nhint: see 'collab issue time estimate --help'\n" })
  })
})
