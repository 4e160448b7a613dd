// Dynamic completion in real shells: bash, zsh (through a pseudo-terminal) and fish ask `collab __complete`, which asks
// the server once and then answers from its cache; zsh and fish tests are skipped where those shells are not installed.
import { spawnSync } from 'node:child_process'
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeEach, describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../helpers/api.js'
import { BIN, useServerAndCli } from './cli.js'
import { inTerminal } from './pty.js'

const t = useServerAndCli()
const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0
const script = (shell: string) => new URL(`../../completions/collab.${shell}`, import.meta.url).pathname

let env: Record<string, string>
beforeEach(async () => {
  const p = await createProject(t.root, { name: 'demo' })
  for (const title of ['Closed one', 'Open one', 'Open two']) expectStatus(await t.root.post(`/projects/${p.id}/issues`, { title }), 201)
  expectStatus(await t.root.put(`/projects/${p.id}/issues/1`, { state_event: 'close' }), 200)
  expectStatus(await t.root.post(`/projects/${p.id}/labels`, { name: 'bug', color: '#ff0000' }), 201)
  expectStatus(await t.root.post(`/projects/${p.id}/milestones`, { title: 'v1.0' }), 201)
  // `collab` on the PATH, as the README's set-up leaves it.
  const bin = join(t.c.configDir, 'bin')
  mkdirSync(bin)
  symlinkSync(BIN, join(bin, 'collab'))
  writeFileSync(join(t.c.configDir, 'README.md'), '')
  env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: t.c.configDir, COLLAB_CONFIG_DIR: t.c.configDir, TERM: 'xterm' }
})

/** COMPREPLY of the committed bash script for the line typed so far. */
async function bashTab(line: string): Promise<string[]> {
  const run = `source ${JSON.stringify(script('bash'))}; COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; _collab; printf '%s\\n' "\${COMPREPLY[@]}"`
  const { stdout } = await execa('bash', ['--norc', '-c', run], { env, extendEnv: false, cwd: t.c.configDir })
  return stdout.split('\n').filter(Boolean)
}

describe('bash', () => {
  it('completes open issue iids, projects, labels, milestones and usernames from the server', async () => {
    expect(await bashTab('collab issue view -p root/demo ')).toEqual(['3', '2'])
    expect(await bashTab('collab issue list -p ')).toEqual(['root/demo'])
    expect(await bashTab('collab issue list -p root/demo -l ')).toEqual(['bug'])
    expect(await bashTab('collab issue list -p root/demo --milestone=v')).toEqual(['v1.0'])
    expect(await bashTab('collab issue list -p root/demo --assignee ')).toEqual(['@me', 'root'])
    expect(await bashTab('collab issue list --state=')).toEqual(['opened', 'closed', 'all'])
  }, 60_000)

  it('answers from a 0600 cache on the next TAB, and offers nothing, silently, when the server is down', async () => {
    expect(await bashTab('collab issue view -p root/demo ')).toEqual(['3', '2'])
    expect(statSync(join(t.c.configDir, 'completion-cache.json')).mode & 0o777).toBe(0o600)
    expectStatus(await t.root.post('/projects/root%2Fdemo/issues', { title: 'Newer' }), 201)
    expect(await bashTab('collab issue view -p root/demo ')).toEqual(['3', '2'])
    const down = await execa('node', [BIN, '__complete', 'issue', 'view', '--host', 'http://127.0.0.1:9', '-p', 'root/x', ''], { env, extendEnv: false, reject: false })
    expect([down.exitCode, down.stdout, down.stderr]).toEqual([0, '', ''])
  }, 60_000)
})

describe.skipIf(!installed('fish'))('fish', () => {
  const fishTab = async (line: string) => (await execa('fish', ['--no-config', '-c', `source ${script('fish')}; complete -C ${JSON.stringify(line)}`], {
    env, extendEnv: false, cwd: t.c.configDir,
  })).stdout.split('\n').filter(Boolean)

  it('completes issue iids with their titles, --state=, and file names after -F', async () => {
    expect(await fishTab('collab issue view -p root/demo ')).toEqual(['2\tOpen one', '3\tOpen two'])
    expect(await fishTab('collab issue list --state=c')).toEqual(['--state=closed'])
    expect(await fishTab('collab issue note add 2 -F READ')).toEqual(['README.md'])
  }, 60_000)
})

describe.skipIf(!installed('zsh') || !installed('script'))('zsh', () => {
  /** What zsh lists for a TAB, read off a real terminal once it shows `last` (the list's last entry). */
  async function zshTab(line: string, last: string): Promise<string> {
    const rc = join(t.c.configDir, 'zshrc')
    const fpath = join(t.c.configDir, 'fpath')
    mkdirSync(fpath, { recursive: true })
    writeFileSync(join(fpath, '_collab'), (await execa('node', [BIN, 'completion', 'zsh'], { env, extendEnv: false })).stdout)
    writeFileSync(rc, `PS1='> '\nfpath=(${fpath} $fpath)\nautoload -Uz compinit; compinit -u -D\nzstyle ':completion:*' menu no\n`)
    // zsh -f's own prompt ends in % or #; the rc file's is '> '.
    const screen = await inTerminal('zsh -f -i', [[/[%#] /, `source ${rc}\n`], ['> ', `${line}\t`], [last, '\u0015exit\n']], { env, cwd: t.c.configDir })
    return screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
  }

  it('lists the values of --state without a stray --, and open issues with their titles', async () => {
    const states = await zshTab('collab issue list --state ', 'opened')
    expect(states).toMatch(/all\s+closed\s+opened/)
    // The old script listed `all  closed  opened  --`: an empty description drawn as a lone separator.
    expect(states).not.toMatch(/(opened|closed|all)\s+--(\s|$)/)
    const issues = await zshTab('collab issue view -p root/demo ', 'Open two')
    expect(issues).toMatch(/2\s+-- Open one/)
    expect(issues).toMatch(/3\s+-- Open two/)
  }, 60_000)
})
