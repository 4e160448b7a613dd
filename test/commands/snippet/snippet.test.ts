// collab snippet against a real server, through the built CLI in piped mode: create from files and stdin, list, view,
// raw, edit, delete, for a project and with --personal, and the server's refusals as exit codes.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'

const NOW = '2024-01-02T03:04:05.000Z'
const f = useServerAndCli()

async function project() {
  return expectStatus(await f.root.post('/projects', { name: 'demo', visibility: 'public' }), 201).body
}

const write = (name: string, text: string) => {
  const path = join(f.c.configDir, name)
  writeFileSync(path, text)
  return path
}

describe('collab snippet', () => {
  it('creates from files and from stdin, lists, views and prints raw content', async () => {
    const p = await project()
    const web = (id: number) => `${f.server.url}/root/demo/-/snippets/${id}`
    expect(await f.c.run(['snippet', 'create', write('hello.rb', 'puts 1\n'), '-t', 'Hello', '-p', 'root/demo']))
      .toEqual(ok(`${web(1)}\n`, 'Created snippet 1 in root/demo\n'))
    expect(await f.c.run(['snippet', 'create', '-', '--filename', 'run.sh', '-v', 'public', '-p', 'root/demo'], { input: 'echo hi\n' }))
      .toEqual(ok(`${web(2)}\n`, 'Created snippet 2 in root/demo\n'))
    expect(await f.c.run(['snippet', 'create', write('a.md', '# a\n'), write('b.txt', 'b\n'), '-p', 'root/demo', '-d', 'two files']))
      .toEqual(ok(`${web(3)}\n`, 'Created snippet 3 in root/demo\n'))
    expect(await f.c.run(['snippet', 'list', '-p', 'root/demo'])).toEqual(ok([
      `3\ta.md\ta.md, b.txt\tprivate\troot\t${NOW}`, `2\trun.sh\trun.sh\tpublic\troot\t${NOW}`, `1\tHello\thello.rb\tprivate\troot\t${NOW}`, '',
    ].join('\n')))
    expect(await f.c.run(['snippet', 'view', '3', '-p', String(p.id)])).toEqual(ok([
      'id\t3', 'title\ta.md', 'description\ttwo files', 'visibility\tprivate', 'author\troot', 'files\ta.md, b.txt',
      `created_at\t${NOW}`, `updated_at\t${NOW}`, `web_url\t${web(3)}`, '--', '# a', '',
    ].join('\n')))
    expect(await f.c.run(['snippet', 'raw', '3', '--file', 'b.txt', '-p', 'root/demo'])).toEqual(ok('b\n'))
    expect(await f.c.run(['snippet', 'raw', '2', '-p', 'root/demo'])).toEqual(ok('echo hi\n'))
    expect(await f.c.run(['snippet', 'view', '1', '--web', '-p', 'root/demo'])).toEqual(ok(`${web(1)}\n`))
    expect(JSON.parse((await f.c.run(['snippet', 'view', '1', '--json', '-p', 'root/demo'])).stdout).title).toBe('Hello')
    expect(await f.c.run(['__complete', 'snippet', 'raw', '-p', 'root/demo', ''])).toEqual(ok('3\ta.md (private)\n2\trun.sh (public)\n1\tHello (private)\n'))
  })

  it('edits content from stdin and the title, then deletes', async () => {
    await project()
    await f.c.run(['snippet', 'create', write('x.txt', 'one\n'), '-p', 'root/demo'])
    expect(await f.c.run(['snippet', 'edit', '1', '-t', 'Renamed', '-c', '-', '-f', 'y.txt', '-p', 'root/demo'], { input: 'two\n' }))
      .toEqual(ok('', 'Updated snippet 1 in root/demo\n'))
    expect(await f.c.run(['snippet', 'raw', '1', '-p', 'root/demo'])).toEqual(ok('two\n'))
    const s = (await f.root.get('/projects/root%2Fdemo/snippets/1')).body
    expect([s.title, s.file_name]).toEqual(['Renamed', 'y.txt'])
    expect(await f.c.run(['snippet', 'delete', '1', '--yes', '-p', 'root/demo'])).toEqual(ok('', 'Deleted snippet 1 of root/demo\n'))
    expect((await f.root.get('/projects/root%2Fdemo/snippets/1')).status).toBe(404)
  })

  it('works on personal snippets with --personal', async () => {
    expect(await f.c.run(['snippet', 'create', '--personal', '-v', 'public', '-t', 'Mine', '-'], { input: 'mine' }))
      .toEqual(ok(`${f.server.url}/-/snippets/1\n`, 'Created snippet 1 in your personal snippets\n'))
    expect(await f.c.run(['snippet', 'list', '--personal'])).toEqual(ok(`1\tMine\tsnippetfile1.txt\tpublic\troot\t${NOW}\n`))
    expect(await f.c.run(['snippet', 'list', '--public'])).toEqual(ok(`1\tMine\tsnippetfile1.txt\tpublic\troot\t${NOW}\n`))
    expect(await f.c.run(['snippet', 'raw', '1', '--personal'])).toEqual(ok('mine'))
    expect(await f.c.run(['snippet', 'delete', '1', '--personal', '--yes'])).toEqual(ok('', 'Deleted snippet 1 of your personal snippets\n'))
    expect(await f.c.run(['snippet', 'list', '--personal'])).toEqual(ok(''))
  })

  it("reports the server's refusals: a missing snippet, empty content, and nothing named to edit without a terminal", async () => {
    await project()
    const missing = await f.c.run(['snippet', 'view', '9', '-p', 'root/demo'])
    expect([missing.exitCode, missing.stdout]).toEqual([1, ''])
    expect(missing.stderr).toContain('404 Snippet Not Found')
    const empty = await f.c.run(['snippet', 'create', write('e.txt', ''), '-p', 'root/demo'])
    expect([empty.exitCode, empty.stderr.includes('content is empty')]).toEqual([1, true])
    expect((await f.root.get('/projects/root%2Fdemo/snippets')).body).toEqual([])
    await f.c.run(['snippet', 'create', write('k.txt', 'k'), '-p', 'root/demo'])
    const edit = await f.c.run(['snippet', 'edit', '1', '-p', 'root/demo'])
    expect([edit.exitCode, edit.stderr.includes('--content-file')]).toEqual([2, true])
  })
})
