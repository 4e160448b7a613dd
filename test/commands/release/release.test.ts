// collab release against a real server, through the built CLI in piped mode: create (notes, milestones, links, files
// into the package registry), list, view, edit, upload and download of assets, delete; and the argv checks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ok, rootCli, type Cli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'

let server: TestServer
let c: Cli
let root: Api
let project: { id: number; web_url: string }
let work: string
const P = ['-p', 'root/demo']

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  c = await rootCli(server)
  root = api(server, server.rootToken)
  project = expectStatus(await root.post('/projects', { name: 'demo' }), 201).body
  await commit(root, project.id, { commit_message: 'first', actions: [create('README.md', 'demo\n')] })
  expectStatus(await root.post(`/projects/${project.id}/milestones`, { title: 'm1' }), 201)
  work = mkdtempSync(join(tmpdir(), 'collab-release-files-'))
  writeFileSync(join(work, 'tool.bin'), Buffer.from([0, 1, 2, 255, 10]))
  writeFileSync(join(work, 'notes.md'), 'From a file\n')
}, 60_000)
afterAll(async () => {
  c?.cleanup()
  if (work) rmSync(work, { recursive: true, force: true })
  await server?.close()
})

describe('collab release argv', () => {
  it('reads files, links and milestones, and refuses bad ones before any request', async () => {
    const { options } = await optionsOf(['release', 'create', 'v1', 'a/b.zip#Binary#package', 'c.txt', '-m', 'm1,m2', '-m', 'm3',
      '-a', '[{"name":"doc","url":"https://example.com/doc","filepath":"/doc"}]', '--no-update', '-N', 'hi'])
    expect(options).toMatchObject({
      tag: 'v1', notes: 'hi', milestones: ['m1', 'm2', 'm3'], update: false, closeMilestones: true, packageName: 'release-assets',
      files: [{ path: 'a/b.zip', name: 'b.zip', label: 'Binary', linkType: 'package' }, { path: 'c.txt', name: 'c.txt', label: 'c.txt' }],
      links: [{ name: 'doc', url: 'https://example.com/doc', direct_asset_path: '/doc' }],
    })
    const bad = await parse(['release', 'create', 'v1', 'x#y#zip'])
    expect([bad.exitCode, bad.stderr]).toEqual([2, "error: unknown link type 'zip' in 'x#y#zip'\nhint: use one of other, runbook, image, package\n"])
    const twice = await parse(['release', 'create', 'v1', '-N', 'a', '-F', 'f'])
    expect([twice.exitCode, twice.stderr]).toEqual([2, 'error: give the notes once: --notes, --notes-file or --notes-text-or-file\n'])
    expect((await parse(['release', 'create', 'v1', '-a', '[{"url":"x"}]'])).exitCode).toBe(2)
    expect((await parse(['release', 'create', 'v1', '-D', 'tomorrow'])).exitCode).toBe(2)
  })
})

describe('collab release', () => {
  it('creates releases with notes, milestones, links and files, lists and views them', async () => {
    const links = JSON.stringify([{ name: 'docs', url: 'https://example.com/docs', link_type: 'runbook' }])
    const created = await c.run(['release', 'create', 'v1.0', 'tool.bin#Tool#package', '-n', 'First', '-F', 'notes.md', '-r', 'master',
      '-m', 'm1', '-a', links, '-D', '2024-01-01T00:00:00Z', ...P], { cwd: work })
    expect(created).toEqual(ok(`${project.web_url}/-/releases/v1.0\n`, 'Created release First (v1.0) in root/demo with 2 asset links\n'))
    const release = expectStatus(await root.get(`/projects/${project.id}/releases/v1.0`), 200).body
    expect(release).toMatchObject({ name: 'First', tag_name: 'v1.0', description: 'From a file\n', released_at: '2024-01-01T00:00:00.000Z' })
    // glab closes a release's milestones unless --no-close-milestone.
    expect(release.milestones.map((m: { title: string; state: string }) => [m.title, m.state])).toEqual([['m1', 'closed']])
    const tool = release.assets.links.find((l: { name: string }) => l.name === 'Tool')
    expect(tool).toMatchObject({
      url: `${server.url}/api/v4/projects/${project.id}/packages/generic/release-assets/v1.0/tool.bin`, link_type: 'package',
      direct_asset_url: `${project.web_url}/-/releases/v1.0/downloads/tool.bin`,
    })
    const stored = await fetch(tool.url, { headers: { 'PRIVATE-TOKEN': server.rootToken } })
    expect(Buffer.from(await stored.arrayBuffer())).toEqual(Buffer.from([0, 1, 2, 255, 10]))

    const again = await c.run(['release', 'create', 'v1.0', '--no-update', ...P])
    expect(again).toEqual({ stdout: '', stderr: 'error: a release of v1.0 exists already in root/demo\nhint: leave out --no-update to update it\n', exitCode: 1 })
    expect(await c.run(['release', 'create', 'v2.0', '-r', 'master', '-N', 'Second', '--json', ...P])).toMatchObject({ exitCode: 0, stderr: 'Created release v2.0 (v2.0) in root/demo\n' })
    const json = JSON.parse((await c.run(['release', 'view', 'v2.0', '--json', ...P])).stdout)
    expect(json).toEqual(expectStatus(await root.get(`/projects/${project.id}/releases/v2.0`), 200).body)

    expect(await c.run(['release', 'list', ...P])).toEqual(ok(`v2.0\tv2.0\t2024-01-02T03:04:05.000Z\t0\nFirst\tv1.0\t2024-01-01T00:00:00.000Z\t2\n`))
    const view = await c.run(['release', 'view', 'v1.0', ...P])
    expect(view.stdout).toBe([
      'name\tFirst', 'tag\tv1.0', 'author\troot', `commit\t${release.commit.id}`, 'created_at\t2024-01-02T03:04:05.000Z',
      'released_at\t2024-01-01T00:00:00.000Z', 'upcoming\tfalse', 'milestones\tm1', 'assets\t2', `web_url\t${project.web_url}/-/releases/v1.0`,
      ...release.assets.links.map((l: { name: string; link_type: string; direct_asset_url: string }) => `asset\t${l.name}\t${l.link_type}\t${l.direct_asset_url}`),
      '--', 'From a file', '',
    ].join('\n'))
    // Without a tag: the latest by released_at.
    expect((await c.run(['release', 'view', ...P])).stdout).toMatch(/^name\tv2\.0\n/)
  })

  it('edits, uploads and downloads assets, and deletes with the tag', async () => {
    expect(await c.run(['release', 'edit', 'v2.0', '-n', 'Two', '-N', 'Changed', ...P])).toEqual(ok('', 'Updated release Two (v2.0) in root/demo\n'))
    expect(expectStatus(await root.get(`/projects/${project.id}/releases/v2.0`), 200).body).toMatchObject({ name: 'Two', description: 'Changed' })
    expect(await c.run(['release', 'edit', 'v2.0', ...P])).toMatchObject({ exitCode: 2, stderr: 'error: nothing to change\nhint: pass --name, --notes, --notes-file, --released-at or --milestone\n' })
    // create on an existing release updates it, as glab's does without --no-update.
    const links = JSON.stringify({ name: 'site', url: 'https://example.com/site' })
    expect(await c.run(['release', 'create', 'v2.0', '-N', 'Again', '-a', links, ...P]))
      .toEqual(ok(`${project.web_url}/-/releases/v2.0\n`, 'Updated release Two (v2.0) in root/demo with 1 asset link\n'))
    expect(expectStatus(await root.get(`/projects/${project.id}/releases/v2.0`), 200).body)
      .toMatchObject({ name: 'Two', description: 'Again', assets: { links: [expect.objectContaining({ name: 'site' })] } })

    writeFileSync(join(work, 'app.tar.gz'), 'archive bytes')
    expect(await c.run(['release', 'upload', 'v2.0', 'app.tar.gz', 'tool.bin#tool-linux', ...P], { cwd: work }))
      .toEqual(ok('', 'Added 2 assets to the release of v2.0 in root/demo\n'))
    const out = join(work, 'out')
    expect(await c.run(['release', 'download', 'v2.0', '-D', out, '-x', '*.gz', '-x', 'site', ...P])).toEqual(ok('', `Downloaded tool-linux to ${out}/tool-linux\n`))
    expect(readFileSync(join(out, 'tool-linux'))).toEqual(Buffer.from([0, 1, 2, 255, 10]))
    expect(await c.run(['release', 'download', '-n', 'app*', ...P], { cwd: work })).toEqual(ok('', 'Downloaded app.tar.gz to app.tar.gz\n'))
    expect(readFileSync(join(work, 'app.tar.gz'), 'utf8')).toBe('archive bytes')
    expect(await c.run(['release', 'download', 'v2.0', '-n', 'nothing*', ...P])).toMatchObject({ exitCode: 2, stderr: 'error: no asset matches (release v2.0 of root/demo)\n' })
    expect(await c.run(['release', 'upload', 'v9', 'app.tar.gz', ...P], { cwd: work })).toMatchObject({ exitCode: 1 })

    // Piped, a confirmation cannot be asked: --yes is needed.
    expect((await c.run(['release', 'delete', 'v2.0', ...P])).exitCode).toBe(2)
    expect(await c.run(['release', 'delete', 'v2.0', '--yes', '--with-tag', ...P])).toEqual(ok('', 'Deleted the release of v2.0 and the tag in root/demo\n'))
    expect((await root.get(`/projects/${project.id}/releases/v2.0`)).status).toBe(404)
    expect((await root.get(`/projects/${project.id}/repository/tags/v2.0`)).status).toBe(404)
    expect(await c.run(['release', 'delete', 'v1.0', '-y', ...P])).toEqual(ok('', 'Deleted the release of v1.0 in root/demo\n'))
    expect((await root.get(`/projects/${project.id}/repository/tags/v1.0`)).status).toBe(200)
  })
})
