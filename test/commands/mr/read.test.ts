// collab mr list, view, diff, commits, participants and closes-issues: the built CLI against a real server, piped, exact output.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { seeded } from './fixture.js'

const t = useServerAndCli()

describe('mr list', () => {
  it('prints one tab-separated line per merge request; filters map to the API; --json prints its body', async () => {
    const { p } = await seeded(t, { labels: 'bug' })
    expect(await t.c.run(['mr', 'list', '-p', 'root/demo'])).toEqual(ok('!1\topened\tFix the parser\tfix -> master\tbug\t\t2024-01-02T03:04:05.000Z\n'))
    expect(await t.c.run(['mr', 'list', '-p', 'root/demo', '--state', 'merged'])).toEqual(ok(''))
    expect(await t.c.run(['mr', 'list', '-p', 'root/demo', '--draft'])).toEqual(ok(''))
    const query = { labels: 'bug', source_branch: 'fix', wip: 'no', order_by: 'updated_at', sort: 'asc' }
    const body = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests`, { query }), 200).text
    const args = ['mr', 'list', '-p', 'root/demo', '-l', 'bug', '--source-branch', 'fix', '--no-draft', '--order-by', 'updated_at', '--sort', 'asc', '--json']
    expect(await t.c.run(args)).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['mr', 'list', '--instance', '--scope', 'all'])).toEqual(ok('root/demo!1\topened\tFix the parser\tfix -> master\tbug\t\t2024-01-02T03:04:05.000Z\n'))
  })
})

describe('mr view', () => {
  it('names the merge request by iid, !iid, source branch or URL', async () => {
    const { mr } = await seeded(t)
    for (const name of ['1', '!1', 'fix', mr!.web_url]) {
      expect(await t.c.run(['mr', 'view', name, '-p', 'root/demo', '--web'])).toEqual(ok(`${mr!.web_url}\n`))
    }
    expect(await t.c.run(['mr', 'view', mr!.web_url, '--web'])).toEqual(ok(`${mr!.web_url}\n`))
    expect(await t.c.run(['mr', 'view', 'nope', '-p', 'root/demo'])).toEqual({
      stdout: '', stderr: "error: no merge request has the source branch 'nope' in root/demo\nhint: see 'collab mr list'\n", exitCode: 1,
    })
  })

  it('prints the fields, then the notes with --comments; --json prints the API body', async () => {
    const { p, fix } = await seeded(t, { description: 'Two\nlines', labels: 'bug', squash: true })
    expectStatus(await t.root.post(`/projects/${p.id}/merge_requests/1/notes`, { body: 'Looks good' }), 201)
    const got = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1`), 200)
    const fields = [
      'iid\t1', 'title\tFix the parser', 'state\topened', 'draft\tfalse', 'author\troot', 'source_branch\tfix', 'target_branch\tmaster',
      `merge_status\t${got.body.merge_status}`, `detailed_merge_status\t${got.body.detailed_merge_status}`, 'pipeline\t', 'assignees\t', 'reviewers\t',
      'approved_by\t', 'labels\tbug', 'milestone\t', 'squash\ttrue', 'remove_source_branch\tfalse', 'changes\t1', `created_at\t${got.body.created_at}`, 'merged_by\t',
      'merged_at\t', 'closed_at\t', `web_url\t${got.body.web_url}`, '--', 'Two', 'lines',
    ]
    expect(await t.c.run(['mr', 'view', '1', '-p', 'root/demo'])).toEqual(ok(`${fields.join('\n')}\n`))
    const notes = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1/notes`, { query: { sort: 'asc' } }), 200).body
    const comment = notes.find((n: { system: boolean }) => !n.system)
    const res = await t.c.run(['mr', 'view', '1', '-p', 'root/demo', '--comments'])
    expect(res.stdout.split('\n').filter((line) => line.startsWith('note\t'))).toEqual(
      notes.map((n: { id: number; system: boolean; body: string; created_at: string }) => `note\t${n.id}\troot\t${n.created_at}\t${n.system ? 'system' : 'comment'}\t${n.body}`))
    expect(comment.body).toBe('Looks good')
    expect(await t.c.run(['mr', 'view', '1', '-p', 'root/demo', '--json'])).toEqual(ok(`${got.text}\n`))
    expect(got.body.sha).toBe(fix.id)
  })
})

describe('mr diff, commits, participants, closes-issues', () => {
  it('prints a plain unified diff when piped, and the changes JSON with --json', async () => {
    const { p } = await seeded(t)
    expect(await t.c.run(['mr', 'diff', 'fix', '-p', 'root/demo'])).toEqual(ok(
      'diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n # demo\n+fixed\n'))
    const body = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1/changes`), 200).text
    expect(await t.c.run(['mr', 'diff', '1', '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
  })

  it('lists the commits, participants and the issues a merge closes', async () => {
    const { p, fix } = await seeded(t, false)
    const issue = expectStatus(await t.root.post(`/projects/${p.id}/issues`, { title: 'Parser bug' }), 201).body
    expectStatus(await t.root.post(`/projects/${p.id}/merge_requests`, { source_branch: 'fix', target_branch: 'master', title: 'Fix', description: 'Closes #1' }), 201)
    const commit = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/${fix.id}`), 200).body
    expect(await t.c.run(['mr', 'commits', '1', '-p', 'root/demo'])).toEqual(ok(`${fix.id}\tAdministrator\t${commit.created_at}\tFix the parser\n`))
    expect(await t.c.run(['mr', 'participants', '1', '-p', 'root/demo'])).toEqual(ok('1\troot\tAdministrator\n'))
    expect(await t.c.run(['mr', 'closes-issues', '1', '-p', 'root/demo'])).toEqual(ok(`#1\topened\tParser bug\t${issue.web_url}\n`))
  })
})

describe('mr completion', () => {
  it('offers the open merge requests by iid and source branch, and branches for branch flags', async () => {
    await seeded(t)
    expect(await t.c.run(['__complete', 'mr', 'view', '-p', 'root/demo', ''])).toEqual(ok('1\tFix the parser\nfix\t!1 Fix the parser\n'))
    expect(await t.c.run(['__complete', 'mr', 'merge', '--project=root/demo', 'f'])).toEqual(ok('fix\t!1 Fix the parser\n'))
    expect(await t.c.run(['__complete', 'mr', 'list', '-p', 'root/demo', '--target-branch', ''])).toEqual(ok('fix\tFix the parser\nmaster\tSeed\n'))
    // Without a project to ask about, nothing is offered and nothing fails.
    expect(await t.c.run(['__complete', 'mr', 'view', ''])).toEqual(ok(''))
  })
})
