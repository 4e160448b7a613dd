// Push mirrors against a second real collab server: a mirror follows pushes and API commits in the background (new
// branch, update, tag, deleted branch), protected-only mirroring, keep_divergent_refs, a remote that cannot be reached
// (the push to the source is not held up, the failure is recorded with the credentials masked), the credentials masked
// in every answer and sealed at rest, the local-address rule, and who may manage mirrors.
import { lookup } from 'node:dns/promises'
import { readFileSync, existsSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configureMirrorSync, mirrorSyncIdle, watchRemoteMirrors } from '../../../src/server/services/repository/remote-mirror-sync.js'
import { saveHostToken } from '../../../src/cli/config.js'
import { cli, ok } from '../../commands/cli.js'
import { streamLogger } from '../../../src/core/logger.js'
import { hasPythonGitlab, runPythonGitlab } from '../../helpers/python-gitlab.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const AT = '2024-05-06T07:08:09.000Z'

let source: TestServer
let target: TestServer
let root: Api
let maintainer: TestUser
let developer: TestUser
let stranger: TestUser
let receiver: TestUser
let project: { id: number; path_with_namespace: string }
let git: GitCli
let work: string

beforeAll(async () => {
  source = await startTestServer({ clock: fixedClock(AT) })
  target = await startTestServer()
  configureMirrorSync(source.app, { retryDelaysMs: [5, 5] })
  root = api(source, source.rootToken)
  expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
  maintainer = await createUser(source, 'maya')
  developer = await createUser(source, 'dev')
  stranger = await createUser(source, 'stranger')
  project = await createProject(maintainer.api, { name: 'source', visibility: 'private' })
  expectStatus(await maintainer.api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 }), 201)
  receiver = await createUser(target, 'receiver')
  git = gitCli()
  work = join(git.root, 'work')
  await git.run(git.root, 'init', '-q', '-b', 'main', work)
  await git.run(work, 'remote', 'add', 'origin', urlWithCredentials(source.url, `/${project.path_with_namespace}.git`, 'maya', maintainer.token))
})
afterAll(async () => {
  await source?.close()
  await target?.close()
  git?.cleanup()
})

/** An empty project on the target server, and the URL to mirror to it with the receiver's token in it. */
async function targetProject(name: string) {
  const p = await createProject(receiver.api, { name, visibility: 'private' })
  return { id: p.id as number, url: urlWithCredentials(target.url, `/receiver/${name}.git`, 'receiver', receiver.token) }
}

const masked = (name: string) => `${target.url.replace('//', '//*****:*****@')}/receiver/${name}.git`

/** Branches and tags of a target project, read through its API: name -> commit. */
async function refsOn(projectId: number) {
  const branches = expectStatus(await receiver.api.get(`/projects/${projectId}/repository/branches`), 200).body
  const tags = expectStatus(await receiver.api.get(`/projects/${projectId}/repository/tags`), 200).body
  return {
    ...Object.fromEntries(branches.map((b: any) => [b.name, b.commit.id])),
    ...Object.fromEntries(tags.map((t: any) => [`tag:${t.name}`, t.commit.id])),
  }
}

/** Waits for what the last write set off: the push's listeners, then every mirror update and its retries. */
async function settled() {
  await source.app.tasks.idle()
  await mirrorSyncIdle(source.app)
}

const createMirror = (as: Api, body: Record<string, unknown>) => as.post(`/projects/${project.id}/remote_mirrors`, body)
const getMirror = async (id: number) => expectStatus(await maintainer.api.get(`/projects/${project.id}/remote_mirrors/${id}`), 200).body
const sync = async (id: number) => expectStatus(await maintainer.api.post(`/projects/${project.id}/remote_mirrors/${id}/sync`), 204)
const head = (ref: string) => git.run(work, 'rev-parse', ref)

describe('a push mirror', () => {
  let all: { id: number; url: string }
  let mirrorId: number

  it('is created with its credentials masked, and waits for the next push', async () => {
    all = await targetProject('everything')
    const created = expectStatus(await createMirror(maintainer.api, { url: all.url, enabled: true }), 201).body
    mirrorId = created.id
    expect(created).toEqual({
      id: mirrorId, enabled: true, url: masked('everything'), update_status: 'none', last_update_at: null, last_update_started_at: null,
      last_successful_update_at: null, last_error: null, only_protected_branches: false, keep_divergent_refs: false, auth_method: 'password',
      host_keys: [], mirror_branch_regex: null,
    })
    expect(expectStatus(await maintainer.api.get(`/projects/${project.id}/remote_mirrors`), 200).body).toEqual([created])
  })

  it('follows a git push, an API commit, a new branch, a tag and a deleted branch', async () => {
    await git.commit(work, 'first', { 'a.txt': 'a\n' })
    await git.run(work, 'push', '-q', 'origin', 'main')
    await settled()
    expect(await refsOn(all.id)).toEqual({ main: await head('main') })
    expect(await getMirror(mirrorId)).toMatchObject({
      update_status: 'finished', last_update_at: AT, last_update_started_at: AT, last_successful_update_at: AT, last_error: null,
    })

    const apiCommit = expectStatus(await maintainer.api.post(`/projects/${project.id}/repository/commits`, {
      branch: 'main', commit_message: 'through the API', actions: [{ action: 'create', file_path: 'b.txt', content: 'b\n' }],
    }), 201).body
    await settled()
    expect(await refsOn(all.id)).toEqual({ main: apiCommit.id })

    await git.run(work, 'pull', '-q', 'origin', 'main')
    await git.run(work, 'branch', 'feature', 'main')
    await git.run(work, 'tag', '-a', 'v1.0', '-m', 'release', 'main')
    await git.run(work, 'push', '-q', 'origin', 'feature', 'v1.0')
    await settled()
    expect(await refsOn(all.id)).toEqual({ main: apiCommit.id, feature: apiCommit.id, 'tag:v1.0': apiCommit.id })

    // The branch's commit is on the default branch, so the mirror's copy goes too (one holding other work would stay).
    await git.run(work, 'push', '-q', 'origin', '--delete', 'feature')
    await settled()
    expect(await refsOn(all.id)).toEqual({ main: apiCommit.id, 'tag:v1.0': apiCommit.id })
  })

  it('mirrors only protected branches, or those a regular expression matches (and every tag), when asked', async () => {
    const only = await targetProject('protected-only')
    const id = expectStatus(await createMirror(maintainer.api, { url: only.url, enabled: true, only_protected_branches: true }), 201).body.id
    await git.run(work, 'push', '-q', 'origin', 'main:topic')
    await settled()
    await sync(id)
    await settled()
    expect(await refsOn(only.id)).toEqual({ main: await head('origin/main'), 'tag:v1.0': await head('origin/main') })
    expect(await getMirror(id)).toMatchObject({ update_status: 'finished', only_protected_branches: true })
    expect(await refsOn(all.id)).toHaveProperty('topic')
    // A regular expression instead: the protected-only switch goes off with it, and topic matches.
    expect(expectStatus(await maintainer.api.put(`/projects/${project.id}/remote_mirrors/${id}`, { mirror_branch_regex: '^top' }), 200).body)
      .toMatchObject({ only_protected_branches: false, mirror_branch_regex: '^top' })
    await sync(id)
    await settled()
    expect(await refsOn(only.id)).toEqual({ main: await head('origin/main'), topic: await head('origin/main'), 'tag:v1.0': await head('origin/main') })
    expectStatus(await maintainer.api.del(`/projects/${project.id}/remote_mirrors/${id}`), 204)
  })

  it('leaves a diverged branch alone with keep_divergent_refs, and says so', async () => {
    const keep = await targetProject('keep-divergent')
    const id = expectStatus(await createMirror(maintainer.api, { url: keep.url, enabled: true, keep_divergent_refs: true }), 201).body.id
    await sync(id)
    await settled()
    const theirs = expectStatus(await receiver.api.post(`/projects/${keep.id}/repository/commits`, {
      branch: 'main', commit_message: 'only on the mirror', actions: [{ action: 'create', file_path: 'mine.txt', content: 'mine\n' }],
    }), 201).body.id
    await git.run(work, 'pull', '-q', 'origin', 'main')
    const ours = await git.commit(work, 'second', { 'c.txt': 'c\n' })
    await git.run(work, 'push', '-q', 'origin', 'main')
    await settled()
    expect((await refsOn(keep.id)).main).toBe(theirs)
    expect((await refsOn(all.id)).main).toBe(ours)
    expect(await getMirror(id)).toMatchObject({
      update_status: 'failed', keep_divergent_refs: true,
      last_error: 'Some refs have diverged and have not been updated on the remote:\n\nrefs/heads/main',
    })
    expectStatus(await maintainer.api.del(`/projects/${project.id}/remote_mirrors/${id}`), 204)
  })

  it('records a remote it cannot reach as failed, without the credentials, and never holds up the push', async () => {
    const id = expectStatus(await createMirror(maintainer.api, { url: 'http://mirror-user:s3cret-pa55@127.0.0.1:1/nowhere.git', enabled: true }), 201).body.id
    const logged: string[] = []
    const log = source.app.log
    source.app.log = streamLogger((line) => logged.push(line))
    const pushed = await git.commit(work, 'third', { 'd.txt': 'd\n' })
    try {
      await git.run(work, 'push', '-q', 'origin', 'main')
      expect(expectStatus(await maintainer.api.get(`/projects/${project.id}/repository/branches/main`), 200).body.commit.id).toBe(pushed)
      await settled()
    } finally {
      source.app.log = log
    }
    // Each of the three attempts is logged, as the API shows it: no user, no password.
    expect(logged.filter((l) => l.startsWith(`warning: push mirror ${id} of project ${project.id}: get remote references:`))).toHaveLength(3)
    expect(logged.join('\n')).not.toMatch(/s3cret|mirror-user/)
    const failed = await getMirror(id)
    expect(failed).toMatchObject({ update_status: 'failed', url: 'http://*****:*****@127.0.0.1:1/nowhere.git', last_update_at: AT, last_successful_update_at: null })
    expect(failed.last_error).toMatch(/^get remote references: git ls-remote failed \(128\): fatal: unable to access 'http:\/\/127\.0\.0\.1:1\/nowhere\.git\/'/)
    expect(JSON.stringify(failed)).not.toMatch(/s3cret|mirror-user/)
    // The other mirror still followed.
    expect((await refsOn(all.id)).main).toBe(pushed)
    expectStatus(await maintainer.api.del(`/projects/${project.id}/remote_mirrors/${id}`), 204)
  })

  it('records what a remote refused, ref by ref', async () => {
    const locked = await createProject(receiver.api, { name: 'locked', visibility: 'private', initialize_with_readme: true })
    expectStatus(await receiver.api.del(`/projects/${locked.id}/protected_branches/main`), 204)
    expectStatus(await receiver.api.post(`/projects/${locked.id}/protected_branches`, { name: 'main', push_access_level: 0 }), 201)
    const url = urlWithCredentials(target.url, '/receiver/locked.git', 'receiver', receiver.token)
    const id = expectStatus(await createMirror(maintainer.api, { url, enabled: true }), 201).body.id
    await sync(id)
    await settled()
    const failed = await getMirror(id)
    expect(failed).toMatchObject({ update_status: 'failed', last_successful_update_at: null })
    expect(failed.last_error).toMatch(/^push to mirror: git push failed \(1\): /)
    expect(failed.last_error).toContain('remote: GitLab: You are not allowed to')
    expect(failed.last_error).toContain('!\trefs/heads/main:refs/heads/main\t[remote rejected]')
    expect(failed.last_error).not.toContain(receiver.token)
    expectStatus(await maintainer.api.del(`/projects/${project.id}/remote_mirrors/${id}`), 204)
  })

  it('keeps the credentials sealed at rest: neither the row nor the database file holds them', async () => {
    const row = source.app.db.prepare('SELECT * FROM remote_mirrors WHERE id = ?').get(mirrorId) as Record<string, unknown>
    expect(row.url).toBe(`${target.url}/receiver/everything.git`)
    expect(String(row.credentials)).toMatch(/^v1:/)
    const bytes = ['collab.db', 'collab.db-wal'].map((f) => join(source.dataDir, f)).filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('')
    expect(bytes).toContain('receiver/everything.git')
    expect(bytes).not.toContain(receiver.token)
  })

  it('updates its settings, refuses both branch filters at once, and is deleted', async () => {
    const path = `/projects/${project.id}/remote_mirrors/${mirrorId}`
    expect(expectStatus(await maintainer.api.put(path, { enabled: false, mirror_branch_regex: '^rel' }), 200).body)
      .toMatchObject({ enabled: false, mirror_branch_regex: '^rel', only_protected_branches: false, url: masked('everything') })
    expect(expectStatus(await maintainer.api.put(path, { only_protected_branches: true, mirror_branch_regex: 'x' }), 400).body)
      .toEqual({ error: 'only_protected_branches, mirror_branch_regex are mutually exclusive' })
    expect(expectStatus(await maintainer.api.post(`${path}/sync`), 400).body)
      .toEqual({ message: 'Cannot proceed with the push mirroring. Please verify your mirror configuration.' })
    expectStatus(await maintainer.api.del(path), 204)
    expect(expectStatus(await maintainer.api.get(path), 404).body).toEqual({ message: '404 Not found' })
  })
})

describe('the local-address rule', () => {
  it('refuses a local mirror while local requests are off, and stops one saved while they were on', async () => {
    const saved = await targetProject('saved-while-allowed')
    const id = expectStatus(await createMirror(maintainer.api, { url: saved.url, enabled: true }), 201).body.id
    expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: false }), 200)
    try {
      const local = ['127.0.0.1', 'localhost', '[::1]', '10.1.2.3']
      // This machine's own name, when it resolves to a loopback address: a name counts by what it resolves to.
      const own = hostname()
      if ((await lookup(own, { all: true }).catch(() => [])).some((a) => a.address.startsWith('127.'))) local.push(own)
      for (const host of local) {
        const res = await createMirror(maintainer.api, { url: `http://u:p@${host}:8080/x.git`, enabled: true })
        const why = host.startsWith('10.') ? 'Requests to the local network are not allowed' : 'Requests to localhost are not allowed'
        expect({ host, status: res.status, body: res.body }).toEqual({ host, status: 400, body: { message: { url: [`is blocked: ${why}`] } } })
      }
      await sync(id)
      await settled()
      expect(await getMirror(id)).toMatchObject({ update_status: 'failed', last_error: 'Requests to localhost are not allowed' })
      expect(await refsOn(saved.id)).toEqual({})
    } finally {
      expectStatus(await root.put('/application/settings', { allow_local_requests_from_hooks_and_services: true }), 200)
    }
    expect(expectStatus(await createMirror(maintainer.api, { url: 'ssh://git@example.com/x.git' }), 400).body)
      .toEqual({ message: { url: ['is blocked: Only allowed schemes are http, https'] } })
  })
})

describe('collab project mirror', () => {
  it('creates, lists, syncs and deletes push mirrors, never printing the credentials', async () => {
    const c = cli()
    try {
      await saveHostToken(c.configDir, source.url, maintainer.token, 'maya')
      const dest = await targetProject('from-the-cli')
      const p = ['-p', project.path_with_namespace]
      const created = await c.run(['project', 'mirror', 'create', dest.url, '--protected-only', ...p])
      const id = Number(/push mirror (\d+) /.exec(created.stderr)?.[1])
      expect(created).toEqual(ok('', `Created push mirror ${id} to ${masked('from-the-cli')}\n`))
      expect(await c.run(['project', 'mirror', 'sync', String(id), ...p])).toEqual(ok('', `Started an update of push mirror ${id}\n`))
      await settled()
      const listed = await c.run(['project', 'mirrors', ...p])
      expect(listed.stdout.split('\n')).toContain(`${id}\t${masked('from-the-cli')}\tyes\tfinished\t${AT}\t`)
      expect(listed.stdout).not.toContain(receiver.token)
      expect(await refsOn(dest.id)).toEqual({ main: await head('origin/main'), 'tag:v1.0': expect.any(String) })
      expect(await c.run(['project', 'mirror', 'rm', String(id), ...p])).toEqual(ok('', `Deleted push mirror ${id}\n`))
      const gone = await c.run(['project', 'mirror', 'sync', String(id), ...p])
      expect({ code: gone.exitCode, out: gone.stdout }).toEqual({ code: 1, out: '' })
    } finally {
      c.cleanup()
    }
  })
})

describe('who may manage mirrors', () => {
  it('is a Maintainer: a Developer and anyone anonymous hear 401, a non-member 404', async () => {
    const list = `/projects/${project.id}/remote_mirrors`
    for (const as of [developer.api, api(source)]) {
      expect(expectStatus(await as.get(list), 401).body).toEqual({ message: '401 Unauthorized' })
      expect(expectStatus(await as.post(list, { url: 'https://example.com/x.git' }), 401).body).toEqual({ message: '401 Unauthorized' })
    }
    expect(expectStatus(await stranger.api.get(list), 404).body).toEqual({ message: '404 Project Not Found' })
    expect(expectStatus(await root.get(list), 200).body.length).toBe(1)
  })

  it('is an administrator alone while the instance has mirror_available off', async () => {
    const list = `/projects/${project.id}/remote_mirrors`
    expectStatus(await root.put('/application/settings', { mirror_available: false }), 200)
    try {
      expect(expectStatus(await maintainer.api.get(list), 401).body).toEqual({ message: '401 Unauthorized' })
      expectStatus(await root.get(list), 200)
    } finally {
      expectStatus(await root.put('/application/settings', { mirror_available: true }), 200)
    }
    expectStatus(await maintainer.api.get(list), 200)
  })
})

describe.skipIf(!hasPythonGitlab)('python-gitlab', () => {
  it("manages mirrors through project.remote_mirrors unchanged, and never sees the token", async () => {
    expect(await runPythonGitlab('python-gitlab-remote-mirrors.py', source)).toEqual({
      created: ['https://*****:*****@gitlab.example.com/g/p.git', false, 'none', false],
      listed: [[true, 'https://*****:*****@gitlab.example.com/g/p.git', true, true]],
    })
  })
})

describe('a server starting again', () => {
  // Last: the watcher started here is stopped with the server's own, which ends every mirror update of this server.
  it('resumes the updates a stop cut short', async () => {
    const resumed = await targetProject('resumed')
    const id = expectStatus(await createMirror(maintainer.api, { url: resumed.url, enabled: true }), 201).body.id
    source.app.db.prepare("UPDATE remote_mirrors SET update_status = 'to_retry' WHERE id = ?").run(id)
    const stop = watchRemoteMirrors(source.app)
    await settled()
    expect(await getMirror(id)).toMatchObject({ update_status: 'finished', last_error: null })
    expect(await refsOn(resumed.id)).toHaveProperty('main', await head('origin/main'))
    await stop()
  })
})
