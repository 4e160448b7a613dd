// The wiki as a git repository: cloned and pushed with the real git command line at <namespace>/<project>.wiki.git.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onRefsMoved, type PushEvent } from '../../src/server/services/repository/git-access.js'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let git: GitCli
let owner: TestUser
let developer: TestUser
let guest: TestUser
let projectId: number
const events: PushEvent[] = []
const wikiUrl = (user: TestUser) => urlWithCredentials(server.url, '/alice/handbook.wiki.git', user.username, user.token)

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  git = gitCli()
  owner = await createUser(server, 'alice', { name: 'Alice Liddell' })
  developer = await createUser(server, 'dave', { name: 'Dave Developer' })
  guest = await createUser(server, 'gus')
  projectId = (await createProject(owner.api, { name: 'handbook', visibility: 'private', initialize_with_readme: true })).id
  expectStatus(await owner.api.post(`/projects/${projectId}/members`, { user_id: developer.id, access_level: 30 }), 201)
  expectStatus(await owner.api.post(`/projects/${projectId}/members`, { user_id: guest.id, access_level: 10 }), 201)
  onRefsMoved(server.app, (_app, event) => { events.push(event) })
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

describe('git over HTTP for wikis', () => {
  it('clones an empty wiki, pushes pages, and the API lists them; the push moves no project ref and starts no pipeline', async () => {
    const out = await git.attempt(git.root, 'clone', wikiUrl(developer), 'wiki')
    expect(out.exitCode).toBe(0)
    expect(out.stderr).toContain('You appear to have cloned an empty repository.')
    const dir = join(git.root, 'wiki')
    await git.run(dir, 'checkout', '-q', '-b', 'master')
    mkdirSync(join(dir, 'guides'))
    await git.commit(dir, 'Pages from git', {
      'Home.md': '# Home\n', 'guides/First-Steps.md': 'steps\n', '.gitlab-ci.yml': 'job:\n  script: [echo hi]\n', 'logo.png': 'not a page',
    })
    await git.run(dir, 'push', '-q', 'origin', 'master')
    const pages = expectStatus(await guest.api.get(`/projects/${projectId}/wikis`, { query: { with_content: true } }), 200).body
    expect(pages).toEqual([
      { format: 'markdown', slug: 'Home', title: 'Home', content: '# Home\n' },
      { format: 'markdown', slug: 'guides/First-Steps', title: 'First Steps', content: 'steps\n' },
    ])
    await server.app.tasks.idle()
    expect(events).toEqual([])
    expect(expectStatus(await owner.api.get(`/projects/${projectId}/pipelines`), 200).body).toEqual([])
  })

  it('pulls a page made through the API, with GitLab\'s commit message and the acting user as author', async () => {
    expectStatus(await developer.api.post(`/projects/${projectId}/wikis`, { title: 'From the API', content: 'api words' }), 201)
    const dir = join(git.root, 'wiki')
    await git.run(dir, 'pull', '-q', '--ff-only', 'origin', 'master')
    expect(readFileSync(join(dir, 'From-the-API.md'), 'utf8')).toBe('api words')
    expect(await git.run(dir, 'log', '-1', '--format=%s|%an|%ae')).toBe('dave created page: From the API|Dave Developer|dave@example.com')
  })

  it('round-trips an attachment: uploaded through the API, pulled with git byte for byte, and pushed files read back', async () => {
    const bytes = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256))
    const form = new FormData()
    form.append('file', new Blob([bytes]), 'chart.png')
    const res = expectStatus(await developer.api.request('POST', `/projects/${projectId}/wikis/attachments`, { body: form as any }), 201)
    const dir = join(git.root, 'wiki')
    await git.run(dir, 'pull', '-q', '--ff-only', 'origin', 'master')
    expect(readFileSync(join(dir, res.body.file_path)).equals(bytes)).toBe(true)
    expect(await git.run(dir, 'log', '-1', '--format=%s')).toBe('Upload attachment chart.png')
  })

  it('shows a page changed by a push at once, after the API had read it, and an API edit lands on top of the push', async () => {
    expect(expectStatus(await guest.api.get(`/projects/${projectId}/wikis/Home`), 200).body.content).toBe('# Home\n')
    const dir = join(git.root, 'wiki')
    await git.commit(dir, 'Home from git', { 'Home.md': '# Home, pushed\n' })
    await git.run(dir, 'push', '-q', 'origin', 'master')
    expect(expectStatus(await guest.api.get(`/projects/${projectId}/wikis/Home`), 200).body.content).toBe('# Home, pushed\n')
    expectStatus(await developer.api.put(`/projects/${projectId}/wikis/Home`, { content: '# Home, edited' }), 200)
    await git.run(dir, 'pull', '-q', '--ff-only', 'origin', 'master')
    expect(await git.run(dir, 'log', '-2', '--format=%s')).toBe('dave updated page: Home\nHome from git')
  })

  it('lets a Guest clone the wiki of a private project but not push to it', async () => {
    const out = await git.attempt(git.root, 'clone', '-q', wikiUrl(guest), 'guest-wiki')
    expect(out.exitCode).toBe(0)
    const dir = join(git.root, 'guest-wiki')
    expect(readFileSync(join(dir, 'Home.md'), 'utf8')).toBe('# Home, edited')
    await git.commit(dir, 'Guest edit', { 'Home.md': 'defaced\n' })
    const push = await git.attempt(dir, 'push', '-q', 'origin', 'master')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain("You are not allowed to write to this project's wiki.")
    expect(expectStatus(await guest.api.get(`/projects/${projectId}/wikis/Home`), 200).body.content).toBe('# Home, edited')
  })

  it('hides the wiki of a private project from strangers and refuses clones while wiki_enabled is false', async () => {
    const stranger = await createUser(server, 'sam')
    const hidden = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/handbook.wiki.git', 'sam', stranger.token), 'x')
    expect(hidden.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.")
    expectStatus(await owner.api.put(`/projects/${projectId}`, { wiki_enabled: false }), 200)
    const off = await git.attempt(git.root, 'clone', '-q', wikiUrl(developer), 'y')
    expect(off.stderr).toContain('You are not allowed to download code from this project.')
    expectStatus(await owner.api.put(`/projects/${projectId}`, { wiki_enabled: true }), 200)
  })

  it('lets anyone clone the wiki of a public project, asks an anonymous push for credentials, and tells a project named x.wiki apart', async () => {
    const open = await createProject(owner.api, { name: 'open-book', visibility: 'public' })
    expectStatus(await owner.api.post(`/projects/${open.id}/wikis`, { title: 'Readme', content: 'public' }), 201)
    const anonymous = `${server.url}/alice/open-book.wiki.git`
    expect((await git.attempt(git.root, 'clone', '-q', anonymous, 'open-wiki')).exitCode).toBe(0)
    expect(readFileSync(join(git.root, 'open-wiki', 'Readme.md'), 'utf8')).toBe('public')
    const dir = join(git.root, 'open-wiki')
    await git.commit(dir, 'Anonymous edit', { 'Readme.md': 'defaced' })
    const push = await git.attempt(dir, 'push', '-q', 'origin', 'master')
    expect(push.exitCode).not.toBe(0)
    expect(push.stderr).toContain('could not read Username')

    const named = await createProject(owner.api, { name: 'notes.wiki', path: 'notes.wiki', initialize_with_readme: true })
    const code = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/notes.wiki.git', 'alice', owner.token), 'named')
    expect(code.exitCode, code.stderr).toBe(0)
    expect(await git.run(join(git.root, 'named'), 'ls-files')).toBe('README.md')
    expect(named.path).toBe('notes.wiki')
    const missing = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/nothing.wiki.git', 'alice', owner.token), 'none')
    expect(missing.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.")
  })

  it('keeps the project repository apart: its clone has the README, not the pages', async () => {
    const out = await git.attempt(git.root, 'clone', '-q', urlWithCredentials(server.url, '/alice/handbook.git', 'dave', developer.token), 'code')
    expect(out.exitCode).toBe(0)
    expect(await git.run(join(git.root, 'code'), 'ls-files')).toBe('README.md')
  })
})
