// collab issue link: the built CLI links issues in the same project and across projects, piped, with exact output.
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

const setup = async () => {
  const demo = await createProject(t.root, { name: 'demo' })
  const other = await createProject(t.root, { name: 'other' })
  for (const title of ['One', 'Two']) expectStatus(await t.root.post(`/projects/${demo.id}/issues`, { title }), 201)
  expectStatus(await t.root.post(`/projects/${other.id}/issues`, { title: 'Elsewhere' }), 201)
  return { demo, other }
}
const linkTypes = async (projectId: number, iid: number) =>
  expectStatus(await t.root.get(`/projects/${projectId}/issues/${iid}/links`), 200).body.map((i: any) => [i.web_url, i.link_type])

describe('issue link', () => {
  it('links #iid in the same project and path#iid in another, printing the linked issue', async () => {
    const { demo } = await setup()
    expect(await t.c.run(['issue', 'link', '1', '#2', '-p', 'root/demo'])).toEqual(ok(`${t.server.url}/root/demo/-/issues/2\n`, 'Linked issue #1 of root/demo to #2 (relates_to)\n'))
    expect(await t.c.run(['issue', 'link', '1', 'root/other#1', '-p', 'root/demo', '--type', 'is_blocked_by']))
      .toEqual(ok(`${t.server.url}/root/other/-/issues/1\n`, 'Linked issue #1 of root/demo to root/other#1 (is_blocked_by)\n'))
    expect(await linkTypes(demo.id, 1)).toEqual([[`${t.server.url}/root/demo/-/issues/2`, 'relates_to'], [`${t.server.url}/root/other/-/issues/1`, 'is_blocked_by']])
  })

  it('refuses a bad reference or type (exit 2) and reports the server\'s 409 (exit 1)', async () => {
    await setup()
    expect(await t.c.run(['issue', 'link', '1', 'nope', '-p', 'root/demo']))
      .toEqual({ stdout: '', stderr: 'error: not an issue reference: nope (use 4, #4 or group/project#4)\n', exitCode: 2 })
    expect(await t.c.run(['issue', 'link', '1', '2', '-p', 'root/demo', '-t', 'duplicates'])).toEqual({
      stdout: '', exitCode: 2,
      stderr: "error: option '-t, --type <type>' argument 'duplicates' is invalid. Allowed choices are relates_to, blocks, is_blocked_by.\nhint: see 'collab issue link --help'\n",
    })
    expect((await t.c.run(['issue', 'link', '1', '2', '-p', 'root/demo'])).exitCode).toBe(0)
    expect(await t.c.run(['issue', 'link', '1', '2', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: Issue(s) already assigned (HTTP 409)\n', exitCode: 1 })
  })
})
