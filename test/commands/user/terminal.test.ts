// collab user at a real terminal (util-linux `script`): the list as a table with the state coloured, and create asking
// for what its flags did not say.
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { createUser, expectStatus } from '../../helpers/api.js'
import { BIN, useServerAndCli } from '../cli.js'
import { plain, runInTerminal, type Step } from '../pty.js'

const t = useServerAndCli()
const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0

const collab = (args: string, steps: Step[] = []) => runInTerminal(`stty cols 120 rows 40; node ${BIN} ${args}`, steps, {
  env: { PATH: process.env.PATH ?? '', HOME: t.c.configDir, COLLAB_CONFIG_DIR: t.c.configDir, TERM: 'xterm' }, cwd: t.c.configDir,
})

describe.skipIf(!hasScript)('collab user on a terminal', () => {
  it('lists users in a table, a blocked one in red', async () => {
    const alice = await createUser(t.server, 'alice')
    expectStatus(await t.root.post(`/users/${alice.id}/block`), 201)
    const run = await collab('user list')
    expect(run.exitCode).toBe(0)
    const lines = plain(run.screen).split('\n').map((l) => l.trimEnd())
    expect(lines[0]).toMatch(/^ID\s+USERNAME\s+NAME\s+STATE\s+EMAIL\s+ADMIN\s+CREATED$/)
    expect(lines[1]).toMatch(/^2\s+alice\s+User alice\s+blocked\s+alice@example\.com\s+false\s+/)
    expect(run.screen).toContain('\u001b[31mblocked')
  }, 60_000)

  it('asks for the username, email and password that create was not given', async () => {
    const run = await collab('user create --name Zed', [['Username', 'zed\r'], ['Email', 'zed@example.org\r'], ['Password', 'zed-password-1\r']])
    expect(plain(run.screen)).toContain('Created user zed (id 2)')
    const zed = expectStatus(await t.root.get('/users/2'), 200).body
    expect([zed.username, zed.email, zed.name]).toEqual(['zed', 'zed@example.org', 'Zed'])
  }, 60_000)
})
