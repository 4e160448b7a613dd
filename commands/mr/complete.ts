// Completion values asked of the server: open merge requests (by iid and by source branch) and a project's branches.
import type { Candidate, ValueSource } from '../complete.js'
import { route } from '../../src/client/paths.js'

async function projectClient(context: Parameters<ValueSource>[0]) {
  const { createDeps } = await import('../../src/cli/factory.js')
  return createDeps(context.io, { host: context.flags.host, token: context.flags.token }).project(context.flags.project)
}

/** `5  Fix the parser` and `fix-parser  !5 Fix the parser`, newest first. */
export const mergeRequestCandidates: ValueSource = async (context) => {
  const { api, ref } = await projectClient(context)
  const page = await api.list(route('listProjectMergeRequests', { id: ref }), { state: 'opened', per_page: 100 })
  const open = page.items.filter((m) => 'source_branch' in m)
  return [
    ...open.map((m): Candidate => [String(m.iid), m.title]),
    ...open.map((m): Candidate => ['source_branch' in m ? m.source_branch : '', `!${m.iid} ${m.title}`]),
  ]
}

export const branchCandidates: ValueSource = async (context) => {
  const { api, ref } = await projectClient(context)
  const page = await api.list(route('listBranches', { id: ref }), { per_page: 100 })
  return page.items.map((b): Candidate => [b.name, b.commit.title])
}
