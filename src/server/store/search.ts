// Search queries the list endpoints have no filter for: milestones across projects, a project's notes, snippet titles.
// Every one is a LIKE with escaped wildcards over rows the viewer can read, paged by LIMIT, newest first.
import { stmt, type Db } from './db.js'
import { ACCESS_CTE } from './issuable-lists.js'
import { openIn, type OpenLevels } from './namespaces.js'
import type { MilestoneRow } from './milestones.js'
import type { NoteRow } from './notes.js'
import { READABLE_FROM, readableSnippet, type SnippetRow } from './snippets.js'
import { likePattern } from './users.js'

interface Page { limit: number; offset: number }
/** Who searches: `open` is policy.ts's openVisibilities for them. */
interface Viewer { viewer: number; admin: boolean; open: OpenLevels }
const DOWN = ', down(id) AS (SELECT @group UNION ALL SELECT n.id FROM namespaces n JOIN down ON n.parent_id = down.id) '

function paged<T>(db: Db, cte: string, from: string, select: string, args: Record<string, unknown>, page: Page, order: string) {
  const total = (stmt(db, `${cte} SELECT COUNT(*) AS n ${from}`).get(args) as { n: number }).n
  const rows = stmt(db, `${cte} SELECT ${select} ${from} ORDER BY ${order} LIMIT @limit OFFSET @offset`).all({ ...args, limit: page.limit, offset: page.offset }) as T[]
  return { rows, total }
}

export type MilestoneHit = MilestoneRow & { project_full_path: string }

/** Milestones of the projects the viewer can read (of a group and its subgroups when given) whose title or description matches. */
export function searchMilestones(db: Db, f: Viewer & { search: string; groupId?: number } & Page) {
  const from = `FROM milestones m JOIN projects p ON p.id = m.project_id JOIN namespaces ns ON ns.id = p.namespace_id
    LEFT JOIN lvl ON lvl.project_id = p.id
    WHERE (@admin = 1 OR ${openIn('p.visibility', f.open)} OR lvl.level >= 10)
      AND (m.title LIKE @search ESCAPE '\\' OR m.description LIKE @search ESCAPE '\\')
      ${f.groupId === undefined ? '' : 'AND p.namespace_id IN (SELECT id FROM down)'}`
  const args = { viewer: f.viewer, admin: f.admin ? 1 : 0, search: likePattern(f.search), group: f.groupId ?? null }
  return paged<MilestoneHit>(db, ACCESS_CTE + (f.groupId === undefined ? '' : DOWN), from, "m.*, NULL AS group_path, ns.full_path || '/' || p.path AS project_full_path", args, f, 'm.id DESC')
}

export type NoteHit = NoteRow & { noteable_type: 'Issue' | 'MergeRequest'; noteable_iid: number }

/**
 * A project's user notes on issues and merge requests whose body matches; notes of confidential issues only for
 * readers of confidential issues (or the author and assignees), of merge requests only for their readers.
 */
export function searchProjectNotes(db: Db, f: { projectId: number; viewer: number; readsConfidential: boolean; readsMergeRequests: boolean; search: string } & Page) {
  const from = `FROM notes n JOIN noteables nb ON nb.id = n.noteable_id
      LEFT JOIN issues i ON i.id = nb.id AND nb.kind = 'Issue' LEFT JOIN merge_requests mr ON mr.id = nb.id AND nb.kind = 'MergeRequest'
    WHERE nb.project_id = @project AND nb.kind IN ('Issue', @mergeRequests) AND n.system = 0 AND n.body LIKE @search ESCAPE '\\'
      AND (nb.kind <> 'Issue' OR i.confidential = 0 OR @confidential = 1 OR i.author_id = @viewer
        OR EXISTS (SELECT 1 FROM noteable_assignees a WHERE a.noteable_id = i.id AND a.user_id = @viewer))`
  const args = { project: f.projectId, viewer: f.viewer, confidential: f.readsConfidential ? 1 : 0, search: likePattern(f.search),
    mergeRequests: f.readsMergeRequests ? 'MergeRequest' : null }
  return paged<NoteHit>(db, '', from, 'n.*, nb.kind AS noteable_type, COALESCE(i.iid, mr.iid) AS noteable_iid', args, f, 'n.id DESC')
}

/** Snippets the viewer may read (as GET /snippets/all) whose title matches. */
export function searchSnippetTitles(db: Db, f: Viewer & { search: string } & Page) {
  const from = `${READABLE_FROM} WHERE s.title LIKE @search ESCAPE '\\' AND (@admin = 1 OR ${readableSnippet(f.open)})`
  const args = { viewer: f.viewer, admin: f.admin ? 1 : 0, search: likePattern(f.search) }
  return paged<SnippetRow>(db, ACCESS_CTE, from, 's.*', args, f, 's.id DESC')
}

/** Ids of the projects the viewer can read (in a group and its subgroups when given) whose name, path or description matches. */
export function searchProjectIds(db: Db, f: Viewer & { search: string; groupId?: number } & Page) {
  const from = `FROM projects p LEFT JOIN lvl ON lvl.project_id = p.id
    WHERE (@admin = 1 OR ${openIn('p.visibility', f.open)} OR lvl.level >= 10)
      AND (p.name LIKE @search ESCAPE '\\' OR p.path LIKE @search ESCAPE '\\' OR p.description LIKE @search ESCAPE '\\')
      ${f.groupId === undefined ? '' : 'AND p.namespace_id IN (SELECT id FROM down)'}`
  const args = { viewer: f.viewer, admin: f.admin ? 1 : 0, search: likePattern(f.search), group: f.groupId ?? null }
  const { rows, total } = paged<{ id: number }>(db, ACCESS_CTE + (f.groupId === undefined ? '' : DOWN), from, 'p.id', args, f, 'p.id DESC')
  return { ids: rows.map((r) => r.id), total }
}
