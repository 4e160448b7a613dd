// openInBrowser with a stand-in IO: what goes to stdout and stderr on a terminal and piped, with $BROWSER, with no
// opener, and when the opener cannot start.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openInBrowser } from '../../src/cli/browser.js'
import type { IO } from '../../src/cli/io.js'
import { until } from '../helpers/wait.js'

const PAGE = 'http://localhost:3000/g/p/-/issues/1?a=1&b=2'
const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })))

function fakeIO(stdoutIsTTY: boolean, env: Record<string, string>) {
  const out: string[] = []
  const err: string[] = []
  const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) }, stdoutIsTTY, env } as unknown as IO
  return { io, out: () => out.join(''), err: () => err.join('') }
}

/** What the stand-in browser wrote: the shell creates the file empty before printf writes its one line into it. */
const waitFor = (file: string) => until(`the browser to write ${file}`, () => existsSync(file) && readFileSync(file, 'utf8'))

function browserScript() {
  const dir = mkdtempSync(join(tmpdir(), 'collab-browser-'))
  dirs.push(dir)
  const script = join(dir, 'b.sh')
  writeFileSync(script, `#!/bin/sh\nprintf '%s|%s' "$1" "$2" > '${join(dir, 'got')}'\n`)
  chmodSync(script, 0o755)
  return { script, got: join(dir, 'got') }
}

describe('openInBrowser', () => {
  it('on a terminal, starts $BROWSER (with its own arguments) and says so on stderr only', async () => {
    const { script, got } = browserScript()
    const t = fakeIO(true, { BROWSER: `${script} --new-tab`, PATH: '' })
    await openInBrowser(t.io, PAGE, 'linux')
    expect([t.out(), t.err()]).toEqual(['', `Opening ${PAGE} in your browser.\n`])
    expect(await waitFor(got)).toBe(`--new-tab|${PAGE}`)
  })

  it('on a terminal with no opener installed, prints the URL', async () => {
    const t = fakeIO(true, { PATH: '' })
    await openInBrowser(t.io, PAGE, 'linux')
    expect([t.out(), t.err()]).toEqual([`${PAGE}\n`, ''])
  })

  it('piped, prints the URL and starts nothing without $BROWSER', async () => {
    const t = fakeIO(false, { PATH: process.env.PATH ?? '' })
    await openInBrowser(t.io, PAGE, 'linux')
    expect([t.out(), t.err()]).toEqual([`${PAGE}\n`, ''])
  })

  it('says so, and prints the URL, when the opener cannot start', async () => {
    const t = fakeIO(true, { PATH: '' })
    await openInBrowser(t.io, PAGE, 'win32')
    expect([t.out(), t.err()]).toEqual([`${PAGE}\n`, `Opening ${PAGE} in your browser.\nCould not start rundll32; open the URL yourself.\n`])
  })
})
