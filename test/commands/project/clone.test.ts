// collab project clone: the real git command line clones over collab's HTTP with the CLI's token, and leaves no token behind.
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { gitAuthEnv } from '../../../commands/project/clone.js'
import { createProject, createUser } from '../../helpers/api.js'
import { BIN, cli, ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

/** No system or global git configuration, no prompts: only what the CLI hands git. */
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }

const git = async (cwd: string, ...args: string[]) =>
  (await execa('git', args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: t.c.configDir, ...GIT_ENV }, extendEnv: false })).stdout

/** Every file under a directory, for searching a clone for the token. */
function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? allFiles(path) : [path]
  })
}

/** A project whose two commits were made with `collab commit create`. */
async function projectWithCommits(): Promise<string[]> {
  await createProject(t.root, { name: 'demo' })
  writeFileSync(join(t.c.configDir, 'README.md'), '# demo\n')
  writeFileSync(join(t.c.configDir, 'notes.txt'), 'notes\n')
  const first = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'master', '-m', 'Add README', '--create', 'README.md'])
  const second = await t.c.run(['commit', 'create', '-p', 'root/demo', '-b', 'topic', '--start-branch', 'master', '-m', 'Add notes', '--create', 'notes.txt'])
  return [first.stdout.trim(), second.stdout.trim()]
}

describe('project clone', () => {
  it('clones with git into the project\'s directory; origin is the clean URL and git log shows the commits', async () => {
    const [first] = await projectWithCommits()
    const result = await t.c.run(['project', 'clone', 'root/demo'], { env: GIT_ENV })
    expect(result).toEqual(ok('', `Cloning into 'demo'...\ngit push in demo uses collab's stored token (credential helper set for ${t.server.url})\n`))
    const dir = join(t.c.configDir, 'demo')
    expect(await git(dir, 'remote', 'get-url', 'origin')).toBe(`${t.server.url}/root/demo.git`)
    expect(await git(dir, 'log', '--format=%H %s')).toBe(`${first} Add README`)
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# demo\n')
    expect(await git(dir, 'config', '--list', '--local')).not.toMatch(/extraheader|Authorization/i)
    const leaked = allFiles(join(dir, '.git')).filter((file) => readFileSync(file).includes(t.server.rootToken))
    expect(leaked).toEqual([])
  })

  it('clones a branch into a given directory, the project given by URL', async () => {
    const [first, second] = await projectWithCommits()
    const result = await t.c.run(['project', 'clone', `${t.server.url}/root/demo`, 'work/copy', '--branch', 'topic'], { env: GIT_ENV })
    expect(result).toEqual(ok('', `Cloning into 'work/copy'...\ngit push in work/copy uses collab's stored token (credential helper set for ${t.server.url})\n`))
    expect(await git(join(t.c.configDir, 'work', 'copy'), 'log', '--format=%H %s')).toBe(`${second} Add notes\n${first} Add README`)
  })

  it('clones a private project of another user only with a token that may read it', async () => {
    const alice = await createUser(t.server, 'alice')
    await createProject(alice.api, { name: 'secret', visibility: 'private' })
    expect(await t.c.run(['project', 'clone', 'alice/secret'], { env: { ...GIT_ENV, COLLAB_TOKEN: alice.token } })).toEqual(ok('', `Cloning into 'secret'...\nwarning: You appear to have cloned an empty repository.\ngit push in secret uses collab's stored token (credential helper set for ${t.server.url})\n`))
    const bob = await createUser(t.server, 'bob')
    expect(await t.c.run(['project', 'clone', 'alice/secret', 'other'], { env: { ...GIT_ENV, COLLAB_TOKEN: bob.token } }))
      .toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: alice/secret\n', exitCode: 1 })
  })

  it('clones a public project without a login, given by URL; a private one is not found', async () => {
    const [first] = await projectWithCommits()
    expect((await t.root.put('/projects/root%2Fdemo', { visibility: 'public' })).status).toBe(200)
    await createProject(t.root, { name: 'hidden', visibility: 'private' })
    const anonymous = cli()
    try {
      expect(await anonymous.run(['project', 'clone', `${t.server.url}/root/demo`], { env: GIT_ENV })).toEqual(ok('', "Cloning into 'demo'...\n"))
      expect((await execa('git', ['log', '--format=%H'], { cwd: join(anonymous.configDir, 'demo') })).stdout).toBe(first)
      expect(await anonymous.run(['project', 'clone', `${t.server.url}/root/hidden`], { env: GIT_ENV }))
        .toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: root/hidden\n', exitCode: 1 })
    } finally {
      anonymous.cleanup()
    }
  })

  it('fails with exit 1 when git fails, after git says why', async () => {
    await projectWithCommits()
    mkdirSync(join(t.c.configDir, 'demo'))
    writeFileSync(join(t.c.configDir, 'demo', 'taken'), '')
    expect(await t.c.run(['project', 'clone', 'root/demo'], { env: GIT_ENV })).toEqual({
      stdout: '',
      stderr: "fatal: destination path 'demo' already exists and is not an empty directory.\nerror: git clone of root/demo failed (exit code 128)\n",
      exitCode: 1,
    })
  })
})

describe('git push in a clone', () => {
  it('pushes with the stored token through the credential helper that clone set, with collab on the PATH', async () => {
    await projectWithCommits()
    const bin = join(t.c.configDir, 'bin')
    mkdirSync(bin)
    symlinkSync(BIN, join(bin, 'collab'))
    const env = { ...GIT_ENV, PATH: `${bin}:${process.env.PATH ?? ''}` }
    await t.c.run(['project', 'clone', 'root/demo'], { env })
    const dir = join(t.c.configDir, 'demo')
    const run = (...args: string[]) => execa('git', args, { cwd: dir, env: { ...env, HOME: t.c.configDir, COLLAB_CONFIG_DIR: t.c.configDir }, extendEnv: false, reject: false })
    await run('-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '--allow-empty', '-m', 'Pushed')
    const push = await run('push', 'origin', 'HEAD:master')
    expect([push.exitCode, push.stderr]).toEqual([0, expect.stringContaining('HEAD -> master')])
    expect((await t.root.get('/projects/root%2Fdemo/repository/commits/master')).body.title).toBe('Pushed')
  })
})

describe('project clone without git', () => {
  it('fails with exit 1 and says git is missing', async () => {
    await createProject(t.root, { name: 'demo' })
    const bin = join(t.c.configDir, 'bin')
    mkdirSync(bin)
    symlinkSync(process.execPath, join(bin, 'node'))
    expect(await t.c.run(['project', 'clone', 'root/demo'], { env: { PATH: bin } })).toEqual({
      stdout: '', stderr: 'error: git is not installed or not on the PATH\nhint: install git, then run the command again\n', exitCode: 1,
    })
  })
})

describe('gitAuthEnv', () => {
  it('scopes a Basic header to the repository URL, oauth2 for tokens and gitlab-ci-token for job tokens, after the caller\'s entries', () => {
    const url = 'http://h:1/g/p.git'
    expect(gitAuthEnv({}, url, { token: 't0k', header: 'PRIVATE-TOKEN' })).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.http://h:1/g/p.git.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from('oauth2:t0k').toString('base64')}`,
    })
    expect(gitAuthEnv({ GIT_CONFIG_COUNT: '2' }, url, { token: 'j0b', header: 'JOB-TOKEN' })).toEqual({
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_2: 'http.http://h:1/g/p.git.extraHeader',
      GIT_CONFIG_VALUE_2: `Authorization: Basic ${Buffer.from('gitlab-ci-token:j0b').toString('base64')}`,
    })
  })
})
