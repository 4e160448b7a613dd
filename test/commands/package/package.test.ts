// collab package upload | download | list | delete through the built CLI against a real server: files streamed both
// ways, --json printing the API's answer unchanged, and the server's refusals as errors with exit codes.
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, expectStatus } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ok, rootCli, type Cli } from '../cli.js'
import { cliAs } from '../pipeline/fixture.js'

const AT = '2024-01-02T03:04:05.000Z'
let server: TestServer
let c: Cli
let reporter: Cli
let projectId: number
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(AT) })
  const root = api(server, server.rootToken)
  projectId = (await createProject(root, { name: 'tool' })).id
  const rita = await createUser(server, 'rita')
  expectStatus(await root.post(`/projects/${projectId}/members`, { user_id: rita.id, access_level: 20 }), 201)
  c = await rootCli(server)
  reporter = await cliAs(server, rita.token, 'rita')
})
afterAll(async () => {
  c.cleanup()
  reporter.cleanup()
  await server.close()
})

describe('collab package', () => {
  it('uploads a file, printing its sha256, and --json prints the package file record', async () => {
    const payload = Buffer.alloc(300_000, 7)
    writeFileSync(join(c.configDir, 'tool.tar.gz'), payload)
    expect(await c.run(['package', 'upload', 'tool.tar.gz', '--name', 'tool', '--version', '1.0.0', '-p', 'root/tool'])).toEqual(
      ok(`${sha256(payload)}  tool.tar.gz\n`, 'Uploaded tool.tar.gz (300000 bytes) to tool 1.0.0 in root/tool\n'))
    writeFileSync(join(c.configDir, 'notes.txt'), 'release notes\n')
    const json = await c.run(['package', 'upload', 'notes.txt', '--name', 'tool', '--version', '1.0.0', '--file-name', 'NOTES.md', '-p', 'root/tool', '--json'])
    expect(json.exitCode).toBe(0)
    const record = JSON.parse(json.stdout)
    expect([record.id, record.package_id, record.file_name, record.size, record.file_sha256, record.project_id]).toEqual([2, 1, 'NOTES.md', 14, sha256('release notes\n'), projectId])
  })

  it('downloads a file to disk, or to stdout with -o -', async () => {
    expect(await c.run(['package', 'download', 'tool', '1.0.0', 'tool.tar.gz', '-o', 'out/t.tgz', '-p', 'root/tool'])).toEqual(
      ok('', 'Saved tool.tar.gz of tool 1.0.0 to out/t.tgz\n'))
    expect(readFileSync(join(c.configDir, 'out', 't.tgz')).equals(Buffer.alloc(300_000, 7))).toBe(true)
    expect(await c.run(['package', 'download', 'tool', '1.0.0', 'NOTES.md', '-o', '-', '-p', 'root/tool'])).toEqual(ok('release notes\n'))
  })

  it('lists packages tab-separated when piped, and --json unchanged', async () => {
    expect(await c.run(['package', 'list', '-p', 'root/tool'])).toEqual(ok(`1\ttool\t1.0.0\tgeneric\tdefault\t${AT}\n`))
    const res = await c.run(['package', 'list', '-p', 'root/tool', '--json'])
    expect(res.stdout).toBe(`${expectStatus(await api(server, server.rootToken).get(`/projects/${projectId}/packages`), 200).text}\n`)
  })

  it("passes on the server's refusals: 403 to a Reporter, 404 for a missing file, and needs --name", async () => {
    writeFileSync(join(reporter.configDir, 'x.bin'), 'x')
    expect(await reporter.run(['package', 'upload', 'x.bin', '--name', 'tool', '--version', '1.0.0', '-p', 'root/tool'])).toEqual(
      { stdout: '', stderr: 'error: 403 Forbidden\n', exitCode: 1 })
    expect(await c.run(['package', 'download', 'tool', '1.0.0', 'nope.bin', '-p', 'root/tool'])).toEqual(
      { stdout: '', stderr: 'error: 404 Not found\n', exitCode: 1 })
    const usage = await c.run(['package', 'upload', 'x.bin', '--version', '1', '-p', 'root/tool'])
    expect([usage.exitCode, usage.stderr.split('\n')[0]]).toEqual([2, 'error: missing --name'])
  })

  it('deletes a package', async () => {
    expect(await c.run(['package', 'delete', '1', '-p', 'root/tool'])).toEqual(ok('', 'Deleted package 1 in root/tool\n'))
    expect(expectStatus(await api(server, server.rootToken).get(`/projects/${projectId}/packages`), 200).body).toEqual([])
    expect(await c.run(['package', 'delete', '1', '-p', 'root/tool'])).toEqual({ stdout: '', stderr: 'error: 404 Not found\n', exitCode: 1 })
  })
})
