// GET /projects/:id/repository/archive[.format]: git archive streamed, opened with the real tar and unzip.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let id: number
let sha: string
let work: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  const p = await createProject(alice.api, { name: 'arch', visibility: 'private' })
  id = p.id
  sha = (await commit(alice.api, id, {
    branch: 'main', commit_message: 'Initial commit',
    actions: [create('README.md', 'hello\n'), create('src/app.txt', 'one\ntwo\n'), create('src/lib/deep.txt', 'deep\n'), create('docs/a b.txt', 'spaced\n')],
  })).id
  await alice.api.post(`${repo(id)}/branches`, { branch: 'feature/x', ref: 'main' })
  work = mkdtempSync(join(tmpdir(), 'collab-archive-'))
})
afterAll(async () => {
  rmSync(work, { recursive: true, force: true })
  await server.close()
})

async function download(path: string, token: string | null = alice.token) {
  const res = await fetch(`${server.api}${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} })
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

function saved(name: string, bytes: Buffer) {
  const file = join(work, name)
  writeFileSync(file, bytes)
  return file
}

const tarList = (file: string, flag: string) => execFileSync('tar', [`-t${flag}f`, file], { encoding: 'utf8' }).trim().split('\n')

describe('GET /projects/:id/repository/archive', () => {
  it('streams a tar.gz of the default branch named <project>-<ref>-<sha>, with Workhorse headers and no length', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="arch-main-${sha}.tar.gz"`)
    expect(res.headers.get('content-transfer-encoding')).toBe('binary')
    expect(res.headers.get('content-length')).toBeNull()
    expect(res.headers.get('transfer-encoding')).toBe('chunked')
    const file = saved('a.tar.gz', bytes)
    const root = `arch-main-${sha}`
    expect(tarList(file, 'z')).toEqual([
      `${root}/`, `${root}/README.md`, `${root}/docs/`, `${root}/docs/a b.txt`, `${root}/src/`, `${root}/src/app.txt`, `${root}/src/lib/`, `${root}/src/lib/deep.txt`,
    ])
    execFileSync('tar', ['-xzf', file, '-C', work])
    expect(readFileSync(join(work, root, 'src/app.txt'), 'utf8')).toBe('one\ntwo\n')
  })

  it('writes a zip that unzip opens', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive.zip?sha=feature/x`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="arch-feature-x-${sha}.zip"`)
    const file = saved('a.zip', bytes)
    expect(execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n')).toContain(`arch-feature-x-${sha}/src/lib/deep.txt`)
    expect(execFileSync('unzip', ['-p', file, `arch-feature-x-${sha}/docs/a b.txt`], { encoding: 'utf8' })).toBe('spaced\n')
  })

  it.each([
    ['tar.bz2', 'tar.bz2', 'j'], ['tbz', 'tar.bz2', 'j'], ['tbz2', 'tar.bz2', 'j'], ['tb2', 'tar.bz2', 'j'], ['bz2', 'tar.bz2', 'j'],
    ['tar', 'tar', ''], ['tar.gz', 'tar.gz', 'z'], ['tgz', 'tar.gz', 'z'], ['gz', 'tar.gz', 'z'],
  ])('answers .%s as a %s archive', async (format, ext, flag) => {
    const { res, bytes } = await download(`${repo(id)}/archive.${format}?sha=${sha}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="arch-${sha}-${sha}.${ext}"`)
    expect(tarList(saved(`f.${ext}`, bytes), flag)).toContain(`arch-${sha}-${sha}/README.md`)
  })

  it('archives only `path`, its name in the file name, entries keeping their full path', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive.tar?path=src/lib/`)
    expect(res.status).toBe(200)
    const root = `arch-main-${sha}-src-lib`
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${root}.tar"`)
    expect(tarList(saved('p.tar', bytes), '')).toEqual([`${root}/`, `${root}/src/`, `${root}/src/lib/`, `${root}/src/lib/deep.txt`])
  })

  it('leaves out exclude_paths', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive.tar?exclude_paths[]=src/lib&exclude_paths[]=docs`)
    expect(res.status).toBe(200)
    const root = `arch-main-${sha}`
    expect(tarList(saved('x.tar', bytes), '')).toEqual([`${root}/`, `${root}/README.md`, `${root}/src/`, `${root}/src/app.txt`])
  })

  it('takes a path holding pathspec magic as a file name', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive.tar?path=${encodeURIComponent(':(glob)**')}`)
    expect([res.status, bytes.toString()]).toEqual([404, '{"message":"404 File Not Found"}'])
  })

  it.each([
    ['an unknown format', 'archive.rar', '{"error":"404 Not Found"}'],
    ['an unknown sha', 'archive?sha=nope', '{"message":"404 Not Found"}'],
    ['a missing path', 'archive?path=missing', '{"message":"404 File Not Found"}'],
  ])('answers 404 for %s', async (_what, path, body) => {
    const { res, bytes } = await download(`${repo(id)}/${path}`)
    expect([res.status, bytes.toString()]).toEqual([404, body])
  })

  it('refuses a path leaving the tree with 400', async () => {
    const { res, bytes } = await download(`${repo(id)}/archive?path=../etc`)
    expect([res.status, bytes.toString()]).toEqual([400, '{"message":"400 Bad request - path is invalid: \\"../etc\\""}'])
  })

  it('answers 404 for an empty repository and hides a private project from strangers', async () => {
    const empty = await createProject(alice.api, { name: 'empty' })
    const { res, bytes } = await download(`${repo(empty.id)}/archive.zip`)
    expect([res.status, bytes.toString()]).toEqual([404, '{"message":"404 Not Found"}'])
    const anonymous = await download(`${repo(id)}/archive`, null)
    expect([anonymous.res.status, anonymous.bytes.toString()]).toEqual([404, '{"message":"404 Project Not Found"}'])
  })

  it('keeps a made archive on disk and serves the next download of it from there', async () => {
    const cache = join(server.dataDir, 'cache', 'archives', String(id))
    const before = new Set(readdirSync(cache))
    const first = await download(`${repo(id)}/archive.tar?path=docs`)
    const made = () => readdirSync(cache).filter((n) => !before.has(n) && !n.endsWith('.tmp'))
    await expect.poll(made).toHaveLength(1)
    const [name] = made()
    expect(name).toMatch(/^[0-9a-f]{64}\.tar$/)
    expect(readFileSync(join(cache, name))).toEqual(first.bytes)
    // Proof the second answer is the kept file: change the kept bytes and see them served.
    writeFileSync(join(cache, name), 'kept')
    const second = await download(`${repo(id)}/archive.tar?path=docs`)
    expect([second.res.status, second.bytes.toString()]).toEqual([200, 'kept'])
    expect(readdirSync(cache).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('stops git when the client hangs up midway, and keeps serving', async () => {
    const controller = new AbortController()
    const res = await fetch(`${server.api}${repo(id)}/archive.tar`, { headers: { 'PRIVATE-TOKEN': alice.token }, signal: controller.signal })
    controller.abort()
    await res.arrayBuffer().catch(() => {})
    expectStatus(await alice.api.get(`/projects/${id}`), 200)
  })
})
