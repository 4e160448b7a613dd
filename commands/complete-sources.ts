// The named completion sources: what the server lists for a TAB, newest or most used first, each cached for 60 s.
import type { Candidate, SourceName, ValueSource } from '../src/cli/completion.js'
import { route } from '../src/client/paths.js'

const PAGE = { per_page: 100 }

export const NAMED_SOURCES: Record<SourceName, ValueSource> = {
  projects: (c) => c.cached('projects', async (api) => {
    const page = await api.list(route('listProjects', {}), { membership: true, simple: true, order_by: 'last_activity_at', ...PAGE })
    return page.items.map((p): Candidate => [p.path_with_namespace, p.description ?? ''])
  }, false),
  issues: (c) => c.cached('issues', async (api, ref) => {
    const page = await api.list(route('listProjectIssues', { id: ref }), { state: 'opened', ...PAGE })
    return page.items.map((i): Candidate => [String(i.iid), i.title])
  }),
  'merge-requests': (c) => c.cached('merge-requests', async (api, ref) => {
    const page = await api.list(route('listProjectMergeRequests', { id: ref }), { state: 'opened', ...PAGE })
    const open = page.items.filter((m) => 'source_branch' in m)
    return [
      ...open.map((m): Candidate => [String(m.iid), m.title]),
      ...open.map((m): Candidate => ['source_branch' in m ? m.source_branch : '', `!${m.iid} ${m.title}`]),
    ]
  }),
  branches: (c) => c.cached('branches', async (api, ref) => {
    const page = await api.list(route('listBranches', { id: ref }), PAGE)
    return page.items.map((b): Candidate => [b.name, b.commit.title])
  }),
  labels: (c) => c.cached('labels', async (api, ref) => {
    const page = await api.list(route('listProjectLabels', { id: ref }), PAGE)
    return page.items.map((l): Candidate => [l.name, l.description ?? ''])
  }),
  milestones: (c) => c.cached('milestones', async (api, ref) => {
    const page = await api.list(route('listProjectMilestones', { id: ref }), { state: 'active', ...PAGE })
    return page.items.map((m): Candidate => [m.title, m.due_date ? `due ${m.due_date}` : ''])
  }),
  users: (c) => c.cached('users', async (api, ref) => {
    const page = await api.list(route('listProjectUsers', { id: ref }), PAGE)
    return [['@me', 'you'], ...page.items.map((u): Candidate => [u.username, u.name])]
  }),
}
