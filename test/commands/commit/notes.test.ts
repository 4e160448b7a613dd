// collab commit cherry-pick, comment and comments: writes through the built CLI, read back through the API.
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { branchHead, commit, create, update } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

/** master: Seed, then Fix on master; stable branches off at Seed. */
async function branches() {
  const p = await createProject(t.root, { name: 'demo' })
  const seed = await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('a.txt', 'one\ntwo\n'), create('b.txt', 'b\n')] })
  expectStatus(await t.root.post(`/projects/${p.id}/repository/branches`, { branch: 'stable', ref: seed.id }), 201)
  const fix = await commit(t.root, p.id, { commit_message: 'Fix two', actions: [update('a.txt', 'one\n2\n')] })
  return { p, seed: seed.id as string, fix: fix.id as string }
}

describe('commit cherry-pick', () => {
  it('applies the commit onto the branch and prints the new SHA', async () => {
    const { p, seed, fix } = await branches()
    const result = await t.c.run(['commit', 'cherry-pick', fix, '-b', 'stable', '-p', 'root/demo'])
    const head = await branchHead(t.root, p.id, 'stable')
    expect(result).toEqual(ok(`${head}\n`, `Cherry-picked ${fix} onto stable as ${head!.slice(0, 8)}\n`))
    const picked = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/stable`), 200).body
    expect([picked.title, picked.parent_ids]).toEqual(['Fix two', [seed]])
  })

  it('only checks with --dry-run, and moves nothing', async () => {
    const { p, seed, fix } = await branches()
    expect(await t.c.run(['commit', 'cherry-pick', fix, '-b', 'stable', '--dry-run', '-p', 'root/demo'])).toEqual(ok('', `${fix} applies cleanly to stable\n`))
    expect(await t.c.run(['commit', 'cherry-pick', fix, '-b', 'stable', '--dry-run', '--json', '-p', 'root/demo'])).toEqual(ok('{"dry_run":"success"}\n', `${fix} applies cleanly to stable\n`))
    expect(await branchHead(t.root, p.id, 'stable')).toBe(seed)
  })

  it('fails with exit 1 and the API message on a conflict, and moves nothing', async () => {
    const { p, fix } = await branches()
    const other = await commit(t.root, p.id, { branch: 'stable', commit_message: 'Other two', actions: [update('a.txt', 'one\nII\n')] })
    const result = await t.c.run(['commit', 'cherry-pick', fix, '-b', 'stable', '-p', 'root/demo'])
    expect(result).toEqual({
      stdout: '',
      stderr: 'error: Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content. (HTTP 400)\n',
      exitCode: 1,
    })
    expect(await branchHead(t.root, p.id, 'stable')).toBe(other.id)
  })
})

describe('commit comment and comments', () => {
  it('adds a general comment and a line comment, and lists them oldest first', async () => {
    const { p, fix } = await branches()
    expect(await t.c.run(['commit', 'comment', fix, '-m', 'Looks right', '-p', 'root/demo'])).toEqual(ok('', `Commented on ${fix}\n`))
    expect(await t.c.run(['commit', 'comment', fix, '-F', '-', '--path', 'a.txt', '--line', '2', '-p', 'root/demo'], { input: 'Why 2?\n' }))
      .toEqual(ok('', `Commented on ${fix} at a.txt:2\n`))
    const comments = expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/${fix}/comments`), 200)
    expect(comments.body.map((c: any) => [c.note, c.path, c.line, c.line_type])).toEqual([['Looks right', null, null, null], ['Why 2?\n', 'a.txt', 2, 'new']])
    expect(await t.c.run(['commit', 'comments', fix, '-p', 'root/demo'])).toEqual(ok(
      'root\t2024-01-02T03:04:05.000Z\t\tLooks right\nroot\t2024-01-02T03:04:05.000Z\ta.txt:2\tWhy 2? \n'))
    expect(await t.c.run(['commit', 'comments', fix, '-p', 'root/demo', '--json'])).toEqual(ok(`${comments.text}\n`))
  })

  it('prints the created comment with --json', async () => {
    const { fix } = await branches()
    const result = await t.c.run(['commit', 'comment', 'master', '-m', 'On master', '--json', '-p', 'root/demo'])
    expect([result.exitCode, result.stderr, JSON.parse(result.stdout).note]).toEqual([0, 'Commented on master\n', 'On master'])
    expect(expectStatus(await t.root.get(`/projects/root%2Fdemo/repository/commits/${fix}/comments`), 200).body).toHaveLength(1)
  })

  it('fails with exit 2 when both -m and -F are given', async () => {
    const { fix } = await branches()
    expect(await t.c.run(['commit', 'comment', fix, '-m', 'a', '-F', '-', '-p', 'root/demo']))
      .toEqual({ stdout: '', stderr: 'error: pass -m/--message or -F/--message-file, not both\n', exitCode: 2 })
  })
})
