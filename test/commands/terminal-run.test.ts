// What a person at a real terminal sees (util-linux `script` gives the CLI a pseudo-terminal): prompts and Ctrl-C, the
// editor setting, colours, widths and hints of lists, pretty JSON, and the request log of collab serve.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../helpers/api.js'
import { BIN, useServerAndCli } from './cli.js'
import { plain, runInTerminal, type Step } from './pty.js'

const t = useServerAndCli()
const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0
const ESC = '\u001b['

let env: Record<string, string>
beforeEach(async () => {
  env = { PATH: process.env.PATH ?? '', HOME: t.c.configDir, COLLAB_CONFIG_DIR: t.c.configDir, COLLAB_NO_KEYRING: '1', TERM: 'xterm' }
  const p = await createProject(t.root, { name: 'demo' })
  const long = 'A title long enough to wrap every row of a sixty column terminal if nobody cut it'
  for (const title of ['Closed', long, 'Short']) expectStatus(await t.root.post(`/projects/${p.id}/issues`, { title }), 201)
  expectStatus(await t.root.put(`/projects/${p.id}/issues/1`, { state_event: 'close' }), 200)
})

/** `collab …` on a terminal of `cols` columns. */
const collab = (args: string, steps: Step[] = [], cols = 80, extra: Record<string, string> = {}) =>
  runInTerminal(`stty cols ${cols} rows 40; node ${BIN} ${args}`, steps, { env: { ...env, ...extra }, cwd: t.c.configDir })

describe.skipIf(!hasScript)('prompts', () => {
  it('Ctrl-C at a prompt cancels quietly with exit code 130', async () => {
    const run = await collab('issue create -p root/demo', [['Title', '\u0003']])
    expect(run.exitCode).toBe(130)
    expect(plain(run.screen)).toContain('Title')
    expect(plain(run.screen)).not.toMatch(/ExitPromptError|error:|\s+at /)
  }, 60_000)

  it('checks the project before asking anything, so nothing typed is lost', async () => {
    // Typed at once, before any prompt could be drawn.
    const run = await collab('issue create -p root/nope', [['', 'Typed\r']])
    expect(run.exitCode).toBe(1)
    expect(plain(run.screen)).toContain('error: 404 Project Not Found: root/nope\n')
    expect(plain(run.screen)).not.toContain('Title')
  }, 60_000)

  it('opens the editor of the editor setting for the description, after the title', async () => {
    const editor = join(t.c.configDir, 'fake-editor.sh')
    writeFileSync(editor, '#!/bin/sh\nprintf "Written in the editor\\n" > "$1"\n')
    chmodSync(editor, 0o755)
    expect((await t.c.run(['config', 'set', 'editor', editor])).exitCode).toBe(0)
    // Title, then Enter on "Edit it in the editor", then Enter on "Submit".
    const run = await collab('issue create -p root/demo', [['Title', 'From a terminal\r'], ['Skip it', '\r'], ['Submit', '\r']], 80, { EDITOR: 'false' })
    expect(run.exitCode).toBe(0)
    expect(plain(run.screen)).toContain("What's next?")
    const created = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/4'), 200).body
    expect([created.title, created.description]).toEqual(['From a terminal', 'Written in the editor'])
  }, 60_000)

  it('asks before the editor: skip leaves the description empty and opens no editor; cancel creates nothing', async () => {
    // The editor would fail: skipping must not start it.
    const skipped = await collab('issue create -p root/demo', [['Title', 'Skipped\r'], ['Skip it', '\u001b[B\r'], ['Submit', '\r']], 80, { EDITOR: 'false' })
    expect(skipped.exitCode).toBe(0)
    const created = expectStatus(await t.root.get('/projects/root%2Fdemo/issues/4'), 200).body
    expect([created.title, created.description]).toEqual(['Skipped', null])
    const cancelled = await collab('issue create -p root/demo', [['Title', 'Cancelled\r'], ['Skip it', '\u001b[B\r'], ['Cancel', '\u001b[B\u001b[B\r']], 80, { EDITOR: 'false' })
    expect(cancelled.exitCode).toBe(1)
    expect(plain(cancelled.screen)).toContain('error: cancelled: nothing was created')
    expect((await t.root.get('/projects/root%2Fdemo/issues/5')).status).toBe(404)
  }, 60_000)
})

describe.skipIf(!hasScript)('lists and JSON on a terminal', () => {
  it('cuts rows to the terminal width, colours the state, says how long ago and how many more there are', async () => {
    const run = await collab('issue list -p root/demo --per-page 1', [], 60)
    const screen = plain(run.screen)
    const lines = screen.split('\n').filter(Boolean)
    // LABELS and ASSIGNEES are empty in every row: left out, the title keeps their width.
    expect(lines[0]).toMatch(/^IID\s+STATE\s+TITLE\s+UPDATED$/)
    expect(lines[1]).toMatch(/^#3\s+opened\s+Short\s+\d+ years? ago$/)
    expect(lines[2]).toBe('Showing 1 of 2 issues in root/demo; --all shows every page')
    expect(run.screen).toContain(`${ESC}32mopened${ESC}39m`)
    const wide = plain((await collab('issue list -p root/demo', [], 60)).screen).split('\n').filter(Boolean)
    expect(wide.map((line) => line.length <= 60)).toEqual(wide.map(() => true))
    expect(wide[2]).toMatch(/^#2\s+opened\s+A title long enough.*…\s+\d+ years? ago$/)
  }, 60_000)

  it('prints no colour with NO_COLOR, and says when nothing matches', async () => {
    const run = await collab('issue list -p root/demo --search nothing-like-this', [], 80, { NO_COLOR: '1' })
    expect([run.exitCode, run.screen.replace(/\r/g, '')]).toEqual([0, 'No issues in root/demo match.\n'])
    expect((await collab('issue list -p root/demo', [], 80, { NO_COLOR: '1' })).screen).not.toContain(ESC)
  }, 60_000)

  it('indents and colours --json on a terminal', async () => {
    const run = await collab('issue view 3 -p root/demo --json')
    expect(plain(run.screen)).toMatch(/^\{\n {2}"id": \d+,\n {2}"iid": 3,\n/)
    expect(run.screen).toContain(`${ESC}34m"iid"${ESC}39m: ${ESC}33m3${ESC}39m`)
    const api = await collab('api /projects/root%2Fdemo/issues/3')
    expect(plain(api.screen)).toMatch(/^\{\n {2}"id": \d+,\n {2}"iid": 3,\n/)
  }, 60_000)
})

describe.skipIf(!hasScript)('collab serve on a terminal', () => {
  it('logs each request with method, path, status and time, and not with --quiet', async () => {
    for (const quiet of [false, true]) {
      const data = mkdtempSync(join(tmpdir(), 'collab-serve-log-'))
      try {
        // Asked once the banner is up (it logs from the banner on); Ctrl-C once the log line is there, or at once with
        // --quiet, which then has had every chance to print it before it exits.
        const ask: Step = ['press Ctrl-C to stop', async (screen) => {
          const url = /serving (http:\/\/\S+)/.exec(plain(screen))![1]
          expect((await fetch(`${url}/api/v4/version?private_token=secret`)).status).toBe(401)
          return quiet ? '\u0003' : ''
        }]
        const steps: Step[] = quiet ? [ask] : [ask, [/GET \/api\/v4\/version 401/, '\u0003']]
        const run = await runInTerminal(`node ${BIN} serve --port 0 --data ${data}${quiet ? ' --quiet' : ''}`, steps, { env, cwd: t.c.configDir })
        const screen = plain(run.screen)
        expect(screen).toContain('press Ctrl-C to stop')
        if (quiet) expect(screen).not.toContain('GET /api/v4/version')
        else expect(screen).toMatch(/\d\d:\d\d:\d\d GET \/api\/v4\/version 401 \d+\.\d ms\n/)
        expect(screen).not.toContain('secret')
      } finally {
        rmSync(data, { recursive: true, force: true })
      }
    }
  }, 60_000)
})
