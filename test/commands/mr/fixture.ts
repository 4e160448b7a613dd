// A project with a default branch and a `fix` branch one commit ahead, and optionally a merge request from it.
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create, update } from '../../helpers/repository.js'
import type { ServerFixture } from '../cli.js'

export async function seeded(t: ServerFixture, mr: Record<string, unknown> | false = {}) {
  const p = await createProject(t.root, { name: 'demo' })
  const seed = await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('README.md', '# demo\n')] })
  const fix = await commit(t.root, p.id, {
    branch: 'fix', start_branch: 'master', commit_message: 'Fix the parser\n\nIt read one byte too many.', actions: [update('README.md', '# demo\nfixed\n')],
  })
  const made = mr === false ? undefined
    : expectStatus(await t.root.post(`/projects/${p.id}/merge_requests`, { source_branch: 'fix', target_branch: 'master', title: 'Fix the parser', ...mr }), 201).body
  return { p, seed: seed as { id: string; short_id: string }, fix: fix as { id: string; short_id: string }, mr: made }
}
