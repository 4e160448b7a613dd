// collab api: gh api's semantics against a real server; the body printed is the server's, byte for byte.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus } from '../helpers/api.js'
import { ok, useServerAndCli } from './cli.js'

const t = useServerAndCli()

describe('GET', () => {
  it('prints the body unchanged, with or without a leading slash', async () => {
    const body = expectStatus(await t.root.get('/user'), 200).text
    expect(await t.c.run(['api', 'user'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['api', '/user'])).toEqual(ok(`${body}\n`))
  })

  it('puts -f fields in the query string when the method is GET', async () => {
    await createProject(t.root, { name: 'demo' })
    await createProject(t.root, { name: 'other' })
    const body = expectStatus(await t.root.get('/projects', { query: { search: 'oth', simple: 'true' } }), 200).text
    expect(await t.c.run(['api', 'projects', '-X', 'GET', '-f', 'search=oth', '-F', 'simple=true'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['api', 'projects?search=oth&simple=true'])).toEqual(ok(`${body}\n`))
  })

  it('follows Link rel="next" with --paginate and joins the pages into one array', async () => {
    for (const name of ['a', 'b', 'd']) await createProject(t.root, { name })
    const pages = await Promise.all([1, 2, 3].map((page) => t.root.get('/projects', { query: { per_page: 1, page } })))
    const joined = `[${pages.map((p) => p.text.slice(1, -1)).join(',')}]\n`
    expect(await t.c.run(['api', 'projects?per_page=1', '--paginate'])).toEqual(ok(joined))
    expect(await t.c.run(['api', 'projects?per_page=1'])).toEqual(ok(`${pages[0].text}\n`))
  })

  it('prints the status line and headers first with -i', async () => {
    const body = expectStatus(await t.root.get('/version'), 200).text
    const { stdout, stderr, exitCode } = await t.c.run(['api', '-i', 'version'])
    expect([exitCode, stderr]).toEqual([0, ''])
    const [head, rest] = stdout.split('\n\n')
    expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK')
    expect(head.split('\n')).toContain('Content-Type: application/json')
    expect(head.split('\n')).toContain(`Content-Length: ${Buffer.byteLength(body)}`)
    expect(rest).toBe(`${body}\n`)
  })

  it('replaces :id with the current project', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    const body = expectStatus(await t.root.get(`/projects/${p.id}/members`), 200).text
    expect(await t.c.run(['api', 'projects/:id/members', '-p', 'root/demo'])).toEqual(ok(`${body}\n`))
  })

  it('sends -H headers (Sudo as another user)', async () => {
    await createUser(t.server, 'alice')
    const { stdout, exitCode } = await t.c.run(['api', 'user', '-H', 'Sudo: alice'])
    expect([exitCode, JSON.parse(stdout).username]).toEqual([0, 'alice'])
  })
})

describe('writes', () => {
  it('POSTs -f and typed -F fields as a JSON body, reading @file values', async () => {
    const description = join(t.c.configDir, 'description.txt')
    writeFileSync(description, 'From a file')
    const { stdout, stderr, exitCode } = await t.c.run(['api', 'projects', '-f', 'name=viaapi', '-F', 'issues_enabled=false', '-F', `description=@${description}`, '-f', 'topics[]=a', '-f', 'topics[]=b'])
    expect([exitCode, stderr]).toEqual([0, ''])
    const created = expectStatus(await t.root.get('/projects/root%2Fviaapi'), 200)
    expect(JSON.parse(stdout)).toEqual(created.body)
    expect([created.body.description, created.body.issues_enabled, created.body.topics]).toEqual(['From a file', false, ['a', 'b']])
  })

  it('sends --input as the body and the fields in the query string', async () => {
    const input = join(t.c.configDir, 'body.json')
    writeFileSync(input, '{"name":"fromfile","description":"body"}')
    const { exitCode } = await t.c.run(['api', 'projects', '--input', input, '-f', 'visibility=public'])
    expect(exitCode).toBe(0)
    const p = expectStatus(await t.root.get('/projects/root%2Ffromfile'), 200).body
    expect([p.description, p.visibility]).toEqual(['body', 'public'])
  })

  it('reads --input - from stdin', async () => {
    expect((await t.c.run(['api', 'projects', '--input', '-'], { input: '{"name":"piped"}' })).exitCode).toBe(0)
    expect((await t.root.get('/projects/root%2Fpiped')).status).toBe(200)
  })

  it('takes the method from -X', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['api', '-X', 'DELETE', 'projects/root%2Fdemo'])).toEqual(ok('{"message":"202 Accepted"}\n'))
    expect((await t.root.get('/projects/root%2Fdemo')).status).toBe(404)
  })
})

describe('errors', () => {
  it('prints the error body on stdout and exits 1', async () => {
    expect(await t.c.run(['api', 'projects/999'])).toEqual({ stdout: '{"message":"404 Project Not Found"}\n', stderr: 'error: 404 Project Not Found: 999\n', exitCode: 1 })
    expect(await t.c.run(['api', 'nowhere'])).toEqual({ stdout: '{"error":"404 Not Found"}\n', stderr: 'error: 404 Not Found\n', exitCode: 1 })
  })

  it('exits 4 on 401 with a hint to log in again', async () => {
    expect(await t.c.run(['api', 'user', '--token', 'glpat-wrong'])).toEqual({
      stdout: '{"message":"401 Unauthorized"}\n',
      stderr: `error: 401 Unauthorized\nhint: the token was rejected; run 'collab auth login --host ${t.server.url}'\n`,
      exitCode: 4,
    })
  })

  it('names a missing --input file without a stack trace (exit 1)', async () => {
    const missing = join(t.c.configDir, 'missing.json')
    expect(await t.c.run(['api', 'projects', '--input', missing])).toEqual({ stdout: '', stderr: `error: ENOENT: no such file or directory, open '${missing}'\n`, exitCode: 1 })
  })

  it('rejects malformed fields and headers (exit 2)', async () => {
    expect(await t.c.run(['api', 'projects', '-f', 'novalue'])).toEqual({ stdout: '', stderr: "error: invalid -f 'novalue': expected key=value\n", exitCode: 2 })
    expect(await t.c.run(['api', 'user', '-H', 'NoColon'])).toEqual({ stdout: '', stderr: "error: invalid header 'NoColon': expected 'Key: value'\n", exitCode: 2 })
  })
})
