// collab project download against a real server, through the built CLI: the archive saved under the server's name or
// -o, opened with tar and unzip, and no progress bar when piped.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'

const f = useServerAndCli()

async function demo() {
  const p = expectStatus(await f.root.post('/projects', { name: 'demo' }), 201).body
  const c = expectStatus(await f.root.post(`/projects/${p.id}/repository/commits`, {
    branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'src/a.txt', content: 'a\n' }, { action: 'create', file_path: 'README.md', content: 'r\n' }],
  }), 201).body
  return c.id as string
}

describe('collab project download', () => {
  it('hands its flags over and refuses a format the server does not make', async () => {
    expect((await optionsOf(['project', 'download', 'root/demo', '-f', 'zip', '--sha', 'v1', '--path', 'src', '-o', 'x.zip'])).options)
      .toEqual({ project: 'root/demo', format: 'zip', sha: 'v1', path: 'src', output: 'x.zip' })
    const bad = await parse(['project', 'download', '-f', 'rar'])
    expect([bad.exitCode, bad.stderr.split('\n')[0]]).toEqual([2, "error: option '-f, --format <format>' argument 'rar' is invalid. Allowed choices are tar.gz, tar.bz2, tbz, tbz2, tb2, bz2, tar, zip."])
  })

  it("saves a tar.gz under the server's file name, and a zip of one directory where -o says", async () => {
    const sha = await demo()
    expect(await f.c.run(['project', 'download', 'root/demo'])).toEqual(ok('', `Saved the archive of root/demo to demo-main-${sha}.tar.gz\n`))
    const tgz = join(f.c.configDir, `demo-main-${sha}.tar.gz`)
    expect(execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' })).toBe(`demo-main-${sha}/\ndemo-main-${sha}/README.md\ndemo-main-${sha}/src/\ndemo-main-${sha}/src/a.txt\n`)
    expect(await f.c.run(['project', 'download', 'root/demo', '-f', 'zip', '--path', 'src', '-o', 'out/src.zip'])).toEqual(ok('', 'Saved the archive of root/demo to out/src.zip\n'))
    expect(execFileSync('unzip', ['-p', join(f.c.configDir, 'out/src.zip'), `demo-main-${sha}-src/src/a.txt`], { encoding: 'utf8' })).toBe('a\n')
  })

  it("passes on the server's 404 and writes nothing", async () => {
    await demo()
    expect(await f.c.run(['project', 'download', 'root/demo', '--sha', 'nope', '-o', 'x.tgz'])).toEqual({ stdout: '', stderr: 'error: 404 Not Found\n', exitCode: 1 })
    expect(existsSync(join(f.c.configDir, 'x.tgz'))).toBe(false)
  })
})
