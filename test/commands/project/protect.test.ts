// collab project branches protect|unprotect|protected: argv -> options, and the built CLI against a real server, piped.
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'
import { optionsOf, parse } from '../parse.js'

describe('protect argv to options', () => {
  it.each([
    [['project', 'branches', 'protect', 'main'], 'project branches protect', {
      project: undefined, name: 'main', pushLevel: undefined, mergeLevel: undefined, unprotectLevel: undefined, allowForcePush: undefined, codeOwnerApproval: undefined, json: false,
    }],
    [['project', 'branch', 'protect', 'release/*', '-p', 'g/p', '--push-level', 'no-one', '--merge-level', '30', '--unprotect-level', 'Admin', '--allow-force-push', '--code-owner-approval', '--json'],
      'project branches protect', { project: 'g/p', name: 'release/*', pushLevel: 0, mergeLevel: 30, unprotectLevel: 60, allowForcePush: true, codeOwnerApproval: true, json: true }],
    [['project', 'branches', 'unprotect', 'release/*', '-p', '3'], 'project branches unprotect', { project: '3', name: 'release/*' }],
    [['project', 'branches', 'protected', '--search', 'rel', '--all', '--json'], 'project branches protected', { project: undefined, search: 'rel', perPage: undefined, all: true, json: true }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it('refuses a level a rule cannot take with exit 2', async () => {
    const res = await parse(['project', 'branches', 'protect', 'main', '--push-level', 'reporter'])
    expect([res.exitCode, res.stderr]).toEqual([2,
      "error: option '--push-level <level>' argument 'reporter' is invalid. expected one of no-one, developer, maintainer, admin or 0, 30, 40, 60\nhint: see 'collab project branches protect --help'\n"])
  })
})

describe('protect against the server', () => {
  const t = useServerAndCli()

  it('protects, lists, and unprotects a wildcard; --json prints the API body', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('README.md', '# demo\n')] })
    expect(await t.c.run(['project', 'branches', 'protect', 'release/*', '--push-level', 'no-one', '--merge-level', 'developer', '-p', 'root/demo']))
      .toEqual(ok('', 'Protected release/* in root/demo\n'))
    const rule = expectStatus(await t.root.get(`/projects/${p.id}/protected_branches/release%2F*`), 200).body
    expect([rule.push_access_levels[0].access_level, rule.merge_access_levels[0].access_level, rule.allow_force_push]).toEqual([0, 30, false])
    expect(await t.c.run(['project', 'branches', 'protected', '-p', 'root/demo'])).toEqual(ok(
      'master\tMaintainers\tMaintainers\t\tfalse\nrelease/*\tNo one\tDevelopers + Maintainers\t\tfalse\n'))
    const body = expectStatus(await t.root.get(`/projects/${p.id}/protected_branches`), 200).text
    expect(await t.c.run(['project', 'branches', 'protected', '--json', '-p', 'root/demo'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'branches', 'unprotect', 'release/*', '-p', 'root/demo'])).toEqual(ok('', 'Unprotected release/* in root/demo\n'))
    expectStatus(await t.root.get(`/projects/${p.id}/protected_branches/release%2F*`), 404)
  })

  it('fails with exit 1 and the API message when the name is already protected', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('README.md', '# demo\n')] })
    const res = await t.c.run(['project', 'branches', 'protect', 'master', '-p', 'root/demo'])
    expect(res).toEqual({ stdout: '', stderr: 'error: Protected branch \'master\' already exists (HTTP 409)\n', exitCode: 1 })
  })
})
