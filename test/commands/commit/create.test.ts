// collab commit create: file actions from flags and actions files, against a real repository; read back through the API.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { catFile, commit, create } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

/** Local files in the CLI's working directory. */
function files(contents: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(contents)) writeFileSync(join(t.c.configDir, name), content)
}

const fileOf = async (id: number, path: string, ref = 'master') =>
  expectStatus(await t.root.get(`/projects/${id}/repository/files/${encodeURIComponent(path)}`, { query: { ref } }), 200).body

const treeOf = async (id: number, ref = 'master') =>
  expectStatus(await t.root.get(`/projects/${id}/repository/tree`, { query: { ref, recursive: true } }), 200).body
    .map((e: { path: string; mode: string }) => `${e.mode} ${e.path}`)

/** A project whose master holds README.md and a.txt, committed through the API. */
async function seeded() {
  const p = await createProject(t.root, { name: 'demo' })
  const first = await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('README.md', '# demo\n'), create('a.txt', 'a\n')] })
  return { p, first }
}

const FIRST = '0a962384d78cb7fef07c38f369c5405089f31a9e'

describe('commit create', () => {
  it('creates the first commit of an empty project from a local file and prints its SHA', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    files({ 'readme.local': '# demo\n' })
    expect(await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Add README', '--create', 'README.md=readme.local']))
      .toEqual(ok(`${FIRST}\n`, 'Created commit 0a962384 on master\n'))
    const c = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/master`), 200).body
    expect([c.id, c.title, c.author_name, c.stats]).toEqual([FIRST, 'Add README', 'Administrator', { additions: 1, deletions: 0, total: 1 }])
    expect(Buffer.from((await fileOf(p.id, 'README.md')).content, 'base64').toString()).toBe('# demo\n')
  })

  it('applies repeated and mixed action flags in the order given', async () => {
    const { p } = await seeded()
    files({ 'new.txt': 'new\n', 'readme.v2': '# demo v2\n' })
    // Created, then moved: only this order works, so the commit proves the order was kept.
    const result = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Shuffle',
      '--create', 'docs/new.txt=new.txt', '--move', 'docs/new.txt:docs/moved.txt', '--update', 'README.md=readme.v2', '--delete', 'a.txt', '--create', 'new.txt'])
    expect(result.exitCode).toBe(0)
    expect(await treeOf(p.id)).toEqual(['040000 docs', '100644 README.md', '100644 docs/moved.txt', '100644 new.txt'])
    expect(Buffer.from((await fileOf(p.id, 'README.md')).content, 'base64').toString()).toBe('# demo v2\n')
    expect(Buffer.from((await fileOf(p.id, 'docs/moved.txt')).content, 'base64').toString()).toBe('new\n')
  })

  it('sends binary files as base64 so their bytes arrive unchanged, and sets the executable bit with --chmod', async () => {
    const { p } = await seeded()
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80])
    files({ 'logo.png': bytes, 'run.sh': '#!/bin/sh\necho hi\n' })
    const result = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Binary and script',
      '--create', 'logo.png', '--create', 'run.sh', '--chmod', 'run.sh=+x'])
    expect(result.exitCode).toBe(0)
    expect((await fileOf(p.id, 'logo.png')).content).toBe(bytes.toString('base64'))
    expect(await treeOf(p.id)).toEqual(['100644 README.md', '100644 a.txt', '100644 logo.png', '100755 run.sh'])
  })

  it('reads actions in the API format from stdin, before the flags\' actions, on a new branch with another author', async () => {
    const { p, first } = await seeded()
    files({ 'b.txt': 'b\n' })
    const actions = JSON.stringify({ actions: [{ action: 'update', file_path: 'a.txt', content: 'YQo=\nYQo=', encoding: 'text' }] })
    const result = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'topic', '--start-branch', 'master', '-m', 'From a file',
      '--actions-file', '-', '--create', 'b.txt', '--author-name', 'Ann Author', '--author-email', 'ann@example.com'], { input: actions })
    expect([result.exitCode, result.stderr]).toEqual([0, `Created commit ${result.stdout.slice(0, 8)} on topic\n`])
    const c = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/topic`), 200).body
    expect([c.id, c.parent_ids, c.author_name, c.author_email, c.committer_name]).toEqual([result.stdout.trim(), [first.id], 'Ann Author', 'ann@example.com', 'Administrator'])
    expect(Buffer.from((await fileOf(p.id, 'a.txt', 'topic')).content, 'base64').toString()).toBe('YQo=\nYQo=')
    expect(catFile(t.server, p.id, c.id)).toContain('\nauthor Ann Author <ann@example.com> ')
  })

  it('prints the created commit as the API returned it with --json', async () => {
    await seeded()
    files({ 'c.txt': 'c\n' })
    const result = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Add c', '--create', 'c.txt', '--json'])
    const body = JSON.parse(result.stdout)
    expect([result.exitCode, body.title, body.stats, body.status]).toEqual([0, 'Add c', { additions: 1, deletions: 0, total: 1 }, null])
    expect(body).toEqual(expectStatus(await t.root.get(`/projects/root%2Fdemo/repository/commits/${body.id}`), 200).body)
  })

  it('fails with exit 1 and the API message when a file to create exists, and writes nothing', async () => {
    const { p, first } = await seeded()
    files({ 'a.txt': 'again\n' })
    expect(await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Again', '--create', 'a.txt']))
      .toEqual({ stdout: '', stderr: 'error: A file with this name already exists: a.txt (HTTP 400)\n', exitCode: 1 })
    expect(expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/master`), 200).body.id).toBe(first.id)
  })

  it.each([
    [['--create', 'nope.txt'], "error: --create: cannot read 'nope.txt': no such file\n"],
    [['--actions-file', 'nope.json'], "error: --actions-file: cannot read 'nope.json': no such file\n"],
    [['--actions-file', '-'], 'error: --actions-file: stdin is not JSON: Unexpected end of JSON input\n'],
    [[], 'error: nothing to commit\nhint: pass --create, --update, --delete, --move, --chmod or --actions-file\n'],
  ])('fails with exit 2 before any request for %j', async (flags, stderr) => {
    expect(await t.c.run(['commit', 'create', '-p', 'root/nope', '-b', 'master', '-m', 'x', ...flags])).toEqual({ stdout: '', stderr, exitCode: 2 })
  })

  it('fails with exit 2 naming -m when there is no message and nobody to ask', async () => {
    await seeded()
    expect(await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '--delete', 'a.txt']))
      .toEqual({ stdout: '', stderr: 'error: -m/--message is required when not running interactively\n', exitCode: 2 })
  })
})
