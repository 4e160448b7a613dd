// collab mr review: pending comments on a line, in reply to a thread and on the merge request, listed, one deleted,
// then submitted at once; the built CLI against a real server, piped.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { seeded } from './fixture.js'

const t = useServerAndCli()

describe('mr review', () => {
  it('adds pending comments, lists and deletes one, and submits the rest as threads and a resolving reply', async () => {
    const { p } = await seeded(t)
    const path = `/projects/${p.id}/merge_requests/1`
    const thread = expectStatus(await t.root.post(`${path}/discussions`, { body: 'Why?' }), 201).body
    const run = (...args: string[]) => t.c.run(['mr', 'review', ...args, '-p', 'root/demo'])
    const added = 'Added a pending comment to your review of merge request !1 in root/demo (submit it with collab mr review submit)\n'
    expect(await run('comment', '1', '-m', 'Fixed line', '--file', 'README.md', '--line', '2')).toEqual(ok('', added))
    expect(await run('comment', '1', '-m', 'Because', '--reply-to', thread.id, '--resolve')).toEqual(ok('', added))
    expect(await run('comment', '1', '-m', 'Scratch')).toEqual(ok('', added))
    const drafts = (await t.root.get(`${path}/draft_notes`)).body
    expect(await run('list', '1')).toEqual(ok(
      `${drafts[0].id}\tREADME.md:2\tFixed line\n${drafts[1].id}\treply to ${thread.id.slice(0, 8)}\tBecause\n${drafts[2].id}\tmerge request\tScratch\n`))
    expect(await run('delete', String(drafts[2].id), '1')).toEqual(ok('', `Deleted pending comment ${drafts[2].id} of merge request !1 in root/demo\n`))
    expect(await run('comment', '1', '-m', 'x', '--line', '2')).toEqual({ stdout: '', stderr: 'error: --line and --old-line need --file\n', exitCode: 2 })
    expect((await run('comment', '1', '-m', 'x', '--file', 'README.md', '--line', '40')).exitCode).toBe(1)
    expect(await run('submit', '1')).toEqual(ok('', 'Submitted a review of 2 comments on merge request !1 in root/demo\n'))
    expect((await t.root.get(`${path}/draft_notes`)).body).toEqual([])
    const threads = (await t.root.get(`${path}/discussions`)).body.filter((d: any) => !d.notes[0].system)
    expect(threads.map((d: any) => d.notes.map((n: any) => [n.type, n.body, n.resolved]))).toEqual([
      [['DiscussionNote', 'Why?', true], ['DiscussionNote', 'Because', true]], [['DiffNote', 'Fixed line', false]],
    ])
    expect(await run('submit', '1')).toEqual({ stdout: '', stderr: 'error: no pending comments on merge request !1 in root/demo: add some with collab mr review comment\n', exitCode: 2 })
  })
})
