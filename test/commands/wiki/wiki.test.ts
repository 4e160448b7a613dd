// collab wiki against a real server, piped: list, view (raw content, --json), create and edit from files and stdin,
// delete, upload (the markdown link), clone; refusals with their exit codes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'

const f = useServerAndCli()
const p = ['-p', 'root/handbook']

async function project() {
  return expectStatus(await f.root.post('/projects', { name: 'handbook' }), 201).body
}

describe('collab wiki create, list, view', () => {
  it('creates pages from --content, a file and stdin, lists them tab-separated and views the raw content', async () => {
    const { id } = await project()
    expect(await f.c.run(['wiki', 'create', '-t', 'Home', '-c', '# Home\nhello\n', ...p])).toEqual(ok('Home\n', 'Created wiki page Home in root/handbook\n'))
    const file = join(f.c.configDir, 'install.adoc')
    writeFileSync(file, '= Install\n')
    expect(await f.c.run(['wiki', 'create', '--title', 'guides/Install Guide', '--content-file', file, '--format', 'asciidoc', ...p]))
      .toEqual(ok('guides/Install-Guide\n', 'Created wiki page guides/Install-Guide in root/handbook\n'))
    expect(await f.c.run(['wiki', 'new', '-t', 'Notes', '-F', '-', ...p], { input: 'from stdin' })).toEqual(ok('Notes\n', 'Created wiki page Notes in root/handbook\n'))

    expect(await f.c.run(['wiki', 'list', ...p])).toEqual(ok('Home\tHome\tmarkdown\nNotes\tNotes\tmarkdown\nguides/Install-Guide\tInstall Guide\tasciidoc\n'))
    expect(await f.c.run(['wiki', 'view', 'guides/Install-Guide', ...p])).toEqual(ok('= Install\n'))
    expect(await f.c.run(['wiki', 'view', 'notes', ...p])).toEqual(ok('from stdin'))
    const body = expectStatus(await f.root.get(`/projects/${id}/wikis/Home`), 200).text
    expect(await f.c.run(['wiki', 'view', 'Home', '--json', ...p])).toEqual(ok(`${body}\n`))
    expect(await f.c.run(['__complete', 'wiki', 'view', ...p, ''])).toEqual(ok('Home\tHome\nNotes\tNotes\nguides/Install-Guide\tInstall Guide\n'))
    expect(await f.c.run(['__complete', 'wiki', 'edit', ...p, 'gui'])).toEqual(ok('guides/Install-Guide\tInstall Guide\n'))
    const list = expectStatus(await f.root.get(`/projects/${id}/wikis`, { query: { with_content: 'true' } }), 200).text
    expect(await f.c.run(['wiki', 'ls', '--with-content', '--json', ...p])).toEqual(ok(`${list}\n`))
  })

  it('fails naming the flag when piped without a title or content, and with the server\'s message on a duplicate', async () => {
    await project()
    const noTitle = await f.c.run(['wiki', 'create', '-c', 'x', ...p])
    expect([noTitle.exitCode, noTitle.stdout]).toEqual([2, ''])
    expect(noTitle.stderr).toContain('--title')
    const noContent = await f.c.run(['wiki', 'create', '-t', 'x', ...p])
    expect([noContent.exitCode, noContent.stdout]).toEqual([2, ''])
    expect(noContent.stderr).toContain('--content-file')
    expect((await f.c.run(['wiki', 'create', '-t', 'Home', '-c', 'x', ...p])).exitCode).toBe(0)
    const dup = await f.c.run(['wiki', 'create', '-t', 'HOME', '-c', 'y', ...p])
    expect([dup.exitCode, dup.stdout]).toEqual([1, ''])
    expect(dup.stderr).toContain('Duplicate page: A page with that title already exists in the file Home.md')
    const format = await f.c.run(['wiki', 'create', '-t', 'y', '-c', 'y', '--format', 'html', ...p])
    expect([format.exitCode, format.stderr]).toEqual([2, expect.stringContaining('Allowed choices are markdown, rdoc, asciidoc, org.')])
    const missing = await f.c.run(['wiki', 'view', 'nope', ...p])
    expect([missing.exitCode, missing.stdout, missing.stderr]).toEqual([1, '', expect.stringContaining('404 Wiki Page Not Found')])
  })
})

describe('collab wiki edit and delete', () => {
  it('replaces the content from stdin, moves the page with --title, and refuses an edit with nothing to change', async () => {
    await project()
    await f.c.run(['wiki', 'create', '-t', 'docs/Draft', '-c', 'v1', ...p])
    expect(await f.c.run(['wiki', 'edit', 'docs/Draft', '-F', '-', ...p], { input: 'v2' })).toEqual(ok('docs/Draft\n', 'Updated wiki page docs/Draft in root/handbook\n'))
    expect(await f.c.run(['wiki', 'edit', 'docs/Draft', '--title', 'Final', ...p]))
      .toEqual(ok('docs/Final\n', 'Updated wiki page docs/Draft, now docs/Final, in root/handbook\n'))
    expect(await f.c.run(['wiki', 'view', 'docs/Final', ...p])).toEqual(ok('v2'))
    const nothing = await f.c.run(['wiki', 'edit', 'docs/Final', ...p])
    expect(nothing).toEqual({ stdout: '', exitCode: 2, stderr: "error: nothing to change\nhint: pass --content-file, --content, --title or --format; see 'collab wiki edit --help'\n" })
  })

  it('deletes with --yes, and asks for --yes when piped', async () => {
    await project()
    await f.c.run(['wiki', 'create', '-t', 'Old', '-c', 'x', ...p])
    const asked = await f.c.run(['wiki', 'delete', 'Old', ...p])
    expect([asked.exitCode, asked.stderr]).toEqual([2, expect.stringContaining('--yes')])
    expect(await f.c.run(['wiki', 'delete', 'Old', '--yes', ...p])).toEqual(ok('', 'Deleted wiki page Old in root/handbook\n'))
    expect(await f.c.run(['wiki', 'list', ...p])).toEqual(ok(''))
  })
})

describe('collab wiki upload and clone', () => {
  it('uploads a file and prints its markdown link; the clone has the file and the pages', async () => {
    await project()
    await f.c.run(['wiki', 'create', '-t', 'Home', '-c', 'welcome', ...p])
    const png = join(f.c.configDir, 'shot.png')
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13])
    writeFileSync(png, bytes)
    const up = await f.c.run(['wiki', 'upload', png, ...p])
    const path = /^!\[shot\]\((uploads\/[0-9a-f]{32}\/shot\.png)\)\n$/.exec(up.stdout)?.[1]
    expect(path, up.stdout + up.stderr).toBeDefined()
    expect(up.stderr).toBe(`Uploaded shot.png to ${path} on master in the wiki of root/handbook\n`)

    const cloned = await f.c.run(['wiki', 'clone', 'root/handbook', 'wiki-copy'])
    expect(cloned.exitCode, cloned.stderr).toBe(0)
    const dir = join(f.c.configDir, 'wiki-copy')
    expect(readFileSync(join(dir, 'Home.md'), 'utf8')).toBe('welcome')
    expect(readFileSync(join(dir, path!)).equals(bytes)).toBe(true)
    expect(existsSync(join(dir, '.git'))).toBe(true)
  })

  it('refuses a file it cannot read before calling the server', async () => {
    const res = await f.c.run(['wiki', 'upload', 'no-such-file.png', ...p])
    expect([res.exitCode, res.stdout, res.stderr]).toEqual([2, '', expect.stringContaining('cannot read no-such-file.png')])
  })
})
