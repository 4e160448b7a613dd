// collab label and collab milestone with --group, against a real server through the built CLI in piped mode.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf } from '../parse.js'

const f = useServerAndCli()
const G = ['--group', 'team']

describe('collab label and milestone --group argv', () => {
  it('hands the verbs the group', async () => {
    expect(await optionsOf(['label', 'create', 'bug', '-c', 'red', ...G])).toEqual({
      command: 'label create', options: { project: undefined, group: 'team', name: 'bug', fields: { color: 'red' }, json: false },
    })
    expect((await optionsOf(['milestone', 'delete', 'v1', '-g', 'team'])).options).toEqual({ project: undefined, group: 'team', milestone: 'v1' })
  })
})

describe('collab label --group', () => {
  it("creates, lists, edits and deletes a group's labels, which its projects' lists then show", async () => {
    const g = expectStatus(await f.root.post('/groups', { name: 'Team', path: 'team' }), 201).body
    expectStatus(await f.root.post('/projects', { name: 'app', namespace_id: g.id }), 201)
    expect(await f.c.run(['label', 'create', 'bug', '-c', '#FF0000', '-d', 'Broken', ...G])).toEqual(ok('', 'Created label bug in team\n'))
    expect(await f.c.run(['label', 'create', 'local', '-c', 'blue', '-p', 'team/app'])).toEqual(ok('', 'Created label local in team/app\n'))
    expect(await f.c.run(['label', 'list', ...G])).toEqual(ok('bug\t#FF0000\t\tBroken\n'))
    expect(await f.c.run(['label', 'list', '-p', 'team/app'])).toEqual(ok('bug\t#FF0000\t\tBroken\nlocal\tblue\t\t\n'))
    const json = expectStatus(await f.root.get(`/groups/${g.id}/labels`), 200).text
    expect(await f.c.run(['label', 'list', '--json', ...G])).toEqual(ok(`${json}\n`))
    expect(await f.c.run(['label', 'edit', 'bug', '-n', 'defect', ...G])).toEqual(ok('', 'Updated label defect in team\n'))
    expect(await f.c.run(['label', 'delete', 'local', ...G])).toEqual({ stdout: '', stderr: 'error: 404 Label Not Found\n', exitCode: 1 })
    expect(await f.c.run(['label', 'delete', 'defect', ...G])).toEqual(ok('', 'Deleted label defect in team\n'))
    expect(await f.c.run(['label', 'list', ...G])).toEqual(ok(''))
  })

  it('refuses --group with -p, and a priority for a group label, before any request (exit 2)', async () => {
    expect(await f.c.run(['label', 'list', '-p', 'team/app', ...G])).toEqual({ stdout: '', stderr: 'error: pass -p/--project or -g/--group, not both\n', exitCode: 2 })
    expect(await f.c.run(['label', 'edit', 'bug', '--priority', '1', ...G])).toEqual({ stdout: '', stderr: 'error: group labels have no priority: drop --priority\n', exitCode: 2 })
  })
})

describe('collab milestone --group', () => {
  it("creates, lists, edits by title and deletes a group's milestones", async () => {
    const g = expectStatus(await f.root.post('/groups', { name: 'Team', path: 'team' }), 201).body
    expect(await f.c.run(['milestone', 'create', 'v1', '--due-date', '2024-02-01', ...G])).toEqual(ok('', 'Created milestone v1 in team\n'))
    const [v1] = expectStatus(await f.root.get(`/groups/${g.id}/milestones`), 200).body
    expect(await f.c.run(['milestone', 'list', ...G])).toEqual(ok(`${v1.id}\tv1\tactive\t\t2024-02-01\n`))
    expect(await f.c.run(['milestone', 'edit', 'v1', '--close', '-t', 'v1.0', ...G])).toEqual(ok('', 'Updated milestone v1.0 in team\n'))
    expect(await f.c.run(['milestone', 'list', '--state', 'closed', ...G])).toEqual(ok(`${v1.id}\tv1.0\tclosed\t\t2024-02-01\n`))
    expect(await f.c.run(['milestone', 'delete', 'v1.0', ...G])).toEqual(ok('', 'Deleted milestone v1.0 in team\n'))
    expect(await f.c.run(['milestone', 'delete', 'v9', ...G])).toEqual({ stdout: '', stderr: 'error: no milestone titled "v9" in team\n', exitCode: 1 })
  })
})
