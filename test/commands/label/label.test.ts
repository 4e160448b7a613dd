// collab label against a real server, through the built CLI in piped mode: create, list, edit, delete, and refusals.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf } from '../parse.js'

const f = useServerAndCli()
const P = ['-p', 'root/demo']

describe('collab label argv', () => {
  it('hands create and edit only the fields given', async () => {
    expect(await optionsOf(['label', 'create', 'bug', '-c', '#FF0000', '--priority', '2', ...P])).toEqual({
      command: 'label create', options: { project: 'root/demo', name: 'bug', fields: { color: '#FF0000', priority: 2 }, json: false },
    })
    expect((await optionsOf(['label', 'edit', 'bug', '-n', 'defect', '--priority', '', '--json'])).options)
      .toEqual({ project: undefined, name: 'bug', fields: { new_name: 'defect', priority: null }, json: true })
  })
})

describe('collab label', () => {
  it('creates, lists as tab-separated lines and JSON, edits and deletes labels', async () => {
    const p = expectStatus(await f.root.post('/projects', { name: 'demo' }), 201).body
    expect(await f.c.run(['label', 'create', 'bug', '-c', '#FF0000', '-d', 'Broken', '--priority', '1', ...P])).toEqual(ok('', 'Created label bug in root/demo\n'))
    expect(await f.c.run(['label', 'create', 'docs', '--color', 'blue', ...P])).toEqual(ok('', 'Created label docs in root/demo\n'))
    expect(await f.c.run(['label', 'list', ...P])).toEqual(ok('bug\t#FF0000\t1\tBroken\ndocs\tblue\t\t\n'))
    const json = expectStatus(await f.root.get(`/projects/${p.id}/labels`), 200).text
    expect(await f.c.run(['label', 'ls', '--json', ...P])).toEqual(ok(`${json}\n`))
    expect(await f.c.run(['label', 'edit', 'bug', '-n', 'defect', '--priority', '', ...P])).toEqual(ok('', 'Updated label defect in root/demo\n'))
    expect(await f.c.run(['label', 'delete', 'docs', ...P])).toEqual(ok('', 'Deleted label docs in root/demo\n'))
    expect(await f.c.run(['label', 'list', '--search', 'def', ...P])).toEqual(ok('defect\t#FF0000\t\tBroken\n'))
  })

  it("passes on the server's refusals and refuses a create without --color before any request", async () => {
    expectStatus(await f.root.post('/projects', { name: 'demo' }), 201)
    expect(await f.c.run(['label', 'create', 'x', ...P])).toEqual({ stdout: '', stderr: 'error: --color is required (a hex colour such as #FF0000, or a colour name)\n', exitCode: 2 })
    expect(await f.c.run(['label', 'delete', 'nope', ...P])).toEqual({ stdout: '', stderr: 'error: 404 Label Not Found\n', exitCode: 1 })
    expect(await f.c.run(['label', 'edit', 'nope', ...P])).toEqual({ stdout: '', stderr: 'error: nothing to change: pass --name, --color, --description or --priority\n', exitCode: 2 })
  })
})
