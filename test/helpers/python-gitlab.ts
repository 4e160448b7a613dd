// Runs a python-gitlab 3.12 session script (test/fixtures/*.py) against a server and returns what it printed as JSON.
// Only Debian's interpreter sees python3-gitlab; machines without it skip these files rather than fail (.ci/run installs it when it can).
import { execFileSync } from 'node:child_process'
import { execa } from 'execa'
import type { TestServer } from './server.js'

const PYTHON = '/usr/bin/python3'

function detect(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export const hasPythonGitlab = detect()

/** Runs `test/fixtures/<fixture>` with the server's URL and root token; python warnings fail the run. */
export async function runPythonGitlab(fixture: string, server: TestServer): Promise<unknown> {
  const script = new URL(`../fixtures/${fixture}`, import.meta.url).pathname
  const { stdout } = await execa(PYTHON, [script, server.url, server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
  return JSON.parse(stdout)
}
