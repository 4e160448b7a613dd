// git push against protected tags with the real git CLI: GitLab's tag checks as `remote: GitLab: …`, and no tag moves.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { gitIn } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let git: GitCli
let mia: TestUser
let dave: TestUser
let id: number
let first: string
let second: string

const REFUSED = (message: string) => `remote: GitLab: ${message}`
const tagAt = (tag: string) => gitIn(server, id, ['for-each-ref', '--format=%(objectname)', `refs/tags/${tag}`]).trim() || null

const cloneAs = (user: TestUser, name: string) => git.clone(urlWithCredentials(server.url, '/root/releases.git', user.username, user.token), name)

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  git = gitCli()
  mia = await createUser(server, 'mia')
  dave = await createUser(server, 'dave')
  id = (await createProject(root, { name: 'releases', initialize_with_readme: true })).id
  for (const [user_id, access_level] of [[mia.id, 40], [dave.id, 30]]) expectStatus(await root.post(`/projects/${id}/members`, { user_id, access_level }), 201)
  for (const rule of [{ name: 'v*' }, { name: 'nightly-*', create_access_level: 30 }]) expectStatus(await root.post(`/projects/${id}/protected_tags`, rule), 201)
  const dir = await cloneAs(dave, 'dave')
  first = await git.run(dir, 'rev-parse', 'HEAD')
  second = await git.commit(dir, 'Second', { 's.txt': 's\n' })
  await git.run(dir, 'push', '-q', 'origin', 'HEAD:work')
  await cloneAs(mia, 'mia')
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

describe('git push of a protected tag', () => {
  it('refuses a Developer creating a Maintainers-only tag, and no tag appears', async () => {
    const push = await git.attempt(join(git.root, 'dave'), 'push', 'origin', `${first}:refs/tags/v1.0`)
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain(REFUSED('You are not allowed to create this tag as it is protected.'))
    expect(push.stderr).toContain('(pre-receive hook declined)')
    expect(tagAt('v1.0')).toBeNull()
  })

  it('lets a Developer push unprotected tags and those a rule opens to Developers', async () => {
    await git.run(join(git.root, 'dave'), 'push', '-q', 'origin', `${first}:refs/tags/beta`, `${first}:refs/tags/nightly-1`)
    expect([tagAt('beta'), tagAt('nightly-1')]).toEqual([first, first])
  })

  it('lets a Maintainer create a protected tag', async () => {
    await git.run(join(git.root, 'mia'), 'push', '-q', 'origin', `${first}:refs/tags/v1.0`)
    expect(tagAt('v1.0')).toBe(first)
  })

  it('refuses moving a protected tag to anyone, Maintainers and forced pushes included', async () => {
    await git.run(join(git.root, 'mia'), 'fetch', '-q', 'origin', 'work')
    const push = await git.attempt(join(git.root, 'mia'), 'push', '-f', 'origin', `${second}:refs/tags/v1.0`)
    expect(push.stderr).toContain(REFUSED('Protected tags cannot be updated.'))
    expect(tagAt('v1.0')).toBe(first)
  })

  it('refuses deleting a protected tag by push: Maintainers are sent to the web interface, Developers told who may', async () => {
    const byMia = await git.attempt(join(git.root, 'mia'), 'push', 'origin', ':refs/tags/v1.0')
    expect(byMia.stderr).toContain(REFUSED('You can only delete protected tags using the web interface.'))
    const byDave = await git.attempt(join(git.root, 'dave'), 'push', 'origin', ':refs/tags/nightly-1')
    expect(byDave.stderr).toContain(REFUSED('You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.'))
    expect([tagAt('v1.0'), tagAt('nightly-1')]).toEqual([first, first])
  })

  it('lets unprotected tags move and go', async () => {
    const dir = join(git.root, 'dave')
    await git.run(dir, 'push', '-q', '-f', 'origin', `${second}:refs/tags/beta`)
    expect(tagAt('beta')).toBe(second)
    await git.run(dir, 'push', '-q', 'origin', ':refs/tags/beta')
    expect(tagAt('beta')).toBeNull()
  })

  it('refuses a tag named as the default branch or like a commit id', async () => {
    const dir = join(git.root, 'mia')
    const main = await git.attempt(dir, 'push', 'origin', `${first}:refs/tags/main`)
    expect(main.stderr).toContain(REFUSED('You cannot use default branch name to create a tag'))
    const sha = await git.attempt(dir, 'push', 'origin', `${first}:refs/tags/${first}`)
    expect(sha.stderr).toContain(REFUSED('You cannot create a tag with a SHA-1 or SHA-256 tag name.'))
    expect([tagAt('main'), tagAt(first)]).toEqual([null, null])
  })
})
