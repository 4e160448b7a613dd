// A stand-in browser for the CLI's --web and browse: $BROWSER names a script that appends its argument to a file, so
// tests read what would have been opened. The CLI does not wait for it, so reading polls.
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Cli } from '../commands/cli.js'

export interface FakeBrowser {
  env: { BROWSER: string }
  /** The URLs opened so far, once `count` of them have arrived (or after `waitMs`). */
  opened(count?: number, waitMs?: number): Promise<string[]>
}

/** A fresh stand-in: what earlier ones opened is forgotten. */
export function fakeBrowser(c: Cli): FakeBrowser {
  const script = join(c.configDir, 'browser.sh')
  const log = join(c.configDir, 'opened.txt')
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`)
  chmodSync(script, 0o755)
  rmSync(log, { force: true })
  const read = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
  return {
    env: { BROWSER: script },
    async opened(count = 1, waitMs = 5000) {
      for (let waited = 0; read().length < count && waited < waitMs; waited += 25) await new Promise((r) => setTimeout(r, 25))
      return read()
    },
  }
}
