// collab search against a real server, through the built CLI in piped mode: each level, tables and JSON, refusals.
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../helpers/api.js'
import { commit, create } from '../helpers/repository.js'
import { ok, useServerAndCli } from './cli.js'
import { optionsOf, parse } from './parse.js'

const f = useServerAndCli()

async function arrange() {
  const p = expectStatus(await f.root.post('/projects', { name: 'demo', description: 'Where the needle is' }), 201).body
  await commit(f.root, p.id, { branch: 'main', commit_message: 'Add the needle', actions: [create('src/a.txt', 'one\ntwo\nthe Needle\n')] })
  expectStatus(await f.root.post(`/projects/${p.id}/issues`, { title: 'Needle issue' }), 201)
  return p
}

describe('collab search argv', () => {
  it('hands run the query, scope and level', async () => {
    expect(await optionsOf(['search', 'needle', '-s', 'issues', '-g', 'team', '--json'])).toEqual({
      command: 'search', options: { query: 'needle', scope: 'issues', project: undefined, group: 'team', ref: undefined, perPage: undefined, all: false, json: true },
    })
  })

  it('stops at an unknown flag or scope with exit code 2', async () => {
    const bad = await parse(['search', 'needle', '--bogus'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toBe("error: unknown option '--bogus'\nhint: see 'collab search --help'\n")
    const scope = await parse(['search', 'needle', '--scope', 'nope'])
    expect(scope.exitCode).toBe(2)
    expect(scope.stderr).toContain("error: option '-s, --scope <scope>' argument 'nope' is invalid.")
    expect((await parse(['search'])).stderr).toBe("error: missing required argument 'query'\nhint: see 'collab search --help'\n")
  })
})

describe('collab search', () => {
  it('searches the instance: projects by default, issues with --scope, JSON unchanged', async () => {
    const p = await arrange()
    expect(await f.c.run(['search', 'needle'])).toEqual(ok(`${p.id}\troot/demo\tWhere the needle is\n`))
    expect(await f.c.run(['search', 'needle', '--scope', 'issues'])).toEqual(ok('root/demo#1\tNeedle issue\topened\n'))
    const json = expectStatus(await f.root.get('/search', { query: { scope: 'issues', search: 'needle' } }), 200).text
    expect(await f.c.run(['search', 'needle', '-s', 'issues', '--json'])).toEqual(ok(`${json}\n`))
  })

  it('searches code in a project by default, naming the matching line', async () => {
    await arrange()
    expect(await f.c.run(['search', 'needle', '-p', 'root/demo'])).toEqual(ok('src/a.txt:3\tthe Needle\n'))
    const commits = await f.c.run(['search', 'needle', '-p', 'root/demo', '--scope', 'commits'])
    expect(commits.stdout).toMatch(/^[0-9a-f]{8}\tAdd the needle\tAdministrator\n$/)
  })

  it("passes on the server's refusals and its own usage errors", async () => {
    await arrange()
    expect(await f.c.run(['search', 'needle', '--scope', 'blobs'])).toEqual({ stdout: '', stderr: 'error: scope does not have a valid value (HTTP 400)\n', exitCode: 1 })
    expect(await f.c.run(['search', 'needle', '-p', 'root/demo', '-g', 'x'])).toEqual({ stdout: '', stderr: 'error: --project and --group are mutually exclusive\n', exitCode: 2 })
    expect((await f.c.run(['search', 'needle', '-p', 'root/nope'])).exitCode).toBe(1)
  })
})
