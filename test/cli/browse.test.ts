// collab browse against a real server, through the built CLI: the project, an issue, a merge request and files
// (lines, ranges, directories, branches, paths from a subdirectory of a clone), --no-browser, and bad input.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { expectStatus } from '../helpers/api.js'
import { ok, useServerAndCli } from '../commands/cli.js'
import { fakeBrowser, type FakeBrowser } from './browser-fixture.js'

const f = useServerAndCli()
const p = ['-p', 'root/demo']
let browser: FakeBrowser
let web: string

beforeEach(async () => {
  expectStatus(await f.root.post('/projects', { name: 'demo', initialize_with_readme: true }), 201)
  web = `${f.server.url}/root/demo`
  browser = fakeBrowser(f.c)
})

/** Piped, the URL is printed and $BROWSER opens it: both must name the same page. */
async function opens(args: string[], url: string, cwd?: string) {
  expect(await f.c.run(['browse', ...args], { env: browser.env, cwd })).toEqual(ok(`${url}\n`, `Opening ${url} in your browser.\n`))
  expect(await browser.opened()).toEqual([url])
}

describe('collab browse', () => {
  it('opens the project page', () => opens(p, web))
  it('opens an issue by number', () => opens(['12', ...p], `${web}/-/issues/12`))
  it('opens a merge request by !number', () => opens(['!3', ...p], `${web}/-/merge_requests/3`))
  it('opens a file on the default branch at a line', () => opens(['src/app.ts:10', ...p], `${web}/-/blob/main/src/app.ts#L10`))
  it('opens a line range on another branch, encoding odd names', () =>
    opens(['docs/a b#c.md:3-7', '-b', 'feature/x', ...p], `${web}/-/blob/feature/x/docs/a%20b%23c.md#L3-7`))
  it('opens a directory as a tree', () => opens(['docs/', ...p], `${web}/-/tree/main/docs`))

  it('prints the URL without opening anything with --no-browser', async () => {
    expect(await f.c.run(['browse', '7', '--no-browser', ...p], { env: browser.env })).toEqual(ok(`${web}/-/issues/7\n`))
    expect(await f.c.run(['browse', '-n', ...p])).toEqual(ok(`${web}\n`))
    expect(await browser.opened(1, 500)).toEqual([])
  })

  it('prints the URL only when piped without $BROWSER', async () => {
    expect(await f.c.run(['browse', 'README.md', ...p])).toEqual(ok(`${web}/-/blob/main/README.md\n`))
  })

  it('takes paths from the current directory of a clone, and the project from its remote', async () => {
    const repo = join(f.c.configDir, 'clone')
    mkdirSync(join(repo, '.git'), { recursive: true })
    mkdirSync(join(repo, 'src', 'lib'), { recursive: true })
    writeFileSync(join(repo, '.git', 'config'), `[remote "origin"]\n\turl = ${f.server.url}/root/demo.git\n`)
    await opens(['app.ts:2'], `${web}/-/blob/main/src/app.ts#L2`, join(repo, 'src'))
    expect(await f.c.run(['browse', '../README.md', '-n'], { cwd: join(repo, 'src') })).toEqual(ok(`${web}/-/blob/main/README.md\n`))
    expect(await f.c.run(['browse', 'lib', '-n'], { cwd: join(repo, 'src') })).toEqual(ok(`${web}/-/tree/main/src/lib\n`))
    expect(await f.c.run(['browse', '.', '-n'], { cwd: repo })).toEqual(ok(`${web}/-/tree/main\n`))
    const outside = await f.c.run(['browse', '../../x', '-n'], { cwd: join(repo, 'src') })
    expect(outside).toEqual({ stdout: '', stderr: 'error: ../../x is outside the repository\n', exitCode: 2 })
  })

  it('fails with the server\'s 404 for an unknown project', async () => {
    const res = await f.c.run(['browse', '-p', 'root/nothing'], { env: browser.env })
    expect([res.exitCode, res.stdout]).toEqual([1, ''])
    expect(res.stderr).toContain('404')
    expect(await browser.opened(1, 500)).toEqual([])
  })
})
