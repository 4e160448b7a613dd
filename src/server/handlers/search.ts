// The Search API: instance, group and project search, each hit in the shape its own list endpoint answers.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentCommit } from '../present/commits.js'
import { presentMilestone, presentNote } from '../present/issues.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import { presentProjectSimple } from '../present/projects.js'
import { presentSearchBlob } from '../present/search.js'
import { presentUserBasic } from '../present/users.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { bundles as mergeRequestBundles } from '../services/merge-requests/index.js'
import { withAuthors } from '../services/issuables/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as search from '../services/markup/index.js'
import { presentList as presentIssues } from './issues.js'
import { presentSnippets } from './snippets.js'

// Issues come as one JSON text (services/issuables/issue-texts.ts), the others as arrays.
function present(ctx: RequestContext, r: search.SearchResult): unknown {
  switch (r.scope) {
    case 'projects': return r.rows.map((p) => presentProjectSimple(p, ctx))
    case 'issues': return presentIssues(ctx, r).body
    case 'merge_requests': return mergeRequestBundles(ctx, r.rows).map((b) => presentMergeRequestBasic(b, ctx))
    case 'milestones': {
      const today = ctx.app.clock.now().toISOString().slice(0, 10)
      return r.rows.map((m) => presentMilestone(m, m.project_full_path, today, ctx))
    }
    case 'notes': {
      const byId = new Map(r.rows.map((n) => [n.id, n]))
      return withAuthors(ctx, r.rows).map(({ note, author }) => {
        const hit = byId.get(note.id)!
        return presentNote(note, author, { id: hit.noteable_id, iid: hit.noteable_iid }, ctx, hit.noteable_type)
      })
    }
    case 'commits': return r.rows.map((c) => presentCommit(c, r.project, ctx))
    case 'blobs': case 'wiki_blobs': return r.rows.map(presentSearchBlob)
    case 'snippet_titles': return presentSnippets(ctx, r.rows)
    case 'users': return r.rows.map((u) => presentUserBasic(u, ctx))
  }
}

const answer = async (ctx: RequestContext, level: search.SearchLevel, input: search.SearchInput) => {
  const result = await search.search(ctx, level, input)
  return { status: 200, body: present(ctx, result), total: result.total }
}

export const searchHandlers = {
  searchGlobal: (input, ctx) => answer(ctx, { kind: 'global' }, input),
  searchGroup: (input, ctx) => answer(ctx, { kind: 'group', group: findVisibleGroup(ctx, input.id) }, input),
  searchProject: (input, ctx) => answer(ctx, { kind: 'project', project: findVisibleProject(ctx, input.id) }, input),
} satisfies Handlers<typeof contract.search>
