// The real git command line clones, fetches and pushes over collab's smart HTTP; the API sees what was pushed.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onRefsMoved, type PushEvent } from '../../src/server/services/repository/git-access.js'
import { api, createGroup, createProject, createUser, expectStatus, request, type Api, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { ROOT_PASSWORD, startTestServer, type TestServer } from '../helpers/server.js'

// Commits made with the fixed identity and dates of gitCli(), so their ids are the same on every run.
const FIRST = '0e84ea3786dacf8e57ec7affbda3858ebdc61a17'

describe('git over smart HTTP', () => {
  let server: TestServer
  let root: Api
  let git: GitCli
  let reporter: TestUser
  let developer: TestUser
  const events: PushEvent[] = []
  const rootUrl = (path: string) => urlWithCredentials(server.url, path, 'root', server.rootToken)

  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    git = gitCli()
    reporter = await createUser(server, 'rita')
    developer = await createUser(server, 'dev')
    onRefsMoved(server.app, (_app, event) => { events.push(event) })
  })
  afterAll(async () => {
    await server.close()
    git.cleanup()
  })

  it('clones an empty project, pushes main, and the API shows the branch, the commit and the default branch', async () => {
    const project = await createProject(root, { name: 'demo', default_branch: 'main' })
    const out = await git.attempt(git.root, 'clone', rootUrl('/root/demo.git'), 'demo')
    expect(out.exitCode).toBe(0)
    expect(out.stderr).toContain('You appear to have cloned an empty repository.')
    const dir = join(git.root, 'demo')
    await git.run(dir, 'checkout', '-q', '-b', 'main')
    const sha = await git.commit(dir, 'Add README', { 'README.md': '# demo\n' })
    expect(sha).toBe(FIRST)
    await git.run(dir, 'push', '-q', 'origin', 'main')

    const branches = expectStatus(await root.get(`/projects/${project.id}/repository/branches`), 200).body
    expect(branches.map((b: any) => [b.name, b.commit.id, b.default])).toEqual([['main', FIRST, true]])
    const commits = expectStatus(await root.get(`/projects/${project.id}/repository/commits`), 200).body
    expect(commits.map((c: any) => [c.id, c.title, c.author_name, c.committed_date])).toEqual([
      [FIRST, 'Add README', 'Tess Tester', '2024-01-02T03:04:05.000+00:00'],
    ])
    const after = expectStatus(await root.get(`/projects/${project.id}`), 200).body
    expect([after.default_branch, after.empty_repo]).toEqual(['main', false])

    await server.app.tasks.idle()
    expect(events.at(-1)).toMatchObject({ project: { id: project.id }, user: { username: 'root' }, changes: [{ ref: 'refs/heads/main', before: null, after: FIRST }] })
  })

  it('pushes a second branch and a tag, and deletes the branch again', async () => {
    const project = expectStatus(await root.get('/projects/root%2Fdemo'), 200).body
    const dir = join(git.root, 'demo')
    await git.run(dir, 'checkout', '-q', '-b', 'feature')
    const sha = await git.commit(dir, 'Feature work', { 'feature.txt': 'feature\n' })
    await git.run(dir, 'tag', 'v1.0')
    await git.run(dir, 'push', '-q', 'origin', 'feature', 'v1.0')

    const branches = expectStatus(await root.get(`/projects/${project.id}/repository/branches`), 200).body
    expect(branches.map((b: any) => [b.name, b.commit.id])).toEqual([['feature', sha], ['main', FIRST]])
    const log = expectStatus(await root.get(`/projects/${project.id}/repository/commits`, { query: { ref_name: 'feature' } }), 200).body
    expect(log.map((c: any) => c.id)).toEqual([sha, FIRST])
    const tags = expectStatus(await root.get(`/projects/${project.id}/repository/tags`), 200).body
    expect(tags.map((t: any) => [t.name, t.commit.id])).toEqual([['v1.0', sha]])
    await server.app.tasks.idle()
    expect(events.at(-1)!.changes).toEqual([
      { ref: 'refs/heads/feature', before: null, after: sha },
      { ref: 'refs/tags/v1.0', before: null, after: sha },
    ])

    await git.run(dir, 'push', '-q', 'origin', ':feature')
    const left = expectStatus(await root.get(`/projects/${project.id}/repository/branches`), 200).body
    expect(left.map((b: any) => b.name)).toEqual(['main'])
    expect((await root.get(`/projects/${project.id}`)).body.default_branch).toBe('main')
  })

  it('makes the first pushed branch the default and points HEAD at it when the configured one was not pushed', async () => {
    const project = await createProject(root, { name: 'mainline', default_branch: 'main' })
    const dir = join(git.root, 'mainline-src')
    await git.run(git.root, 'init', '-q', '-b', 'main', dir)
    const sha = await git.commit(dir, 'Start on main', { 'a.txt': 'a\n' })
    await git.run(dir, 'push', '-q', rootUrl('/root/mainline.git'), 'main')
    expect((await root.get(`/projects/${project.id}`)).body.default_branch).toBe('main')

    await git.run(git.root, 'clone', '-q', rootUrl('/root/mainline'), 'mainline-copy')
    expect(await git.run(join(git.root, 'mainline-copy'), 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main')
    expect(await git.run(join(git.root, 'mainline-copy'), 'rev-parse', 'HEAD')).toBe(sha)
  })

  it('serves nested group paths with and without .git, over protocol v0 and v2', async () => {
    const top = await createGroup(root, { name: 'top', path: 'top' })
    const sub = await createGroup(root, { name: 'sub', path: 'sub', parent_id: top.id })
    await createProject(root, { name: 'deep', namespace_id: sub.id, initialize_with_readme: true })
    for (const [path, version] of [['/top/sub/deep.git', '2'], ['/top/sub/deep', '0']]) {
      const target = `deep-v${version}`
      await git.run(git.root, '-c', `protocol.version=${version}`, 'clone', '-q', rootUrl(path), target)
      expect(readFileSync(join(git.root, target, 'README.md'), 'utf8')).toBe('# deep\n')
    }
  })

  it('lets anyone clone a public project without credentials', async () => {
    await createProject(root, { name: 'open', visibility: 'public', initialize_with_readme: true })
    await git.run(git.root, 'clone', '-q', `${server.url}/root/open.git`, 'open-anon')
    expect(existsSync(join(git.root, 'open-anon', 'README.md'))).toBe(true)
    const push = await git.attempt(join(git.root, 'open-anon'), 'push', 'origin', 'HEAD:refs/heads/anon')
    expect(push.exitCode).not.toBe(0)
  })

  it('challenges anonymous requests for private or missing projects with Basic auth', async () => {
    await createProject(root, { name: 'secret', initialize_with_readme: true })
    for (const path of ['/root/secret.git', '/root/no-such-project.git']) {
      const r = await request(server, 'GET', `${path}/info/refs?service=git-upload-pack`)
      expect([r.status, r.headers.get('www-authenticate'), r.headers.get('content-type'), r.text])
        .toEqual([401, 'Basic realm="collab"', 'text/plain; charset=utf-8', 'HTTP Basic: Access denied'])
    }
    const bad = await request(server, 'GET', '/root/secret.git/info/refs?service=git-upload-pack', {
      headers: { Authorization: `Basic ${Buffer.from('root:glpat-wrong').toString('base64')}` },
    })
    expect([bad.status, bad.text]).toEqual([401, 'HTTP Basic: Access denied'])
    const clone = await git.attempt(git.root, 'clone', `${server.url}/root/secret.git`, 'secret-anon')
    expect(clone.exitCode).not.toBe(0)
    expect(clone.stderr).toContain('could not read Username')
  })

  it('answers 404 to a signed-in caller who cannot see the project', async () => {
    const r = await request(server, 'GET', '/root/secret.git/info/refs?service=git-upload-pack', { headers: { 'PRIVATE-TOKEN': developer.token } })
    expect([r.status, r.text]).toEqual([404, "The project you were looking for could not be found or you don't have permission to view it."])
  })

  it('lets a Reporter fetch but not push (403), and a Developer push', async () => {
    const project = await createProject(root, { name: 'team', initialize_with_readme: true })
    expectStatus(await root.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 }), 201)
    expectStatus(await root.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 }), 201)
    const dir = join(git.root, 'team-rita')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/team.git', 'rita', reporter.token), dir)
    await git.commit(dir, 'Reporter change', { 'r.txt': 'r\n' })
    const push = await git.attempt(dir, 'push', 'origin', 'main')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain('You are not allowed to push code to this project.')
    const raw = await request(server, 'GET', '/root/team.git/info/refs?service=git-receive-pack', { headers: { 'PRIVATE-TOKEN': reporter.token } })
    expect([raw.status, raw.headers.get('content-type'), raw.text]).toEqual([403, 'text/plain; charset=utf-8', 'You are not allowed to push code to this project.'])

    // main is protected since it first appeared (default_branch_protection 2): the Developer pushes another branch.
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/root/team.git', 'anything', developer.token), 'main:team-work')
    const head = (await root.get(`/projects/${project.id}/repository/branches/team-work`)).body.commit
    expect(head.title).toBe('Reporter change')
  })

  it('refuses pushes to an archived project and with a read_repository token, which still fetches', async () => {
    const project = await createProject(root, { name: 'frozen', initialize_with_readme: true })
    const reader = expectStatus(await root.post(`/users/1/personal_access_tokens`, { name: 'ro', scopes: ['read_repository'] }), 201).body.token
    const dir = join(git.root, 'frozen')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/frozen.git', 'root', reader), dir)
    await git.commit(dir, 'More', { 'm.txt': 'm\n' })
    expect((await git.attempt(dir, 'push', 'origin', 'main')).stderr).toContain('You are not allowed to push code to this project.')

    expectStatus(await root.post(`/projects/${project.id}/archive`), 201)
    const archived = await git.attempt(dir, 'push', rootUrl('/root/frozen.git'), 'main')
    expect(archived.exitCode).not.toBe(0)
    expect(archived.stderr).toContain('You are not allowed to push code to this project.')
  })

  it('accepts oauth2:<token> from the password grant, and a PRIVATE-TOKEN header', async () => {
    const grant = expectStatus(await request(server, 'POST', '/oauth/token', {
      form: { grant_type: 'password', username: 'root', password: ROOT_PASSWORD },
    }), 200).body
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/secret.git', 'oauth2', grant.access_token), 'secret-oauth')
    expect(existsSync(join(git.root, 'secret-oauth', 'README.md'))).toBe(true)
    await git.run(git.root, '-c', `http.extraHeader=PRIVATE-TOKEN: ${server.rootToken}`, 'clone', '-q', `${server.url}/root/secret.git`, 'secret-header')
    expect(existsSync(join(git.root, 'secret-header', 'README.md'))).toBe(true)
  })
})
