// collab backup create and restore through the built CLI: a backup of a running server under a write load holds every
// write acknowledged before it began, restores into a server that answers the same reads with the same tokens (sealed
// secrets included), and a restore refuses what it must, leaving the target absent or empty.
import Database from 'better-sqlite3'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { silentLogger } from '../../src/core/logger.js'
import { createServer } from '../../src/server/app.js'
import { boot } from '../../src/server/boot.js'
import { knownDataEntry } from '../../src/server/services/instance/backup.js'
import { closeDatabase, schemaVersion } from '../../src/server/store/db.js'
import { api, createProject, createUser, expectStatus, type Api, type TestUser } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { commit, create } from '../helpers/repository.js'
import { startTestServer, type TestServer } from '../helpers/server.js'
import { until } from '../helpers/wait.js'
import { sameMachine } from '../../commands/backup/stored.js'
import { cli, rootCli, type Cli } from './cli.js'

let server: TestServer
let root: Api
let alice: TestUser
let c: Cli
let git: GitCli
let scratch: string
let project: { id: number; path_with_namespace: string }
let archive: string

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  c = await rootCli(server)
  git = gitCli()
  scratch = mkdtempSync(join(tmpdir(), 'collab-backup-test-'))
  project = await createProject(root, { name: 'demo', initialize_with_readme: false })
  await commit(root, project.id, { branch: 'main', commit_message: 'first', actions: [create('README.md', '# demo\n')] })
  expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'DEPLOY_KEY', value: 'sealed-value-4f2a', masked: true }), 201)
  expectStatus(await root.post(`/projects/${project.id}/wikis`, { title: 'Home', content: 'wiki home' }), 201)
  const form = new FormData()
  form.append('file', new Blob(['uploaded bytes\n']), 'notes.txt')
  expect((await fetch(`${server.api}/projects/${project.id}/uploads`, { method: 'POST', body: form, headers: { 'PRIVATE-TOKEN': server.rootToken } })).status).toBe(201)
})

afterAll(async () => {
  c.cleanup()
  git.cleanup()
  await server.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** A server of its own on a restored data directory (another port, the same tokens). */
async function serveDirectory(dataDir: string) {
  const { app } = boot({ dataDir, log: silentLogger })
  const s = createServer(app)
  const { url } = await s.listen(0, '127.0.0.1')
  return {
    url,
    async close() {
      await s.close()
      closeDatabase(app.db)
    },
  }
}

const integrity = (dataDir: string) => {
  const db = new Database(join(dataDir, 'collab.db'), { readonly: true })
  try {
    return db.pragma('integrity_check', { simple: true })
  } finally {
    db.close()
  }
}

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>

/**
 * The first test's work: a backup and a restore through the built CLI (a process each), git fsck of every repository, a
 * second server and a clone from it, under a loop of issue creates and pushes. It ran out of the default 20 s on a
 * loaded 2-core machine with the file alone, and the third test reads the directory it restores.
 */
const LOADED_BUDGET = 90_000

describe('collab backup create and restore', () => {
  it('backs up a server under a write load; the restored copy holds every acknowledged write and answers with the same tokens', async () => {
    const work = await git.clone(urlWithCredentials(server.url, `/${project.path_with_namespace}.git`, 'root', server.rootToken), 'work')
    const acked = { issues: [] as number[], pushes: [] as string[] }
    let stop = false
    const issueLoop = (async () => {
      for (let n = 0; !stop; n++) {
        const r = await root.post(`/projects/${project.id}/issues`, { title: `load ${n}` })
        if (r.status === 201) acked.issues.push(r.body.iid)
      }
    })()
    const pushLoop = (async () => {
      for (let n = 0; !stop; n++) {
        const sha = await git.commit(work, `push ${n}`, { [`f${n}.txt`]: `${n}\n` })
        await git.run(work, 'push', '-q', 'origin', 'HEAD:main')
        acked.pushes.push(sha)
      }
    })()
    // The loops stop however this test ends: left running they would load the rest of the file and the worker after it.
    onTestFinished(async () => {
      stop = true
      await Promise.allSettled([issueLoop, pushLoop])
    })
    await until('five acknowledged creates and two pushes', () => acked.issues.length >= 5 && acked.pushes.length >= 2)
    // Files of a job the database does not have (as if written after its copy) stay out: a restored server gives ids out again.
    mkdirSync(join(server.dataDir, 'traces'), { recursive: true })
    writeFileSync(join(server.dataDir, 'traces', '999999.log'), 'a later job\n')
    mkdirSync(join(server.dataDir, 'artifacts', '999999'), { recursive: true })
    writeFileSync(join(server.dataDir, 'artifacts', '999999', 'artifacts.zip'), 'zip')
    // A path past ustar's 100 bytes (a pax record carries it), not ASCII.
    const long = join('uploads', String(project.id), 'd'.repeat(90), 'ünïcode-name.txt')
    mkdirSync(join(server.dataDir, long, '..'), { recursive: true })
    writeFileSync(join(server.dataDir, long), 'long\n')
    const before = { issues: [...acked.issues], pushes: [...acked.pushes] }
    archive = join(scratch, 'online.tar')
    const made = await c.run(['backup', 'create', archive, '--json'])
    stop = true
    await Promise.all([issueLoop, pushLoop])
    expect(made.stderr).toBe('')
    expect(made.exitCode).toBe(0)
    const summary = json(made.stdout)
    expect(summary).toMatchObject({ file: archive, compression: 'none', schema_version: schemaVersion(), source: 'server', transfer: 'moved' })
    // Same machine: the server wrote it into its backups/ and the CLI moved it out, leaving no copy behind.
    expect(readdirSync(join(server.dataDir, 'backups'))).toEqual([])
    expect(statSync(archive).mode & 0o777).toBe(0o600)

    // Every top-level entry of the data directory is one the backup knows, and the archive lists no stranger.
    expect(readdirSync(server.dataDir).filter((n) => !knownDataEntry(n))).toEqual([])
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', archive, 'manifest.json']).toString())
    expect(manifest.unrecognized).toEqual([])
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['collab.db', 'secrets.json', `repositories/${project.id}.git/HEAD`, `repositories/${project.id}.wiki.git/HEAD`]))
    expect(manifest.files.some((f: { path: string }) => f.path.startsWith('uploads/') && f.path.endsWith('/notes.txt'))).toBe(true)
    expect(manifest.files.filter((f: { path: string }) => f.path.includes('999999'))).toEqual([])

    const restored = join(scratch, 'restored')
    const back = await c.run(['backup', 'restore', archive, '--data', restored, '--json'])
    expect(back.stderr).toBe('')
    expect(back.exitCode).toBe(0)
    expect(json(back.stdout)).toMatchObject({ data: restored, schema_version: schemaVersion(), files: manifest.files.length })
    expect(integrity(restored)).toBe('ok')
    expect(readFileSync(join(restored, long), 'utf8')).toBe('long\n')
    for (const repo of readdirSync(join(restored, 'repositories'))) {
      execFileSync('git', ['--git-dir', join(restored, 'repositories', repo), 'fsck', '--no-progress', '--no-dangling'], { stdio: 'pipe' })
    }

    const copy = await serveDirectory(restored)
    try {
      const as = (token: string) => api({ url: copy.url }, token)
      const iids = new Set<number>()
      for (let page = 1; ; page++) {
        const r = expectStatus(await as(server.rootToken).get(`/projects/${project.id}/issues`, { query: { per_page: 100, page } }), 200)
        for (const i of r.body) iids.add(i.iid)
        if (r.body.length < 100) break
      }
      expect(before.issues.filter((iid) => !iids.has(iid))).toEqual([])
      for (const sha of before.pushes) expectStatus(await as(server.rootToken).get(`/projects/${project.id}/repository/commits/${sha}`), 200)
      // The branch the database knows points at a commit the repository holds.
      const main = expectStatus(await as(server.rootToken).get(`/projects/${project.id}/repository/branches/main`), 200).body
      expectStatus(await as(server.rootToken).get(`/projects/${project.id}/repository/commits/${main.commit.id}`), 200)
      expect(expectStatus(await as(server.rootToken).get(`/projects/${project.id}/variables/DEPLOY_KEY`), 200).body.value).toBe('sealed-value-4f2a')
      expect(expectStatus(await as(alice.token).get('/user'), 200).body.username).toBe('alice')
      expect(expectStatus(await as(server.rootToken).get(`/projects/${project.id}/wikis/home`), 200).body.content).toBe('wiki home')
      const clone = await git.clone(urlWithCredentials(copy.url, `/${project.path_with_namespace}.git`, 'root', server.rootToken), 'restored-clone')
      expect(await git.run(clone, 'log', '-1', '--format=%s')).toMatch(/^push \d+$/)
    } finally {
      await copy.close()
    }
  }, LOADED_BUDGET)

  it('answers 401 without a token and 403 to a user who is not an administrator', async () => {
    expect((await api(server).post('/admin/backups')).status).toBe(401)
    const asAlice = cli()
    try {
      const r = await asAlice.run(['backup', 'create', join(scratch, 'alice.tar'), '--host', server.url, '--token', alice.token])
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toContain('403 Forbidden')
      expect(existsSync(join(scratch, 'alice.tar'))).toBe(false)
      expect(existsSync(join(scratch, 'alice.tar.partial'))).toBe(false)
    } finally {
      asAlice.cleanup()
    }
  })

  it('backs up a stopped server from its data directory (--data), gzip-compressed, and refuses one a server is running on', async () => {
    const dir = join(scratch, 'restored')
    const running = await serveDirectory(dir)
    const busy = await c.run(['backup', 'create', join(scratch, 'busy.tar'), '--data', dir])
    await running.close()
    expect(busy.exitCode).toBe(1)
    expect(busy.stderr).toContain('in use by a running collab serve')
    // Read in place (no server writes them): what git is still writing and what is no repository stay out, as staged.
    const repo = join(dir, 'repositories', `${project.id}.git`)
    mkdirSync(join(repo, 'objects', 'incoming-0a1b2c'), { recursive: true })
    writeFileSync(join(repo, 'objects', 'incoming-0a1b2c', 'pack.tmp'), 'half a push')
    writeFileSync(join(repo, 'refs', 'heads', 'main.lock'), 'a ref being written')
    mkdirSync(join(dir, 'repositories', 'fork-in-progress'), { recursive: true })
    writeFileSync(join(dir, 'repositories', 'fork-in-progress', 'HEAD'), 'ref: refs/heads/main\n')
    const file = join(scratch, 'offline.tar.gz')
    const made = await c.run(['backup', 'create', file, '--data', dir, '--json'])
    expect(made.exitCode).toBe(0)
    const listed = JSON.parse(execFileSync('tar', ['-xzOf', file, 'manifest.json']).toString()).files.map((f: { path: string }) => f.path)
    expect(listed).toContain(`repositories/${project.id}.git/HEAD`)
    expect(listed.filter((p: string) => /incoming-|\.lock$|fork-in-progress/.test(p))).toEqual([])
    expect(json(made.stdout)).toMatchObject({ compression: 'gzip', source: 'directory', schema_version: schemaVersion() })
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    const again = join(scratch, 'again')
    mkdirSync(again)
    const back = await c.run(['backup', 'restore', file, '--data', again])
    expect(back.exitCode).toBe(0)
    expect(back.stderr).toContain(`into ${again}`)
    expect(integrity(again)).toBe('ok')
    const copy = await serveDirectory(again)
    try {
      expect(expectStatus(await api({ url: copy.url }, server.rootToken).get(`/projects/${project.id}/variables/DEPLOY_KEY`), 200).body.value).toBe('sealed-value-4f2a')
    } finally {
      await copy.close()
    }
  })

  it('lists a git pack by the SHA-1 it ends with, restores it checked, and refuses an archive whose pack was altered', async () => {
    // The directory the first test restored, stopped now; its repository packed as a real one of any size is.
    const dir = join(scratch, 'restored')
    execFileSync('git', ['--git-dir', join(dir, 'repositories', `${project.id}.git`), 'repack', '-adq'])
    const file = join(scratch, 'packed.tar')
    expect((await c.run(['backup', 'create', file, '--data', dir])).exitCode).toBe(0)
    const bytes = readFileSync(file)
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json']).toString())
    const packs = manifest.files.filter((f: { path: string }) => f.path.endsWith('.pack'))
    expect(packs.map((f: { path: string }) => f.path)).toContainEqual(expect.stringMatching(new RegExp(`^repositories/${project.id}\\.git/objects/pack/pack-[0-9a-f]{40}\\.pack$`)))
    for (const f of packs) {
      const pack = entryData(bytes, f.path)
      expect(f).toEqual({ path: f.path, size: pack.length, pack_sha1: pack.subarray(-20).toString('hex') })
      expect(createHash('sha1').update(pack.subarray(0, -20)).digest('hex')).toBe(f.pack_sha1)
    }
    const whole = join(scratch, 'packed-restored')
    expect((await c.run(['backup', 'restore', file, '--data', whole])).exitCode).toBe(0)
    execFileSync('git', ['--git-dir', join(whole, 'repositories', `${project.id}.git`), 'fsck', '--no-progress', '--no-dangling'], { stdio: 'pipe' })

    // One byte inside the pack's objects flipped: its own SHA-1 no longer matches, though the manifest was not touched.
    const pack = packs[0].path
    const altered = Buffer.from(bytes)
    altered[entryOffset(bytes, pack) + Math.floor(packs[0].size / 2)] ^= 0x01
    writeFileSync(join(scratch, 'altered-pack.tar'), altered)
    const target = join(scratch, 'altered-pack-target')
    const r = await c.run(['backup', 'restore', join(scratch, 'altered-pack.tar'), '--data', target])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain(`'${pack}' does not match its checksum: the git pack's content does not give the SHA-1 it ends with`)
    expect(existsSync(target)).toBe(false)
  })

  it('refuses a non-empty directory, a truncated or altered archive, a foreign tar, a newer schema and entries that leave the directory', async () => {
    const target = join(scratch, 'target')
    const refused = async (file: string, why: RegExp) => {
      const r = await c.run(['backup', 'restore', file, '--data', target])
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toMatch(why)
      expect(r.stderr).toContain('was left as it was')
      // Absent, or as empty as it was; and nothing left beside it.
      expect(existsSync(target) ? readdirSync(target) : []).toEqual([])
      expect(readdirSync(scratch).filter((n) => n.includes('.restore-'))).toEqual([])
    }
    const bytes = readFileSync(archive)
    writeFileSync(join(scratch, 'truncated.tar'), bytes.subarray(0, Math.floor(bytes.length / 2)))
    await refused(join(scratch, 'truncated.tar'), /truncated/)
    // One byte of the database changed (its data starts after the header entry's two blocks and its own header).
    const altered = Buffer.from(bytes)
    altered[1536 + 100] ^= 0xff
    writeFileSync(join(scratch, 'altered.tar'), altered)
    await refused(join(scratch, 'altered.tar'), /'collab.db' does not match its checksum/)
    writeFileSync(join(scratch, 'hello.txt'), 'hello\n')
    execFileSync('tar', ['-cf', join(scratch, 'foreign.tar'), '-C', scratch, 'hello.txt'])
    await refused(join(scratch, 'foreign.tar'), /not a collab backup \(its first entry is 'hello.txt'/)
    mkdirSync(target)
    const header = (schema: number) => JSON.stringify({ format: 'collab-backup', format_version: 1, collab_version: '9.9.9', schema_version: schema, created_at: '2024-01-02T03:04:05.000Z', source: 'server' })
    await refused(await tarOf('newer.tar', { 'collab-backup.json': header(schemaVersion() + 1) }), /schema version \d+, newer than this collab/)
    await refused(await tarOf('escape.tar', { 'collab-backup.json': header(1), '../escaped.txt': 'out' }), /'..\/escaped.txt' leaves the directory/)
    expect(existsSync(join(scratch, 'escaped.txt'))).toBe(false)
    await refused(await tarOf('absolute.tar', { 'collab-backup.json': header(1), '/tmp/absolute.txt': 'out' }), /is an absolute path/)
    await refused(await tarOf('link.tar', { 'collab-backup.json': header(1), 'repositories/1.git': { link: '/etc' } }), /is a symlink/)
    writeFileSync(join(target, 'keep.txt'), 'mine\n')
    const full = await c.run(['backup', 'restore', archive, '--data', target])
    expect(full.exitCode).toBe(1)
    expect(full.stderr).toContain('is not empty')
    expect(readdirSync(target)).toEqual(['keep.txt'])
  })

  it('downloads the stored archive and has the server delete it when the CLI does not take the file (COLLAB_BACKUP_RECEIVE)', async () => {
    const file = join(scratch, 'received.tar')
    const made = await c.run(['backup', 'create', file, '--json'], { env: { COLLAB_BACKUP_RECEIVE: '1' } })
    expect(made.stderr).toBe('')
    expect(made.exitCode).toBe(0)
    const manifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json']).toString())
    expect(json(made.stdout)).toMatchObject({ file, compression: 'none', source: 'server', files: manifest.files.length, bytes: statSync(file).size, transfer: 'downloaded' })
    expect(readdirSync(join(server.dataDir, 'backups'))).toEqual([])
    expect(existsSync(`${file}.partial`)).toBe(false)
    const restored = join(scratch, 'received-restored')
    expect((await c.run(['backup', 'restore', file, '--data', restored])).exitCode).toBe(0)
    expect(integrity(restored)).toBe('ok')
    const copy = await serveDirectory(restored)
    try {
      const as = (token: string) => api({ url: copy.url }, token)
      expect(expectStatus(await as(alice.token).get('/user'), 200).body.username).toBe('alice')
      expect(expectStatus(await as(server.rootToken).get(`/projects/${project.id}/variables/DEPLOY_KEY`), 200).body.value).toBe('sealed-value-4f2a')
      expect(expectStatus(await as(server.rootToken).get(`/projects/${project.id}/wikis/home`), 200).body.content).toBe('wiki home')
    } finally {
      await copy.close()
    }
  })

  it('takes the server\'s file only from a server on this machine by its address (loopback), never from a name elsewhere', () => {
    for (const host of ['http://127.0.0.1:3000', 'http://localhost', 'http://LOCALHOST:8080/', 'http://[::1]:80', 'http://127.1.2.3']) expect(sameMachine(host), host).toBe(true)
    for (const host of ['https://gitlab.example.com', 'http://10.0.0.5:3000', 'http://127.0.0.1.example.com', 'http://[::ffff:10.0.0.1]', 'not a url']) expect(sameMachine(host), host).toBe(false)
  })

  // A server reached by this machine's own network address stands for one on another machine: the CLI cannot tell.
  const outward = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address
  it.skipIf(!outward)('streams the archive from a server reached by a network address, and the server keeps no copy', async () => {
    const dataDir = join(scratch, 'outward-data')
    const token = 'glpat-backup-outward-token-0000'
    const { app } = boot({ dataDir, log: silentLogger, rootToken: token })
    const s = createServer(app)
    const { url } = await s.listen(0, '0.0.0.0')
    try {
      const host = `http://${outward}:${new URL(url).port}`
      const file = join(scratch, 'outward.tar')
      const made = await c.run(['backup', 'create', file, '--json', '--host', host, '--token', token])
      expect(made.stderr).toBe('')
      expect(made.exitCode).toBe(0)
      expect(json(made.stdout)).toMatchObject({ file, compression: 'none', source: 'server', transfer: 'streamed' })
      expect(existsSync(join(dataDir, 'backups')) ? readdirSync(join(dataDir, 'backups')) : []).toEqual([])
      const restored = join(scratch, 'outward-restored')
      expect((await c.run(['backup', 'restore', file, '--data', restored])).exitCode).toBe(0)
      expect(integrity(restored)).toBe('ok')
    } finally {
      await s.close()
      closeDatabase(app.db)
    }
  })

  it('deletes the stored archive and leaves no file when the CLI fails after the server stored it', async () => {
    const file = join(scratch, 'blocked.tar')
    // The temporary name beside FILE is a directory: neither the move nor the download can write there.
    mkdirSync(join(`${file}.partial`, 'inside'), { recursive: true })
    const r = await c.run(['backup', 'create', file])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain(`cannot write the backup to ${file}.partial`)
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(join(server.dataDir, 'backups'))).toEqual([])
  })

  it('stores an archive on request (0600 in a 0700 directory), streams and deletes it by name, and refuses other names', async () => {
    const store = join(server.dataDir, 'backups')
    const made = expectStatus(await root.post('/admin/backups', { store: true }), 201).body
    expect(made.name).toMatch(/^collab-backup-\d{8}-\d{6}-[0-9a-f]{16}\.tar$/)
    expect(made).toMatchObject({ path: join(store, made.name), size: statSync(join(store, made.name)).size, source: 'server', schema_version: schemaVersion() })
    expect(statSync(store).mode & 0o777).toBe(0o700)
    expect(statSync(made.path).mode & 0o777).toBe(0o600)
    const res = await fetch(`${server.api}/admin/backups/${made.name}`, { headers: { 'PRIVATE-TOKEN': server.rootToken } })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(made.path))).toBe(true)

    // Not an administrator: refused before any file is looked at.
    expect((await api(server, alice.token).post('/admin/backups', { store: true })).status).toBe(403)
    expect((await api(server, alice.token).get(`/admin/backups/${made.name}`)).status).toBe(403)
    expect((await api(server, alice.token).del(`/admin/backups/${made.name}`)).status).toBe(403)
    expect(existsSync(made.path)).toBe(true)

    // Names the server does not give, or that leave the directory, are no stored backup; the files they name stay.
    writeFileSync(join(store, 'other.tar'), 'not a stored backup')
    const outside = join(scratch, 'outside-collab-backup-20240101-000000-0123456789abcdef.tar')
    writeFileSync(outside, 'outside')
    for (const name of ['collab-backup-20240101-000000-0123456789abcdef.tar', 'other.tar', '..%2Fsecrets.json', '..%2F..%2Fcollab.db',
      encodeURIComponent(outside), `..%2F..%2F${encodeURIComponent(outside)}`, '.writing-x']) {
      for (const method of ['get', 'del'] as const) {
        const r = await root[method](`/admin/backups/${name}`)
        expect([400, 404]).toContain(r.status)
        if (r.status === 404 && r.body?.message) expect(r.body).toEqual({ message: '404 Not Found' })
      }
    }
    expect(readFileSync(join(store, 'other.tar'), 'utf8')).toBe('not a stored backup')
    expect(readFileSync(outside, 'utf8')).toBe('outside')
    expect(existsSync(join(server.dataDir, 'secrets.json'))).toBe(true)
    rmSync(join(store, 'other.tar'))

    expect((await root.del(`/admin/backups/${made.name}`)).status).toBe(204)
    expect(existsSync(made.path)).toBe(false)
    expect((await root.get(`/admin/backups/${made.name}`)).status).toBe(404)
    expect((await root.del(`/admin/backups/${made.name}`)).status).toBe(404)
  })

  it('exits 2 on bad flags', async () => {
    expect((await c.run(['backup', 'restore', archive])).exitCode).toBe(2)
    expect((await c.run(['backup', 'create', '--compress', 'lzma'])).exitCode).toBe(2)
    expect((await c.run(['backup', 'create', '-', '--json'])).exitCode).toBe(2)
  })
})

/** Where the data of the entry `name` starts in a tar (names under ustar's 100 bytes, as the packs' are). */
function entryOffset(tar: Buffer, name: string): number {
  for (let at = 0; at + 512 <= tar.length;) {
    const entry = tar.toString('utf8', at, at + 100).replace(/\0.*$/s, '')
    const size = parseInt(tar.toString('ascii', at + 124, at + 136).replace(/\0.*$/s, '').trim() || '0', 8)
    if (entry === name) return at + 512
    if (!entry) break
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`no entry ${name} in the archive`)
}

const entryData = (tar: Buffer, name: string) => {
  const at = entryOffset(tar, name)
  const size = parseInt(tar.toString('ascii', at - 512 + 124, at - 512 + 136).replace(/\0.*$/s, '').trim(), 8)
  return tar.subarray(at, at + size)
}

/** A tar of the given entries, in order: text for a file, `{ link }` for a symbolic link. */
async function tarOf(name: string, entries: Record<string, string | { link: string }>): Promise<string> {
  const { default: tar } = await import('tar-stream')
  const pack = tar.pack()
  for (const [path, body] of Object.entries(entries)) {
    if (typeof body === 'string') pack.entry({ name: path }, body)
    else pack.entry({ name: path, type: 'symlink', linkname: body.link })
  }
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const chunk of pack) chunks.push(chunk as Buffer)
  const file = join(scratch, name)
  writeFileSync(file, Buffer.concat(chunks))
  return file
}
