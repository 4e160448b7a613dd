// python-gitlab 3.12, a real third-party client (Debian's python3-gitlab), against collab unchanged. It is the client
// that compares Content-Type as a string and follows Link for get_all, so it guards those rules.
import { execFileSync } from 'node:child_process'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.js'

const PYTHON = '/usr/bin/python3'
const script = new URL('../fixtures/python-gitlab-session.py', import.meta.url).pathname

function hasPythonGitlab() {
  try {
    execFileSync(PYTHON, ['-c', 'import gitlab'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

// Only Debian's interpreter sees python3-gitlab; machines without it skip this file rather than fail (.ci/run installs it when it can).
describe.skipIf(!hasPythonGitlab())('python-gitlab against collab', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('authenticates, creates, lists across pages, edits, commits, reads a file, posts a status and stars', async () => {
    const { stdout } = await execa(PYTHON, [script, server.url, server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    expect(JSON.parse(stdout)).toEqual({
      user: 'root',
      version: '17.0.0-collab',
      created: 'root/py-demo',
      listed: ['py-0', 'py-1', 'py-2', 'py-demo'],
      description: 'edited from python',
      commit_title: 'add',
      file: 'hi\n',
      status: 'success',
      stars: 1,
      missing: [404, '404 Project Not Found'],
    })
  })
})
