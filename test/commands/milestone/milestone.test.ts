// collab milestone against a real server, through the built CLI in piped mode: create, list, edit (close), delete.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'

const f = useServerAndCli()
const P = ['-p', 'root/demo']

describe('collab milestone argv', () => {
  it('hands edit its fields and refuses a bad date or --close with --reopen before any request', async () => {
    expect((await optionsOf(['milestone', 'edit', 'v1', '-t', 'v1.0', '--due-date', '2024-02-01', '--close'])).options)
      .toEqual({ project: undefined, milestone: 'v1', fields: { due_date: '2024-02-01', title: 'v1.0', state_event: 'close' }, json: false })
    const bad = await parse(['milestone', 'create', 'v1', '--due-date', 'tomorrow'])
    expect([bad.exitCode, bad.stderr]).toEqual([2, 'error: --due-date takes a date as YYYY-MM-DD, not "tomorrow"\n'])
    const both = await parse(['milestone', 'edit', 'v1', '--close', '--reopen'])
    expect([both.exitCode, both.stderr]).toEqual([2, 'error: pass --close or --reopen, not both\n'])
  })
})

describe('collab milestone', () => {
  it('creates, lists, edits by title, closes and deletes milestones', async () => {
    const p = expectStatus(await f.root.post('/projects', { name: 'demo' }), 201).body
    expect(await f.c.run(['milestone', 'create', 'v1', '--start-date', '2024-01-01', '--due-date', '2024-02-01', ...P])).toEqual(ok('', 'Created milestone v1 in root/demo\n'))
    expect(await f.c.run(['milestone', 'create', 'v2', '-d', 'later', ...P])).toEqual(ok('', 'Created milestone v2 in root/demo\n'))
    const [v1, v2] = expectStatus(await f.root.get(`/projects/${p.id}/milestones`), 200).body
    expect(await f.c.run(['milestone', 'list', ...P])).toEqual(ok(`${v1.id}\tv1\tactive\t2024-01-01\t2024-02-01\n${v2.id}\tv2\tactive\t\t\n`))
    expect(await f.c.run(['milestone', 'edit', 'v1', '--close', '--due-date', '', ...P])).toEqual(ok('', 'Updated milestone v1 in root/demo\n'))
    expect(await f.c.run(['milestone', 'list', '--state', 'closed', ...P])).toEqual(ok(`${v1.id}\tv1\tclosed\t2024-01-01\t\n`))
    expect(await f.c.run(['milestone', 'delete', String(v2.id), ...P])).toEqual(ok('', `Deleted milestone ${v2.id} in root/demo\n`))
    expect(await f.c.run(['milestone', 'delete', 'v9', ...P])).toEqual({ stdout: '', stderr: 'error: no milestone titled "v9" in root/demo\n', exitCode: 1 })
  })
})
