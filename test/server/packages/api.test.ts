// The package registry: generic package files uploaded (streamed to disk, 413 past the plan limit) and downloaded, the
// Packages API over them, and a job token publishing from a real pipeline job.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Package, PackageFile, PackageFileRecord } from '../../../src/contract/entities/packages.js'
import { fixedClock } from '../../../src/core/clock.js'
import { api, createGroup, createProject, createUser, expectStatus, rawRequest, request, type Api, type TestUser } from '../../helpers/api.js'
import { ciProject, startCiServer, waitForFinished, projectPipelines } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { signIn } from '../web/fixture.js'

const AT = '2026-03-01T10:00:00.000Z'
let server: TestServer
let root: Api
let alice: TestUser
let dev: TestUser
let rep: TestUser
let guest: TestUser
let stranger: TestUser
let id: number
let groupId: number

const generic = (name: string, version: string, file: string) => `/projects/${id}/packages/generic/${name}/${version}/${file}`
const upload = (as: Api, path: string, body: string | Buffer, query?: Record<string, string>) =>
  as.request('PUT', path, { body, query, headers: { 'Content-Type': 'application/octet-stream' } })
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')
const digest = (algo: string, s: string) => createHash(algo).update(s).digest('hex')
/** Every file under the data directory's packages/, relative: what uploads left on disk. */
const filesOnDisk = (): string[] => {
  const dir = join(server.dataDir, 'packages')
  try {
    return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
      .filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort()
  } catch {
    return []
  }
}

beforeAll(async () => {
  server = await startCiServer({ runner: true, clock: fixedClock(AT) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  dev = await createUser(server, 'dev')
  rep = await createUser(server, 'rep')
  guest = await createUser(server, 'guest')
  stranger = await createUser(server, 'stranger')
  groupId = expectStatus(await alice.api.post('/groups', { name: 'Tools', path: 'tools', visibility: 'private' }), 201).body.id
  id = (await createProject(alice.api, { name: 'app', namespace_id: groupId, visibility: 'private' })).id
  for (const [u, level] of [[dev, 30], [rep, 20], [guest, 10]] as const) {
    expectStatus(await alice.api.post(`/projects/${id}/members`, { user_id: u.id, access_level: level }), 201)
  }
})
afterAll(() => server.close())

describe('PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name', () => {
  it('stores the body as a package file: 201 Created, or the file record with select=package_file', async () => {
    const first = await upload(dev.api, generic('my_pkg', '1.0.0', 'notes.txt'), 'first text')
    expect([first.status, first.body]).toEqual([201, { message: '201 Created' }])
    const again = expectStatus(await upload(dev.api, generic('my_pkg', '1.0.0', 'notes.txt'), 'second text', { select: 'package_file' }), 201)
    const hash = sha256(String(id))
    expect(again.body).toEqual({
      id: 2, package_id: 1, created_at: AT, updated_at: AT, size: 11, file_store: 1,
      file_md5: digest('md5', 'second text'), file_sha1: digest('sha1', 'second text'), file_name: 'notes.txt',
      file: { url: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}/packages/1/files/2/notes.txt` },
      file_sha256: sha256('second text'), verification_retry_at: null, verified_at: null, verification_failure: null,
      verification_retry_count: null, verification_checksum: null, verification_state: 0, verification_started_at: null,
      status: 'default', file_final_path: null, project_id: id, new_file_path: null,
    })
    expect(PackageFileRecord.parse(again.body)).toEqual(again.body)
    // Named by ids only; the upload's temporary directory is gone.
    expect(filesOnDisk()).toEqual([`${id}/1/1`, `${id}/1/2`])
    expect(readFileSync(join(server.dataDir, 'packages', String(id), '1', '2'), 'utf8')).toBe('second text')
  })

  it("refuses names, versions and file names outside GitLab's rules with Grape's words", async () => {
    const cases: [string, string][] = [
      [generic('my%20pkg', '1.0.0', 'a.txt'), 'package_name is invalid'],
      [generic('pkg', '1..0', 'a.txt'), 'package_version is invalid'],
      [generic('pkg', '1.0', '~a.txt'), 'file_name is invalid'],
      [generic('pkg', '1.0', 'dir%2Fa.txt'), 'file_name is invalid'],
    ]
    for (const [path, error] of cases) {
      const res = await upload(dev.api, path, 'x')
      expect([res.status, res.body], path).toEqual([400, { error }])
    }
    const both = await upload(dev.api, generic('a b', '1.0', 'a.txt'), 'x', { status: 'gone' })
    expect(both.body).toEqual({ error: 'package_name is invalid, status does not have a valid value' })
  })

  it('needs a Developer: 401 without a token, 403 for a Reporter, 404 for a stranger to the private project', async () => {
    const path = generic('pkg', '1.0', 'a.txt')
    expect((await upload(api(server), path, 'x')).body).toEqual({ message: '401 Unauthorized' })
    const reporter = await upload(rep.api, path, 'x')
    expect([reporter.status, reporter.body]).toEqual([403, { message: '403 Forbidden' }])
    const other = await upload(stranger.api, path, 'x')
    expect([other.status, other.body]).toEqual([404, { message: '404 Project Not Found' }])
    expect(filesOnDisk()).toEqual([`${id}/1/1`, `${id}/1/2`])
  })

  it('answers 413 past generic_packages_max_file_size, declared or streamed, and keeps nothing of it', async () => {
    expectStatus(await dev.api.get('/application/plan_limits'), 403)
    const limits = expectStatus(await root.put('/application/plan_limits', { plan_name: 'default', generic_packages_max_file_size: 1024 }), 200)
    expect(limits.body).toEqual({ generic_packages_max_file_size: 1024 })
    try {
      const path = `/api/v4${generic('big', '1.0', 'big.bin')}`
      const headers = { 'PRIVATE-TOKEN': dev.token, 'Content-Type': 'application/octet-stream' }
      const declared = await rawRequest(server, { method: 'PUT', path, headers: { ...headers, 'Content-Length': 2048 }, body: Buffer.alloc(2048, 1) })
      expect([declared.status, declared.body]).toEqual([413, { message: '413 Request Entity Too Large' }])
      // Chunked: the limit is met while the bytes stream to disk.
      const streamed = await rawRequest(server, { method: 'PUT', path, headers, body: [Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)] })
      expect([streamed.status, streamed.body]).toEqual([413, { message: '413 Request Entity Too Large' }])
      expect(readdirSync(join(server.dataDir, 'packages')).sort()).toEqual([String(id)])
      expect(filesOnDisk()).toEqual([`${id}/1/1`, `${id}/1/2`])
      expect(expectStatus(await dev.api.get(`/projects/${id}/packages`, { query: { package_name: 'big' } }), 200).body).toEqual([])
      const fits = await upload(dev.api, generic('small', '1.0', 'ok.bin'), Buffer.alloc(1024, 3))
      expect(fits.status).toBe(201)
    } finally {
      expectStatus(await root.put('/application/plan_limits', { plan_name: 'default', generic_packages_max_file_size: 5368709120 }), 200)
    }
    const bad = await root.put('/application/plan_limits', { plan_name: 'default', generic_packages_max_file_size: -1 })
    expect([bad.status, bad.body]).toEqual([400, { message: { generic_packages_max_file_size: ['must be greater than or equal to 0'] } }])
  })
})

describe('GET /projects/:id/packages/generic/…', () => {
  it("streams the newest file of that name, with its digest, to readers of the project (a private project's Guests too)", async () => {
    const res = await guest.api.get(generic('my_pkg', '1.0.0', 'notes.txt'))
    expect([res.status, res.text]).toEqual([200, 'second text'])
    expect(Object.fromEntries(['content-type', 'content-length', 'content-disposition', 'x-checksum-sha256'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'content-type': 'application/octet-stream', 'content-length': '11',
      'content-disposition': `attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`, 'x-checksum-sha256': sha256('second text'),
    })
    const pkg = expectStatus(await dev.api.get(`/projects/${id}/packages/1`), 200).body
    expect(pkg.last_downloaded_at).toBe(AT)
  })

  it('answers GitLab\'s 404s: the project hidden from strangers and anonymous callers, "404 Not found" for a missing file', async () => {
    for (const as of [api(server), stranger.api]) {
      expect((await as.get(generic('my_pkg', '1.0.0', 'notes.txt'))).body).toEqual({ message: '404 Project Not Found' })
    }
    for (const path of [generic('my_pkg', '1.0.0', 'other.txt'), generic('my_pkg', '9.9', 'notes.txt'), generic('nope', '1.0.0', 'notes.txt')]) {
      const res = await dev.api.get(path)
      expect([res.status, res.body], path).toEqual([404, { message: '404 Not found' }])
    }
  })

  it('takes a token as the password of HTTP Basic credentials', async () => {
    const basic = (user: string, token: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}` })
    const res = await request(server, 'GET', `/api/v4${generic('my_pkg', '1.0.0', 'notes.txt')}`, { headers: basic('anyone', dev.token) })
    expect([res.status, res.text]).toEqual([200, 'second text'])
    const wrong = await request(server, 'GET', `/api/v4${generic('my_pkg', '1.0.0', 'notes.txt')}`, { headers: basic('anyone', 'glpat-nope') })
    expect([wrong.status, wrong.body]).toEqual([401, { message: '401 Unauthorized' }])
  })
})

describe('the Packages API', () => {
  it('lists displayable packages with filters, order and pagination; hidden ones only when asked', async () => {
    expectStatus(await upload(dev.api, generic('my_pkg', '2.0.0', 'notes.txt'), 'v2'), 201)
    expectStatus(await upload(dev.api, generic('secret', '1.0', 's.txt'), 'hidden', { status: 'hidden' }), 201)
    const all = expectStatus(await rep.api.get(`/projects/${id}/packages`), 200)
    expect(all.body.map((p: Package) => `${p.name}@${p.version}`)).toEqual(['my_pkg@1.0.0', 'small@1.0', 'my_pkg@2.0.0'])
    expect(all.headers.get('x-total')).toBe('3')
    expect(all.body[0]).toEqual({
      id: 1, name: 'my_pkg', version: '1.0.0', package_type: 'generic', status: 'default', _links: { web_path: '/tools/app/-/packages/1' },
      created_at: AT, last_downloaded_at: AT, tags: [],
    })
    expect(Package.array().parse(all.body)).toEqual(all.body)
    const query = async (q: Record<string, string>, as = rep.api) =>
      expectStatus(await as.get(`/projects/${id}/packages`, { query: q }), 200).body.map((p: Package) => p.id)
    expect(await query({ package_name: 'PKG' })).toEqual([1, 3])
    expect(await query({ package_version: '2.0.0' })).toEqual([3])
    expect(await query({ status: 'hidden' })).toEqual([4])
    expect(await query({ order_by: 'version', sort: 'desc' })).toEqual([3, 1, 2])
    expect(await query({ package_type: 'npm' })).toEqual([])
    expect(await query({ per_page: '1', page: '2' })).toEqual([2])
    // A Maintainer may delete, and sees where.
    const mine = expectStatus(await alice.api.get(`/projects/${id}/packages`, { query: { per_page: 1 } }), 200).body[0]
    expect(mine._links).toEqual({ web_path: '/tools/app/-/packages/1', delete_api_path: `${server.url}/api/v4/projects/${id}/packages/1` })
    const bad = await rep.api.get(`/projects/${id}/packages`, { query: { package_type: 'zip' } })
    expect(bad.status).toBe(400)
  })

  it("answers one package with its name's other versions, and its files", async () => {
    const one = expectStatus(await rep.api.get(`/projects/${id}/packages/1`), 200).body
    expect(one.versions).toEqual([{ id: 3, version: '2.0.0', created_at: AT, tags: [] }])
    const hidden = await rep.api.get(`/projects/${id}/packages/4`)
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Not found' }])
    const files = expectStatus(await rep.api.get(`/projects/${id}/packages/1/package_files`), 200)
    expect(files.body).toEqual([
      { id: 1, package_id: 1, created_at: AT, file_name: 'notes.txt', size: 10, file_md5: digest('md5', 'first text'), file_sha1: digest('sha1', 'first text'), file_sha256: sha256('first text') },
      { id: 2, package_id: 1, created_at: AT, file_name: 'notes.txt', size: 11, file_md5: digest('md5', 'second text'), file_sha1: digest('sha1', 'second text'), file_sha256: sha256('second text') },
    ])
    expect(PackageFile.array().parse(files.body)).toEqual(files.body)
    const desc = expectStatus(await rep.api.get(`/projects/${id}/packages/1/package_files`, { query: { sort: 'desc' } }), 200)
    expect(desc.body.map((f: PackageFile) => f.id)).toEqual([2, 1])
  })

  it('lists a group\'s packages with their projects', async () => {
    const res = expectStatus(await alice.api.get(`/groups/${groupId}/packages`, { query: { package_name: 'small' } }), 200)
    expect(res.body.map((p: Package) => [p.name, p.project_id, p.project_path])).toEqual([['small', id, 'tools/app']])
    expect((await stranger.api.get(`/groups/${groupId}/packages`)).status).toBe(404)
  })

  it("shows the list and one package at _links.web_path, each file linked to its download, to the project's readers", async () => {
    const cookie = await signIn(server, guest)
    const list = await request(server, 'GET', '/tools/app/-/packages', { headers: { Cookie: cookie } })
    expect([list.status, [...list.text.matchAll(/packages\/(\d+)"><strong>([^<]+)</g)].map((m) => `${m[1]}:${m[2]}`)]).toEqual([200, ['1:my_pkg', '2:small', '3:my_pkg']])
    const one = await request(server, 'GET', '/tools/app/-/packages/1', { headers: { Cookie: cookie } })
    const link = `${server.url}/api/v4/projects/${id}/packages/generic/my_pkg/1.0.0/notes.txt`
    expect([one.status, one.text.split(`<a href="${link}">notes.txt</a>`).length - 1]).toEqual([200, 2])
    const file = await request(server, 'GET', link.slice(server.url.length), { headers: { Cookie: cookie } })
    expect([file.status, file.text]).toEqual([200, 'second text'])
    expect((await request(server, 'GET', '/tools/app/-/packages/1')).status).toBe(404)
  })

  it('deletes files and packages for Maintainers only, with their files on disk', async () => {
    const byDev = await dev.api.del(`/projects/${id}/packages/1/package_files/1`)
    expect([byDev.status, byDev.body]).toEqual([403, { message: '403 Forbidden' }])
    expectStatus(await alice.api.del(`/projects/${id}/packages/1/package_files/1`), 204)
    expect((await alice.api.del(`/projects/${id}/packages/1/package_files/1`)).body).toEqual({ message: '404 Not found' })
    expect(filesOnDisk()).not.toContain(`${id}/1/1`)
    expect(filesOnDisk()).toContain(`${id}/1/2`)
    expectStatus(await alice.api.del(`/projects/${id}/packages/1`), 204)
    expect(filesOnDisk().filter((f) => f.startsWith(`${id}/1/`))).toEqual([])
    expect((await alice.api.get(`/projects/${id}/packages/1`)).body).toEqual({ message: '404 Not found' })
    expect((await dev.api.get(generic('my_pkg', '1.0.0', 'notes.txt'))).status).toBe(404)
  })
})

describe('a job token', () => {
  it('publishes from a pipeline job (JOB-TOKEN and gitlab-ci-token Basic credentials), the package naming its pipeline', async () => {
    const url = '$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/generic/ci_app/1.2.3'
    // Single-quoted YAML: the header's `: ` would otherwise end a plain scalar.
    const yaml = [
      'publish:',
      '  script:',
      `    - 'printf "built by CI" > app.bin'`,
      `    - 'curl -sf --header "JOB-TOKEN: $CI_JOB_TOKEN" --upload-file app.bin "${url}/app.bin"'`,
      `    - 'curl -sf --user "gitlab-ci-token:$CI_JOB_TOKEN" --upload-file app.bin "${url}/copy.bin"'`,
      `    - 'curl -sf --header "JOB-TOKEN: $CI_JOB_TOKEN" "${url}/app.bin" | grep -q "built by CI"'`,
    ].join('\n')
    const { project } = await ciProject(server, 'ci-app', yaml)
    const [pipeline] = await projectPipelines(server, root, project.id)
    const done = await waitForFinished(server, pipeline.id, 60_000)
    const [job] = expectStatus(await root.get(`/projects/${project.id}/jobs`), 200).body
    expect([done.status, done.yaml_errors, job && (await root.get(`/projects/${project.id}/jobs/${job.id}/trace`)).text]).toEqual(['success', null, expect.any(String)])
    const [pkg] = expectStatus(await root.get(`/projects/${project.id}/packages`), 200).body
    expect([pkg.name, pkg.version, pkg.pipeline.id, pkg.pipeline.user.username, pkg.pipelines]).toEqual(['ci_app', '1.2.3', pipeline.id, 'root', []])
    const files = expectStatus(await root.get(`/projects/${project.id}/packages/${pkg.id}/package_files`), 200).body
    expect(files.map((f: PackageFile) => [f.file_name, f.file_sha256, f.pipelines?.map((p) => p.id)])).toEqual([
      ['app.bin', sha256('built by CI'), [pipeline.id]], ['copy.bin', sha256('built by CI'), [pipeline.id]],
    ])
  })
})
