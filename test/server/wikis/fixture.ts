// A server with a project whose members hold each level, and readers of the wiki repository's history.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

export interface WikiFixture {
  server: TestServer
  owner: TestUser
  maintainer: TestUser
  developer: TestUser
  guest: TestUser
  stranger: TestUser
  projectId: number
  wikis: (projectId?: number) => string
  /** `git log` of the wiki's default branch: `subject|author name|author email`, newest first; [] before the first page. */
  history: (projectId?: number) => string[]
  /** The wiki's HEAD commit id, '' before the first page. */
  head: (projectId?: number) => string
  /** Paths in the wiki's default branch. */
  files: (projectId?: number) => string[]
  close: () => Promise<void>
}

export async function wikiFixture(visibility = 'private'): Promise<WikiFixture> {
  const server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  const owner = await createUser(server, 'alice', { name: 'Alice Liddell' })
  const maintainer = await createUser(server, 'mia', { name: 'Mia Maintainer' })
  const developer = await createUser(server, 'dave', { name: 'Dave Developer' })
  const guest = await createUser(server, 'gus', { name: 'Gus Guest' })
  const stranger = await createUser(server, 'sam', { name: 'Sam Stranger' })
  const project = await createProject(owner.api, { name: 'handbook', visibility })
  for (const [user, level] of [[maintainer, 40], [developer, 30], [guest, 10]] as const) {
    expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: user.id, access_level: level }), 201)
  }
  const gitdir = (id: number) => join(server.dataDir, 'repositories', `${id}.wiki.git`)
  const git = (id: number, ...args: string[]) => {
    try {
      return execFileSync('git', ['--git-dir', gitdir(id), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    } catch {
      return ''
    }
  }
  return {
    server, owner, maintainer, developer, guest, stranger, projectId: project.id,
    wikis: (id = project.id) => `/projects/${id}/wikis`,
    history: (id = project.id) => git(id, 'log', '--format=%s|%an|%ae', 'HEAD').split('\n').filter(Boolean),
    head: (id = project.id) => git(id, 'rev-parse', 'HEAD'),
    files: (id = project.id) => git(id, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').filter(Boolean),
    close: () => server.close(),
  }
}

export { api }
