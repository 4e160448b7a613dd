// collab auth git-credential: git asks it for credentials, so a clean clone can push with the stored token.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus } from '../helpers/api.js'
import { gitCli, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { BIN, ok, rootCli, type Cli } from './cli.js'

let server: TestServer
let c: Cli
let git: GitCli

beforeEach(async () => {
  server = await startTestServer()
  c = await rootCli(server)
  git = gitCli()
})

afterEach(async () => {
  git.cleanup()
  c.cleanup()
  await server.close()
})

describe('auth git-credential', () => {
  it('answers get with the stored token for the matching host, and nothing for another host', async () => {
    const { host, protocol } = new URL(server.url)
    const scheme = protocol.slice(0, -1)
    expect(await c.run(['auth', 'git-credential', 'get'], { input: `protocol=${scheme}\nhost=${host}\npath=root/x.git\n\n` }))
      .toEqual(ok(`protocol=${scheme}\nhost=${host}\nusername=oauth2\npassword=${server.rootToken}\n`))
    expect(await c.run(['auth', 'git-credential', 'get'], { input: 'protocol=https\nhost=gitlab.example.com\n\n' })).toEqual(ok(''))
    expect(await c.run(['auth', 'git-credential', 'store'], { input: `protocol=${scheme}\nhost=${host}\nusername=oauth2\npassword=x\n\n` })).toEqual(ok(''))
  })

  it('lets plain git clone and push a private project with no token in any URL', async () => {
    const p = await createProject(api(server, server.rootToken), { name: 'cred', initialize_with_readme: true })
    const helper = `!"${process.execPath}" "${BIN}" auth git-credential`
    const env = { COLLAB_CONFIG_DIR: c.configDir }
    Object.assign(git.env, env)
    await git.run(git.root, '-c', `credential.helper=${helper}`, 'clone', '-q', p.http_url_to_repo, 'work')
    const work = `${git.root}/work`
    await git.run(work, 'config', 'credential.helper', helper)
    const sha = await git.commit(work, 'from git', { 'b.txt': 'b\n' })
    await git.run(work, 'push', '-q', 'origin', 'main')
    expect(await git.run(work, 'remote', 'get-url', 'origin')).toBe(p.http_url_to_repo)
    expect(expectStatus(await api(server, server.rootToken).get(`/projects/${p.id}/repository/commits/main`), 200).body.id).toBe(sha)
  })
})
