// collab commit list, view, diff and refs: the built CLI against real repositories, piped, with exact output.
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create, gitIn, remove, update } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

/** master: Seed, Change a; feature (from Seed): Add b; tag v1 on Seed. The clock is fixed, so the SHAs are too. */
async function history() {
  const p = await createProject(t.root, { name: 'demo' })
  const seed = await commit(t.root, p.id, { commit_message: 'Seed\n\nThe first files.', actions: [create('README.md', '# demo\n'), create('a.txt', 'one\ntwo\n')] })
  const change = await commit(t.root, p.id, { commit_message: 'Change a', actions: [update('a.txt', 'one\nTWO\nthree\n'), remove('README.md')] })
  const feature = await commit(t.root, p.id, { branch: 'feature', start_branch: seed.id, commit_message: 'Add b', actions: [create('b.txt', 'b\n')] })
  expectStatus(await t.root.post(`/projects/${p.id}/repository/tags`, { tag_name: 'v1', ref: seed.id }), 201)
  return { p, seed: seed.id as string, change: change.id as string, feature: feature.id as string }
}

const DATE = '2024-01-02T03:04:05.000+00:00'

describe('commit list', () => {
  it('prints SHA, date, author and title per commit of the default branch, newest first', async () => {
    const { seed, change } = await history()
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo'])).toEqual(ok(
      `${change}\t${DATE}\tAdministrator\tChange a\n${seed}\t${DATE}\tAdministrator\tSeed\n`))
  })

  it('passes --ref, --path, --all-refs and --with-stats to the API', async () => {
    const { seed, change, feature } = await history()
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--ref', 'feature'])).toEqual(ok(
      `${feature}\t${DATE}\tAdministrator\tAdd b\n${seed}\t${DATE}\tAdministrator\tSeed\n`))
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--path', 'README.md'])).toEqual(ok(
      `${change}\t${DATE}\tAdministrator\tChange a\n${seed}\t${DATE}\tAdministrator\tSeed\n`))
    const all = await t.c.run(['commit', 'list', '-p', 'root/demo', '--all-refs'])
    expect(all.stdout.split('\n').map((line) => line.split('\t')[0]).sort()).toEqual(['', change, feature, seed].sort())
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--with-stats', '--per-page', '1'])).toEqual(ok(
      `${change}\t${DATE}\tAdministrator\tChange a\t2\t2\n`))
    const body = expectStatus(await t.root.get('/projects/root%2Fdemo/repository/commits', { query: { ref_name: 'feature', with_stats: true } }), 200).text
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--ref', 'feature', '--with-stats', '--json'])).toEqual(ok(`${body}\n`))
  })

  it('fetches one page by default and every page with --all', async () => {
    const { seed, change } = await history()
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--per-page', '1'])).toEqual(ok(`${change}\t${DATE}\tAdministrator\tChange a\n`))
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--per-page', '1', '--all'])).toEqual(ok(
      `${change}\t${DATE}\tAdministrator\tChange a\n${seed}\t${DATE}\tAdministrator\tSeed\n`))
    const pages = await Promise.all([1, 2].map((page) => t.root.get('/projects/root%2Fdemo/repository/commits', { query: { per_page: 1, page } })))
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--per-page', '1', '--all', '--json'])).toEqual(ok(`[${pages.map((r) => r.text.slice(1, -1)).join(',')}]\n`))
  })

  it('filters by --since and --until', async () => {
    await history()
    expect(await t.c.run(['commit', 'list', '-p', 'root/demo', '--since', '2024-01-03'])).toEqual(ok(''))
    expect((await t.c.run(['commit', 'list', '-p', 'root/demo', '--until', '2024-01-03'])).stdout.split('\n')).toHaveLength(3)
  })
})

describe('commit view', () => {
  it('prints the commit with its stats and status as label<TAB>value lines', async () => {
    const { seed, change } = await history()
    expectStatus(await t.root.post(`/projects/root%2Fdemo/statuses/${change}`, { state: 'failed', name: 'build' }), 201)
    expect(await t.c.run(['commit', 'view', 'master', '-p', 'root/demo'])).toEqual(ok([
      `id\t${change}`, 'title\tChange a', 'author\tAdministrator <root@localhost>', `authored_date\t${DATE}`,
      'committer\tAdministrator <root@localhost>', `committed_date\t${DATE}`, `parents\t${seed}`, 'additions\t2', 'deletions\t2',
      'status\tfailed', `web_url\t${t.server.url}/root/demo/-/commit/${change}`, 'message\tChange a', '',
    ].join('\n')))
  })

  it('finds a commit by short SHA or tag, and prints the API body with --json', async () => {
    const { seed } = await history()
    const body = expectStatus(await t.root.get(`/projects/root%2Fdemo/repository/commits/${seed}`, { query: { stats: true } }), 200).text
    expect(await t.c.run(['commit', 'view', seed.slice(0, 8), '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['commit', 'view', 'v1', '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
  })

  it('fails with exit 1 and the API message for an unknown commit', async () => {
    await history()
    expect(await t.c.run(['commit', 'view', 'nope', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: 404 Commit Not Found\n', exitCode: 1 })
  })
})

/** What `git show` prints for a commit's changes, without the `index` lines the API has no blob ids for. */
const gitShow = (id: number, sha: string) =>
  gitIn(t.server, id, ['show', '--format=', '-M', sha]).split('\n').filter((line) => !line.startsWith('index ')).join('\n')

describe('commit diff', () => {
  it('prints the unified diff git show prints: deletions, modifications', async () => {
    const { p, change } = await history()
    const expected = [
      'diff --git a/README.md b/README.md', 'deleted file mode 100644', '--- a/README.md', '+++ /dev/null', '@@ -1 +0,0 @@', '-# demo',
      'diff --git a/a.txt b/a.txt', '--- a/a.txt', '+++ b/a.txt', '@@ -1,2 +1,3 @@', ' one', '-two', '+TWO', '+three', '',
    ].join('\n')
    expect(await t.c.run(['commit', 'diff', change, '-p', 'root/demo'])).toEqual(ok(expected))
    expect(gitShow(p.id, change)).toBe(expected)
  })

  it('prints renames, mode changes, new and binary files as git show does', async () => {
    const { p } = await history()
    const c = await commit(t.root, p.id, {
      commit_message: 'Mixed',
      actions: [
        { action: 'move', previous_path: 'a.txt', file_path: 'docs/a.txt' },
        create('run.sh', '#!/bin/sh\n'),
        { action: 'create', file_path: 'logo.bin', content: Buffer.from([0, 1, 2, 255]).toString('base64'), encoding: 'base64' },
      ],
    })
    const modes = await commit(t.root, p.id, { commit_message: 'Executable', actions: [{ action: 'chmod', file_path: 'run.sh', execute_filemode: true }] })
    expect(await t.c.run(['commit', 'diff', c.id, '-p', 'root/demo'])).toEqual(ok(gitShow(p.id, c.id)))
    expect(await t.c.run(['commit', 'diff', modes.id, '-p', 'root/demo'])).toEqual(ok('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n'))
    expect(gitShow(p.id, modes.id)).toBe('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n')
  })

  it('prints every page of diff entries with --json', async () => {
    const { p } = await history()
    const many = await commit(t.root, p.id, { commit_message: 'Many', actions: Array.from({ length: 25 }, (_, i) => create(`f${String(i).padStart(2, '0')}.txt`, `${i}\n`)) })
    const result = await t.c.run(['commit', 'diff', many.id, '-p', 'root/demo', '--json'])
    const pages = await Promise.all([1, 2].map((page) => t.root.get(`/projects/${p.id}/repository/commits/${many.id}/diff`, { query: { per_page: 20, page } })))
    expect(JSON.parse(result.stdout)).toEqual([...pages[0].body, ...pages[1].body])
    expect(JSON.parse(result.stdout)).toHaveLength(25)
    expect((await t.c.run(['commit', 'diff', many.id, '-p', 'root/demo'])).stdout.match(/^diff --git /gm)).toHaveLength(25)
  })
})

describe('commit refs', () => {
  it('lists the branches and tags containing a commit, filtered by --type', async () => {
    const { seed, feature } = await history()
    expect(await t.c.run(['commit', 'refs', seed, '-p', 'root/demo'])).toEqual(ok('branch\tfeature\nbranch\tmaster\ntag\tv1\n'))
    expect(await t.c.run(['commit', 'refs', seed, '-p', 'root/demo', '--type', 'tag'])).toEqual(ok('tag\tv1\n'))
    const body = expectStatus(await t.root.get(`/projects/root%2Fdemo/repository/commits/${feature}/refs`), 200).text
    expect(await t.c.run(['commit', 'refs', feature, '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
  })
})
