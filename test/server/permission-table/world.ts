// The permission table's world: one server, a project of each visibility seeded with one of every resource kind, a
// user for every role, and running jobs whose tokens stand for "a job of this project" and "a job of another project".
import { createCoordinator } from '../../../src/server/ci/coordinator.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { finish, takeJob } from '../ci/jobs/fixture.js'
import type { Role, Visibility } from './table.js'

export const VISIBILITIES: Visibility[] = ['private', 'internal', 'public']

/** What every seeded project holds, by id or iid, for the requests of the table. */
export interface Seeded {
  id: number
  path: string
  issueIid: number
  confidentialIid: number
  mrIid: number
  pipelineId: number
  jobId: number
  snippetId: number
  wikiSlug: string
  variableKey: string
  hookId: number
  /** A Guest whose level the members write sets again (to Guest), so the write changes nothing the other cells see. */
  memberId: number
}

/** How a role authenticates: a personal token, a job token, or nothing. */
export type Credential = { kind: 'anonymous' } | { kind: 'token'; token: string } | { kind: 'job'; token: string }

export interface World {
  server: TestServer
  projects: Record<Visibility, Seeded>
  credential(role: Role, visibility: Visibility): Credential
  close(): Promise<void>
}

// Only pipelines made through the API run a job, on feature: no push adds a pending job ahead of the ones taken below,
// and no branch protection stands between a Developer and the finished job (GitLab's protected_ref rule for jobs).
const CI_YAML = 'build:\n  script: [echo hi]\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "api"\n'

const MEMBER_LEVELS = { guest: 10, reporter: 20, developer: 30, maintainer: 40 } as const

export async function buildWorld(): Promise<World> {
  const server = await startTestServer()
  const root = api(server, server.rootToken)
  // Hooks point at a local address that is never called with a push: allowed, so their creation is not the test.
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  const coordinator = createCoordinator(server.app)
  const users = await makeUsers(server, root)
  const projects = {} as Record<Visibility, Seeded>
  for (const visibility of VISIBILITIES) projects[visibility] = await seedProject(server, users, visibility, coordinator)
  // The job tokens: jobs of a pipeline started by `ci` (a Developer of every project), taken and left running.
  const source = await createProject(users.owner.api, { name: 'perm-source', visibility: 'private', initialize_with_readme: true, default_branch: 'main' })
  await addMember(users.owner.api, source.id, users.ci.id, 30)
  await commit(users.owner.api, source.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', CI_YAML)] })
  expectStatus(await users.owner.api.post(`/projects/${source.id}/repository/branches`, { branch: 'feature', ref: 'main' }), 201)
  const jobTokens = {} as Record<Visibility | 'source', string>
  for (const [key, id] of [...VISIBILITIES.map((v) => [v, projects[v].id] as const), ['source', source.id] as const]) {
    expectStatus(await users.ci.api.post(`/projects/${id}/pipeline`, { ref: 'feature' }), 201)
    await server.app.tasks.idle()
    jobTokens[key] = (await takeJob({ coordinator })).token
  }
  expectStatus(await root.post(`/users/${users.blocked.id}/block`), 201)
  return {
    server,
    projects,
    credential(role, visibility) {
      if (role === 'anonymous') return { kind: 'anonymous' }
      if (role === 'job-same') return { kind: 'job', token: jobTokens[visibility] }
      if (role === 'job-other') return { kind: 'job', token: jobTokens.source }
      return { kind: 'token', token: role === 'admin' ? server.rootToken : users[role].token }
    },
    close: () => server.close(),
  }
}

type Users = Record<'owner' | 'external' | 'nonmember' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'ci' | 'blocked' | 'spare', TestUser>

async function makeUsers(server: TestServer, root: Api): Promise<Users> {
  const users = {} as Users
  for (const name of ['owner', 'external', 'nonmember', 'guest', 'reporter', 'developer', 'maintainer', 'ci', 'blocked', 'spare'] as const) {
    users[name] = await createUser(server, `perm-${name}`)
  }
  expectStatus(await root.put(`/users/${users.external.id}`, { external: true }), 200)
  return users
}

async function addMember(as: Api, projectId: number, userId: number, level: number) {
  expectStatus(await as.post(`/projects/${projectId}/members`, { user_id: userId, access_level: level }), 201)
}

async function seedProject(server: TestServer, users: Users, visibility: Visibility, coordinator: ReturnType<typeof createCoordinator>): Promise<Seeded> {
  const owner = users.owner.api
  const p = await createProject(owner, { name: `perm-${visibility}`, visibility, initialize_with_readme: true, default_branch: 'main' })
  for (const [role, level] of Object.entries(MEMBER_LEVELS)) await addMember(owner, p.id, users[role as keyof typeof MEMBER_LEVELS].id, level)
  await addMember(owner, p.id, users.ci.id, 30)
  await addMember(owner, p.id, users.blocked.id, 30)
  await addMember(owner, p.id, users.spare.id, 10)
  const at = `/projects/${p.id}`
  await commit(owner, p.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', CI_YAML)] })
  await commit(owner, p.id, { branch: 'feature', start_branch: 'main', commit_message: 'Feature', actions: [create('feature.txt', 'f\n')] })
  const pipeline = expectStatus(await owner.post(`${at}/pipeline`, { ref: 'feature' }), 201).body
  await server.app.tasks.idle()
  const built = await takeJob({ coordinator })
  await finish({ coordinator }, built, { log: 'built it\n', files: { 'out.txt': 'made\n' } })
  const post = async (path: string, body: unknown) => expectStatus(await owner.post(`${at}${path}`, body), 201).body
  const issue = await post('/issues', { title: 'Open issue' })
  const confidential = await post('/issues', { title: 'Secret issue', confidential: true })
  const mr = await post('/merge_requests', { source_branch: 'feature', target_branch: 'main', title: 'Feature' })
  const snippet = await post('/snippets', { title: 'Snip', file_name: 's.txt', content: 's', visibility })
  const wiki = await post('/wikis', { title: 'Home', content: 'Welcome' })
  const variable = await post('/variables', { key: 'SECRET', value: 'hunter22' })
  const hook = await post('/hooks', { url: 'http://127.0.0.1:9/hook' })
  return {
    id: p.id, path: p.path_with_namespace, issueIid: issue.iid, confidentialIid: confidential.iid, mrIid: mr.iid,
    pipelineId: pipeline.id, jobId: built.id,
    snippetId: snippet.id, wikiSlug: wiki.slug, variableKey: variable.key, hookId: hook.id, memberId: users.spare.id,
  }
}
