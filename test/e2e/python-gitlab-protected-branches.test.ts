// python-gitlab 3.12 (Debian's python3-gitlab) protecting and unprotecting branches on collab, the legacy routes too.
import { execFileSync } from 'node:child_process'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.js'

const PYTHON = '/usr/bin/python3'
const script = new URL('../fixtures/python-gitlab-protected-branches.py', import.meta.url).pathname

function hasPythonGitlab() {
  try {
    execFileSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe.skipIf(!hasPythonGitlab())('python-gitlab protected branches', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('lists, creates, gets a wildcard, protects and unprotects by the legacy routes and deletes', async () => {
    const { stdout } = await execa(PYTHON, [script, server.url, server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    expect(JSON.parse(stdout)).toEqual({
      default: [['master', 40]],
      created: ['release/*', 'Developers + Maintainers'],
      got: 'release/*',
      branch: true,
      legacy: [true, true],
      unprotected: false,
      after_delete: ['master'],
      duplicate: [409, "Protected branch 'master' already exists"],
    })
  })
})
