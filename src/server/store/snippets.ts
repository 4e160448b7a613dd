// Snippets (a noteable kind) and their files: project snippets, and personal ones with no project.
import { inIds, stmt, write, type Db } from './db.js'
import { ACCESS_CTE } from './issuable-lists.js'
import { openIn, type OpenLevels } from './namespaces.js'
import { deleteNoteable, insertKindRow } from './noteables.js'

export type SnippetVisibility = 'private' | 'internal' | 'public'

export interface SnippetRow {
  id: number
  project_id: number | null
  author_id: number
  title: string
  description: string | null
  visibility: SnippetVisibility
  discussion_locked: number
  user_notes_count: number
  created_at: string
  updated_at: string
}

export interface SnippetFile { path: string; content: string }

export type NewSnippet = Omit<SnippetRow, 'id' | 'discussion_locked' | 'user_notes_count'>

export function insertSnippet(db: Db, row: NewSnippet, files: SnippetFile[]): SnippetRow {
  const snippet = insertKindRow<SnippetRow>(db, 'Snippet', row)
  setFiles(db, snippet.id, files)
  return snippet
}

export function setFiles(db: Db, snippetId: number, files: SnippetFile[]) {
  write(db, 'snippet_files', 'DELETE FROM snippet_files WHERE snippet_id = ?').run(snippetId)
  files.forEach((f, i) => write(db, 'snippet_files', 'INSERT INTO snippet_files (snippet_id, position, path, content) VALUES (?, ?, ?, ?)').run(snippetId, i, f.path, f.content))
}

export type SnippetPatch = Partial<Pick<SnippetRow, 'title' | 'description' | 'visibility' | 'updated_at'>>

export function updateSnippet(db: Db, id: number, patch: SnippetPatch) {
  const cols = Object.keys(patch)
  if (!cols.length) return
  write(db, 'snippets', `UPDATE snippets SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteSnippet = (db: Db, id: number) => deleteNoteable(db, id)

export const findSnippet = (db: Db, id: number) =>
  stmt(db, 'SELECT * FROM snippets WHERE id = ?').get(id) as SnippetRow | undefined

export const filesOf = (db: Db, snippetId: number) =>
  stmt(db, 'SELECT path, content FROM snippet_files WHERE snippet_id = ? ORDER BY position').all(snippetId) as SnippetFile[]

/** File names (no contents) of a page of snippets, in order. */
export function fileNamesOf(db: Db, ids: number[]): Map<number, string[]> {
  const out = new Map<number, string[]>()
  if (!ids.length) return out
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT snippet_id, path FROM snippet_files WHERE snippet_id ${inIds('id', ids, args)} ORDER BY snippet_id, position`).all(args) as { snippet_id: number; path: string }[]
  for (const r of rows) {
    let list = out.get(r.snippet_id)
    if (!list) out.set(r.snippet_id, (list = []))
    list.push(r.path)
  }
  return out
}

/**
 * Which snippets a list shows: `project` (one project's, with the visibilities the caller may read there), or personal
 * ones by `author` and/or `visibilities`. Newest first, as GitLab's SnippetsFinder orders them.
 */
export interface SnippetFilter {
  project?: number
  personal?: boolean
  author?: number
  visibilities?: SnippetVisibility[]
  /** With `visibilities`: the caller's own snippets are listed whatever their visibility. */
  orAuthor?: number
  limit: number
  offset: number
}

export function listSnippets(db: Db, f: SnippetFilter): { rows: SnippetRow[]; total: number } {
  const where: string[] = []
  const args: Record<string, unknown> = { limit: f.limit, offset: f.offset }
  if (f.project !== undefined) { where.push('project_id = @project'); args.project = f.project }
  if (f.personal) where.push('project_id IS NULL')
  if (f.author !== undefined) { where.push('author_id = @author'); args.author = f.author }
  if (f.visibilities) {
    const levels = f.visibilities.map((v, i) => { args[`v${i}`] = v; return `@v${i}` }).join(', ') || 'NULL'
    if (f.orAuthor !== undefined) { where.push(`(visibility IN (${levels}) OR author_id = @me)`); args.me = f.orAuthor } else where.push(`visibility IN (${levels})`)
  }
  const cond = where.length ? `WHERE ${where.join(' AND ')}` : ''
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM snippets ${cond}`).get(args) as { n: number }).n
  const rows = stmt(db, `SELECT * FROM snippets ${cond} ORDER BY id DESC LIMIT @limit OFFSET @offset`).all(args) as SnippetRow[]
  return { rows, total }
}

/** Snippets `s` with their project `p` and the viewer's level on it, `lvl` (from ACCESS_CTE). */
export const READABLE_FROM = 'FROM snippets s LEFT JOIN projects p ON p.id = s.project_id LEFT JOIN lvl ON lvl.project_id = s.project_id'

/** The condition under which a signed-in non-administrator (@viewer) reads a snippet of READABLE_FROM. */
export const readableSnippet = (open: OpenLevels) => `((s.project_id IS NULL AND (${openIn('s.visibility', open)} OR s.author_id = @viewer))
  OR (p.snippets_enabled = 1 AND (lvl.level >= 10
    OR (${openIn('p.visibility', open)} AND (${openIn('s.visibility', open)} OR s.author_id = @viewer)))))`

/**
 * Every snippet a signed-in non-administrator may read (GET /snippets/all): personal ones open to them or theirs, and
 * project snippets of projects with the feature on, as policy reads them: all of a project they are a
 * member of, else the open ones (and their own) of an open project. `open` is policy.ts's openVisibilities.
 */
export function listReadableSnippets(db: Db, viewer: number, open: OpenLevels, page: { limit: number; offset: number }): { rows: SnippetRow[]; total: number } {
  const from = `${READABLE_FROM} WHERE ${readableSnippet(open)}`
  const total = (stmt(db, `${ACCESS_CTE} SELECT COUNT(*) AS n ${from}`).get({ viewer }) as { n: number }).n
  const rows = stmt(db, `${ACCESS_CTE} SELECT s.* ${from} ORDER BY s.id DESC LIMIT @limit OFFSET @offset`).all({ viewer, ...page }) as SnippetRow[]
  return { rows, total }
}
