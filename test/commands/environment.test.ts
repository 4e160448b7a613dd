// Where host, token and project come from, and the exit codes when they are missing or refused.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { cli, ok, type Cli } from './cli.js'

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version

let c: Cli
beforeEach(() => {
  c = cli()
})
afterEach(() => c.cleanup())

it('prints the package version', async () => {
  expect(await c.run(['--version'])).toEqual(ok(`${VERSION}\n`))
  expect(await c.run(['-V'])).toEqual(ok(`${VERSION}\n`))
})

describe('authentication needed (exit 4)', () => {
  it('when no host is configured', async () => {
    expect(await c.run(['project', 'list'])).toEqual({
      stdout: '',
      stderr: "error: no host is configured\nhint: run 'collab auth login --host URL', or set COLLAB_HOST and COLLAB_TOKEN\n",
      exitCode: 4,
    })
  })

  it('when the host has no token; a bare GITLAB_HOST means https', async () => {
    expect(await c.run(['project', 'list'], { env: { GITLAB_HOST: 'gitlab.invalid' } })).toEqual({
      stdout: '',
      stderr: "error: not logged in to https://gitlab.invalid\nhint: run 'collab auth login --host https://gitlab.invalid'\n",
      exitCode: 4,
    })
  })
})

it('fails with exit 1 when the server cannot be reached', async () => {
  expect(await c.run(['project', 'list', '--host', 'http://127.0.0.1:1', '--token', 't'])).toEqual({
    stdout: '',
    stderr: "error: cannot reach http://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1\nhint: is the server running? 'collab serve' starts one; another server: 'collab config set host URL'\n",
    exitCode: 1,
  })
})

describe('against a server', () => {
  let server: TestServer
  beforeEach(async () => {
    server = await startTestServer()
  })
  afterEach(async () => {
    await server.close()
  })

  it('exits 4 with a hint when the server refuses the token', async () => {
    expect(await c.run(['project', 'list'], { env: { COLLAB_HOST: server.url, COLLAB_TOKEN: 'glpat-wrong' } })).toEqual({
      stdout: '',
      stderr: `error: 401 Unauthorized\nhint: the token was rejected; run 'collab auth login --host ${server.url}'\n`,
      exitCode: 4,
    })
  })

  it('takes --host/--token over COLLAB_*, and COLLAB_* over GITLAB_*', async () => {
    const alice = await createUser(server, 'alice')
    const whoami = async (args: string[], env: Record<string, string>) => JSON.parse((await c.run(['api', 'user', ...args], { env })).stdout).username
    const unreachable = 'http://127.0.0.1:1'
    expect(await whoami([], { COLLAB_HOST: server.url, COLLAB_TOKEN: alice.token, GITLAB_HOST: unreachable, GITLAB_TOKEN: 'x' })).toBe('alice')
    expect(await whoami([], { GITLAB_HOST: server.url, GITLAB_TOKEN: alice.token })).toBe('alice')
    expect(await whoami(['--host', server.url, '--token', server.rootToken], { COLLAB_HOST: unreachable, COLLAB_TOKEN: alice.token })).toBe('root')
  })

  it('inside a CI job uses CI_API_V4_URL and sends CI_JOB_TOKEN as JOB-TOKEN', async () => {
    // An unknown job token is refused like any token; the hint names the instance from CI_API_V4_URL.
    expect(await c.run(['api', 'user'], { env: { CI_API_V4_URL: `${server.url}/api/v4`, CI_JOB_TOKEN: 'not-a-job-token' } })).toEqual({
      stdout: '{"message":"401 Unauthorized"}\n',
      stderr: `error: 401 Unauthorized\nhint: the token was rejected; run 'collab auth login --host ${server.url}'\n`,
      exitCode: 4,
    })
  })

  it('takes the project from CI_PROJECT_ID', async () => {
    const root = api(server, server.rootToken)
    const p = await createProject(root, { name: 'demo' })
    const body = expectStatus(await root.get(`/projects/${p.id}`), 200).text
    expect(await c.run(['project', 'view', '--json'], { env: { COLLAB_HOST: server.url, COLLAB_TOKEN: server.rootToken, CI_PROJECT_ID: String(p.id) } })).toEqual(ok(`${body}\n`))
  })
})
