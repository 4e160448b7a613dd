// Pushes racing API commits, broken packs, gzip request bodies and a server without git: the transport's hard cases.
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setGitAvailable } from '../../src/server/git/exec.js'
import { api, createProject, expectStatus, request, type Api } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

// Eight rounds meet each of the same-branch race's four staggered starts twice. A round is a dozen git processes on
// each side (fetch, reset, commit, push, the API commit's own), about 2 s on a busy 2-core machine, so the race
// tests get RACE_BUDGET instead of the default 20 s: twelve rounds timed out there even when the file ran alone.
const ROUNDS = 8
const RACE_BUDGET = 60_000

/** One pkt-line of git's wire protocol: four hex digits of length, then the payload. */
const pkt = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, '0') + s

describe('pushes under pressure', () => {
  let server: TestServer
  let root: Api
  let git: GitCli
  const basic = () => ({ Authorization: `Basic ${Buffer.from(`root:${server.rootToken}`).toString('base64')}` })

  beforeAll(async () => {
    server = await startTestServer()
    root = api(server, server.rootToken)
    git = gitCli()
  })
  afterAll(async () => {
    await server.close()
    git.cleanup()
  })

  async function cloneFresh(name: string) {
    const project = await createProject(root, { name, initialize_with_readme: true })
    const dir = join(git.root, name)
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, `/root/${name}.git`, 'root', server.rootToken), dir)
    return { project, dir }
  }

  const apiCommit = (projectId: number, branch: string, i: number) => root.post(`/projects/${projectId}/repository/commits`, {
    branch, commit_message: `api ${i}`, actions: [{ action: 'create', file_path: `api-${i}.txt`, content: `api ${i}\n` }],
  })

  async function expectReachable(projectId: number, dir: string, branch: string, shas: string[]) {
    await git.run(dir, 'fetch', '-q', 'origin')
    for (const sha of shas) expect((await git.attempt(dir, 'merge-base', '--is-ancestor', sha, `origin/${branch}`)).exitCode).toBe(0)
    const listed = expectStatus(await root.get(`/projects/${projectId}/repository/commits`, { query: { ref_name: branch, per_page: 100 } }), 200).body
    expect(listed.map((c: any) => c.id)).toEqual(expect.arrayContaining(shas))
  }

  it('loses no commit when API commits and pushes to the same branch race: both land, or the push is refused', async () => {
    const { project, dir } = await cloneFresh('race-same')
    const landed: string[] = []
    for (let i = 0; i < ROUNDS; i++) {
      await git.run(dir, 'fetch', '-q', 'origin')
      await git.run(dir, 'reset', '-q', '--hard', 'origin/main')
      const local = await git.commit(dir, `push ${i}`, { [`push-${i}.txt`]: `push ${i}\n` })
      // Staggered starts, so some API commits arrive while the push is in flight or after it, and some before it.
      const delayed = new Promise((resolve) => setTimeout(resolve, (i % 4) * 25)).then(() => apiCommit(project.id, 'main', i))
      const [reply, push] = await Promise.all([delayed, git.attempt(dir, 'push', 'origin', 'main')])
      // The API commit reads the branch under the lock, so it always lands; it is built on the push when the push came first.
      expect(reply.status, reply.text).toBe(201)
      landed.push(reply.body.id)
      if (push.exitCode === 0) landed.push(local)
      else expect(push.stderr).toMatch(/\[rejected\]|\[remote rejected\]|failed to update ref|fetch first/)
    }
    await expectReachable(project.id, dir, 'main', landed)
  }, RACE_BUDGET)

  it('lands both when an API commit and a push to another branch run at the same time', async () => {
    const { project, dir } = await cloneFresh('race-other')
    const apiShas: string[] = []
    const pushed: string[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const local = await git.commit(dir, `side ${i}`, { [`side-${i}.txt`]: `side ${i}\n` })
      const [reply, push] = await Promise.all([apiCommit(project.id, 'main', i), git.attempt(dir, 'push', 'origin', 'HEAD:refs/heads/side')])
      expect(reply.status, reply.text).toBe(201)
      expect(push.exitCode, push.stderr).toBe(0)
      apiShas.push(reply.body.id)
      pushed.push(local)
    }
    await expectReachable(project.id, dir, 'main', apiShas)
    await expectReachable(project.id, dir, 'side', pushed)
  }, RACE_BUDGET)

  describe('a broken push', () => {
    let projectId: number
    let head: string

    beforeAll(async () => {
      const { project } = await cloneFresh('broken')
      projectId = project.id
      head = (await root.get(`/projects/${projectId}/repository/branches/main`)).body.commit.id
    })

    const receivePack = (body: Buffer) => request(server, 'POST', '/root/broken.git/git-receive-pack', {
      body, headers: { ...basic(), 'Content-Type': 'application/x-git-receive-pack-request' },
    })

    async function expectUnchanged() {
      const branches = expectStatus(await root.get(`/projects/${projectId}/repository/branches`), 200).body
      expect(branches.map((b: any) => [b.name, b.commit.id])).toEqual([['main', head]])
    }

    it('refuses a pack of garbage and leaves the refs as they were', async () => {
      const commands = pkt(`${head} ${'1'.repeat(40)} refs/heads/main\0report-status\n`) + pkt(`${'0'.repeat(40)} ${'2'.repeat(40)} refs/heads/evil\n`) + '0000'
      const reply = await receivePack(Buffer.concat([Buffer.from(commands), Buffer.from('PACK\0\0\0\x02\0\0\0\x03this is not a pack at all')]))
      expect(reply.status).toBe(200)
      expect(reply.text).not.toContain('unpack ok')
      expect(reply.text).toContain('ng refs/heads/main')
      await expectUnchanged()
    })

    it('refuses a valid empty pack that names a commit the server does not have', async () => {
      const header = Buffer.from('PACK\0\0\0\x02\0\0\0\0', 'latin1')
      const pack = Buffer.concat([header, createHash('sha1').update(header).digest()])
      const commands = pkt(`${head} ${'3'.repeat(40)} refs/heads/main\0report-status\n`) + '0000'
      const reply = await receivePack(Buffer.concat([Buffer.from(commands), pack]))
      expect(reply.status).toBe(200)
      expect(reply.text).toContain('ng refs/heads/main')
      await expectUnchanged()
    })

    it('releases the repository lock when the client hangs up in the middle of a push', async () => {
      const { hostname, port } = new URL(server.url)
      const req = httpRequest({
        host: hostname, port, method: 'POST', path: '/root/broken.git/git-receive-pack',
        headers: { ...basic(), 'Content-Type': 'application/x-git-receive-pack-request', 'Transfer-Encoding': 'chunked' },
      })
      req.on('error', () => undefined)
      req.write(pkt(`${head} ${'4'.repeat(40)} refs/heads/main\0report-status\n`) + '0000PACK\0\0\0\x02\0\0\0\x05')
      await new Promise((resolve) => setTimeout(resolve, 300))
      req.destroy()
      // An API commit needs the same lock: it lands only once the abandoned push has let go.
      const reply = await root.post(`/projects/${projectId}/repository/commits`, {
        branch: 'after-hangup', start_branch: 'main', commit_message: 'after', actions: [{ action: 'create', file_path: 'after.txt', content: 'after\n' }],
      })
      expect(reply.status, reply.text).toBe(201)
      expectStatus(await root.del(`/projects/${projectId}/repository/branches/after-hangup`), 204)
      await expectUnchanged()
    })

    it('survives a body that is not the protocol at all', async () => {
      const reply = await receivePack(Buffer.from('hello, git'))
      expect(reply.status).toBeLessThan(500)
      await expectUnchanged()
    })
  })

  it('writes a reachability bitmap after a push brings a pack past 1 MiB, and the API still reads it', async () => {
    const { project, dir } = await cloneFresh('big')
    // More than receive.unpackLimit (100) objects, so git keeps the pack instead of exploding it into loose objects.
    const files = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`blob-${i}.bin`, randomBytes(10 * 1024)]))
    const sha = await git.commit(dir, 'Many blobs', files)
    await git.run(dir, 'push', '-q', 'origin', 'main')
    await server.app.tasks.idle()
    const packs = readdirSync(join(server.dataDir, 'repositories', `${project.id}.git`, 'objects', 'pack'))
    expect(packs.filter((f) => f.endsWith('.bitmap'))).toHaveLength(1)
    expect(packs.filter((f) => f.endsWith('.pack'))).toHaveLength(1)
    const commit = expectStatus(await root.get(`/projects/${project.id}/repository/commits/${sha}`), 200).body
    expect(commit.title).toBe('Many blobs')
    const raw = await root.get(`/projects/${project.id}/repository/files/blob-149.bin/raw`, { query: { ref: 'main' } })
    expect(raw.status).toBe(200)
  })

  it('decodes a gzip-compressed fetch negotiation (Content-Encoding: gzip)', async () => {
    const { project } = await cloneFresh('gzip')
    const head = (await root.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id
    const negotiation = pkt(`want ${head}\n`) + '0000' + pkt('done\n')
    const reply = await fetch(`${server.url}/root/gzip.git/git-upload-pack`, {
      method: 'POST', body: gzipSync(negotiation),
      headers: { ...basic(), 'Content-Type': 'application/x-git-upload-pack-request', 'Content-Encoding': 'gzip' },
    })
    const bytes = Buffer.from(await reply.arrayBuffer())
    expect([reply.status, reply.headers.get('content-type')]).toEqual([200, 'application/x-git-upload-pack-result'])
    expect(bytes.subarray(0, 8).toString()).toBe('0008NAK\n')
    expect(bytes.subarray(8, 12).toString()).toBe('PACK')
  })

  it('answers 503 on git URLs when the server has no git, and the API keeps working', async () => {
    setGitAvailable(false)
    try {
      const reply = await request(server, 'GET', '/root/gzip.git/info/refs?service=git-upload-pack', { headers: basic() })
      expect([reply.status, reply.headers.get('content-type'), reply.text]).toEqual([
        503, 'text/plain; charset=utf-8', 'git is not installed on the server: clone, fetch and push over HTTP are unavailable until it is.',
      ])
      expectStatus(await root.get('/projects'), 200)
    } finally {
      setGitAvailable(null)
    }
  })
})
