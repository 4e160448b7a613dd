// collab mr checkout of a merge request whose fork was deleted: the head is fetched from the target project's
// refs/merge-requests/<iid>/head, where GitLab keeps it, and the local branch follows that ref.
import { join } from 'node:path'
import { execa } from 'execa'
import { expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { commit, update } from '../../helpers/repository.js'
import { useServerAndCli } from '../cli.js'
import { seeded } from './fixture.js'

const t = useServerAndCli()

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' }

const git = async (cwd: string, ...args: string[]) =>
  (await execa('git', args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: t.c.configDir, ...GIT_ENV }, extendEnv: false })).stdout

it('fetches the head from the target project once the source fork is deleted', async () => {
  const { p } = await seeded(t, false)
  const fork = expectStatus(await t.root.post(`/projects/${p.id}/fork`, { path: 'demo-fork', name: 'demo-fork' }), 201).body
  await t.server.app.tasks.idle()
  const change = await commit(t.root, fork.id, { branch: 'feature', start_branch: 'master', commit_message: 'From the fork', actions: [update('README.md', 'fork\n')] })
  expectStatus(await t.root.post(`/projects/${fork.id}/merge_requests`, { source_branch: 'feature', target_branch: 'master', target_project_id: p.id, title: 'Fork work' }), 201)
  await t.server.app.tasks.idle()
  expectStatus(await t.root.del(`/projects/${fork.id}`), 202)
  await t.server.app.tasks.idle()
  expect((await t.c.run(['project', 'clone', 'root/demo'], { env: GIT_ENV })).exitCode).toBe(0)
  const dir = join(t.c.configDir, 'demo')
  const res = await t.c.run(['mr', 'checkout', '1', '-b', 'review'], { cwd: dir, env: GIT_ENV })
  expect([res.exitCode, res.stderr.split('\n').at(-2)])
    .toEqual([0, 'Switched to branch review, tracking origin refs/merge-requests/1/head (merge request !1 in root/demo)'])
  expect(await git(dir, 'rev-parse', 'HEAD')).toBe(change.id)
  expect([await git(dir, 'config', 'branch.review.remote'), await git(dir, 'config', 'branch.review.merge')]).toEqual(['origin', 'refs/merge-requests/1/head'])
})
