// Application settings that govern git over HTTP, with the real git command line: passwords, the protocol, housekeeping.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let root: Api
let git: GitCli
let alice: TestUser

beforeEach(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  git = gitCli()
  alice = await createUser(server, 'alice')
})
afterEach(async () => {
  await server.close()
  git.cleanup()
})

const set = async (settings: Record<string, unknown>) => expectStatus(await root.put('/application/settings', settings), 200)

describe('password_authentication_enabled_for_git', () => {
  it('lets git clone with the account password while on, and asks for a token once off', async () => {
    await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    const url = urlWithCredentials(server.url, '/alice/demo.git', 'alice', alice.password)
    expect((await git.attempt(git.root, 'clone', '-q', url, 'by-password')).exitCode).toBe(0)
    await set({ password_authentication_enabled_for_git: false })
    const refused = await git.attempt(git.root, 'clone', '-q', url, 'refused')
    expect(refused.exitCode).not.toBe(0)
    expect(refused.stderr).toContain('You must use a personal access token')
    expect((await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/demo.git', 'alice', alice.token), 'by-token')).exitCode).toBe(0)
  })

  it('refuses a wrong password with the Basic challenge', async () => {
    await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    const out = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/demo.git', 'alice', 'wrong-password'), 'x')
    expect(out.exitCode).not.toBe(0)
    expect(out.stderr).toContain('Authentication failed')
  })
})

describe('enabled_git_access_protocol', () => {
  it('refuses git over HTTP when only ssh is enabled', async () => {
    await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    const url = urlWithCredentials(server.url, '/alice/demo.git', 'alice', alice.token)
    await set({ enabled_git_access_protocol: 'ssh' })
    const out = await git.attempt(git.root, 'clone', '-q', url, 'refused')
    expect(out.exitCode).not.toBe(0)
    expect(out.stderr).toContain('Git access over HTTP is not allowed')
    await set({ enabled_git_access_protocol: 'nil' })
    expect((await git.attempt(git.root, 'clone', '-q', url, 'allowed')).exitCode).toBe(0)
  })
})

describe('housekeeping_enabled', () => {
  it('runs GitLab tasks by push count: a gc on the period packs every loose object', async () => {
    const project = await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    await set({ housekeeping_enabled: true, housekeeping_bitmaps_enabled: false, housekeeping_incremental_repack_period: 2, housekeeping_full_repack_period: 2, housekeeping_gc_period: 2 })
    const url = urlWithCredentials(server.url, '/alice/demo.git', 'alice', alice.token)
    await git.run(git.root, 'clone', '-q', url, 'work')
    const work = join(git.root, 'work')
    const loose = () => readdirSync(join(server.dataDir, 'repositories', `${project.id}.git`, 'objects')).filter((d) => /^[0-9a-f]{2}$/.test(d))
    await git.commit(work, 'one', { 'a.txt': 'a\n' })
    await git.run(work, 'push', '-q', 'origin', 'HEAD')
    await server.app.tasks.idle()
    expect(loose().length).toBeGreaterThan(0)
    await git.commit(work, 'two', { 'b.txt': 'b\n' })
    await git.run(work, 'push', '-q', 'origin', 'HEAD')
    await server.app.tasks.idle()
    expect(loose()).toEqual([])
  })
})
