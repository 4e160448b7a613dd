// collab mr checkout and mr create in a real clone: the git command line fetches the source branch (from a fork too)
// into a local branch that tracks it; create takes the current branch and, with --fill, the title from the commits.
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { gitAuthEnv } from '../../../commands/project/clone.js'
import { expectStatus } from '../../helpers/api.js'
import { commit, update } from '../../helpers/repository.js'
import { ok, useServerAndCli } from '../cli.js'
import { until } from '../../helpers/wait.js'
import { seeded } from './fixture.js'

const t = useServerAndCli()

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' }

const git = async (cwd: string, ...args: string[]) =>
  (await execa('git', args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: t.c.configDir, ...GIT_ENV }, extendEnv: false })).stdout

/** Forks copy their repository in the background, as GitLab's do; scripts wait for import_status `finished`. */
async function forkFinished(id: number): Promise<void> {
  await until('the fork to finish', async () => expectStatus(await t.root.get(`/projects/${id}`), 200).body.import_status === 'finished')
}

/** A clone of root/demo made with `collab project clone`, so origin is the project's clean URL. */
async function cloned(): Promise<string> {
  expect((await t.c.run(['project', 'clone', 'root/demo'], { env: GIT_ENV })).exitCode).toBe(0)
  return join(t.c.configDir, 'demo')
}

describe('mr checkout', () => {
  it('fetches the source branch from origin into a local branch that tracks origin/fix', async () => {
    const { p, fix } = await seeded(t)
    const dir = await cloned()
    const res = await t.c.run(['mr', 'checkout', '1'], { cwd: dir, env: GIT_ENV })
    expect([res.exitCode, res.stdout, res.stderr.split('\n').at(-2)]).toEqual([0, '', 'Switched to branch fix, tracking origin fix (merge request !1 in root/demo)'])
    expect(await git(dir, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('fix')
    expect(await git(dir, 'rev-parse', 'HEAD')).toBe(fix.id)
    expect(await git(dir, 'rev-parse', '--abbrev-ref', '@{upstream}')).toBe('origin/fix')
    // Run again after the branch moved on the server: the local branch fast-forwards.
    const next = await commit(t.root, p.id, { branch: 'fix', commit_message: 'More', actions: [update('README.md', 'more\n')] })
    expect((await t.c.run(['mr', 'checkout', 'fix', '-b', 'fix'], { cwd: dir, env: GIT_ENV })).exitCode).toBe(0)
    expect(await git(dir, 'rev-parse', 'HEAD')).toBe(next.id)
  })

  it('creates a merge request from a fork with --target-project, and checks it out by URL, tracking the fork', async () => {
    const { p } = await seeded(t, false)
    const fork = expectStatus(await t.root.post(`/projects/${p.id}/fork`, { path: 'demo-fork', name: 'demo-fork' }), 201).body
    await forkFinished(fork.id)
    const change = await commit(t.root, fork.id, { branch: 'feature', start_branch: 'master', commit_message: 'From the fork', actions: [update('README.md', 'fork\n')] })
    expect(await t.c.run(['mr', 'create', '-p', 'root/demo-fork', '--target-project', 'root/demo', '-s', 'feature', '-t', 'Fork work']))
      .toEqual(ok(`${t.server.url}/root/demo/-/merge_requests/1\n`, 'Created merge request !1 (feature -> master)\n'))
    const dir = await cloned()
    const res = await t.c.run(['mr', 'checkout', `${t.server.url}/root/demo/-/merge_requests/1`, '-b', 'review'], { cwd: dir, env: GIT_ENV })
    expect(res.exitCode).toBe(0)
    expect(await git(dir, 'rev-parse', 'HEAD')).toBe(change.id)
    expect(await git(dir, 'config', 'branch.review.remote')).toBe(`${t.server.url}/root/demo-fork.git`)
    expect(await git(dir, 'config', 'branch.review.merge')).toBe('refs/heads/feature')
  })
})

describe('mr create in a clone', () => {
  it('takes the current branch as the source and, with --fill, the title and description of its one commit', async () => {
    const { p } = await seeded(t, false)
    const dir = await cloned()
    await git(dir, 'checkout', '-b', 'local-fix')
    await git(dir, 'commit', '--allow-empty', '-m', 'Teach the parser EOF\n\nIt stopped one byte early.')
    const auth = gitAuthEnv({}, `${t.server.url}/root/demo.git`, { token: t.server.rootToken, header: 'PRIVATE-TOKEN' })
    await execa('git', ['push', 'origin', 'local-fix'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: t.c.configDir, ...GIT_ENV, ...auth }, extendEnv: false })
    expect(await t.c.run(['mr', 'create', '--fill'], { cwd: dir, env: GIT_ENV })).toEqual(ok(`${t.server.url}/root/demo/-/merge_requests/1\n`, 'Created merge request !1 (local-fix -> master)\n'))
    const got = expectStatus(await t.root.get(`/projects/${p.id}/merge_requests/1`), 200).body
    expect([got.title, got.description, got.source_branch]).toEqual(['Teach the parser EOF', 'It stopped one byte early.', 'local-fix'])
  })
})
