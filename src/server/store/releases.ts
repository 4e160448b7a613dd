// Releases of a project, their asset links and their milestones.
import { inIds, stmt, write, type Db } from './db.js'
import type { MilestoneRow } from './milestones.js'

export interface ReleaseRow {
  id: number
  project_id: number
  tag: string
  name: string | null
  description: string | null
  author_id: number
  sha: string | null
  released_at: string
  created_at: string
  updated_at: string
}

export interface ReleaseLinkRow {
  id: number
  release_id: number
  name: string
  url: string
  filepath: string | null
  link_type: 'other' | 'runbook' | 'image' | 'package'
  created_at: string
  updated_at: string
}

export type ReleaseOrder = 'released_at' | 'created_at'

export interface ReleaseFilters { orderBy: ReleaseOrder; sort: 'asc' | 'desc'; updatedBefore?: string; updatedAfter?: string; limit: number; offset: number }

function filterClause(f: Pick<ReleaseFilters, 'updatedBefore' | 'updatedAfter'>, args: Record<string, unknown>) {
  let sql = ''
  if (f.updatedBefore) { sql += ' AND updated_at < @before'; args.before = f.updatedBefore }
  if (f.updatedAfter) { sql += ' AND updated_at > @after'; args.after = f.updatedAfter }
  return sql
}

/** GitLab's ReleasesFinder: by released_at (or created_at), ties broken by id in the same direction. */
export function listReleases(db: Db, projectId: number, f: ReleaseFilters): { rows: ReleaseRow[]; total: number } {
  const args: Record<string, unknown> = { project: projectId, limit: f.limit, offset: f.offset }
  const where = `project_id = @project${filterClause(f, args)}`
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const column = f.orderBy === 'created_at' ? 'created_at' : 'released_at'
  const rows = stmt(db, `SELECT * FROM releases WHERE ${where} ORDER BY ${column} ${dir}, id ${dir} LIMIT @limit OFFSET @offset`).all(args) as ReleaseRow[]
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM releases WHERE ${where}`).get(args) as { n: number }).n
  return { rows, total }
}

/** Releases of several projects (a group's), newest released first or last. */
export function listReleasesOfProjects(db: Db, projectIds: number[], f: Pick<ReleaseFilters, 'sort' | 'limit' | 'offset'>) {
  const args: Record<string, unknown> = { limit: f.limit, offset: f.offset }
  const where = `project_id ${inIds('projects', projectIds, args)}`
  const dir = f.sort === 'asc' ? 'ASC' : 'DESC'
  const rows = stmt(db, `SELECT * FROM releases WHERE ${where} ORDER BY released_at ${dir}, id ${dir} LIMIT @limit OFFSET @offset`).all(args) as ReleaseRow[]
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM releases WHERE ${where}`).get(args) as { n: number }).n
  return { rows, total }
}

export const findReleaseByTag = (db: Db, projectId: number, tag: string) =>
  stmt(db, 'SELECT * FROM releases WHERE project_id = ? AND tag = ?').get(projectId, tag) as ReleaseRow | undefined

export const findReleaseById = (db: Db, id: number) => stmt(db, 'SELECT * FROM releases WHERE id = ?').get(id) as ReleaseRow | undefined

/** The tags of a project that have releases, with their notes (the tags API's `release`). */
export function releasesOfTags(db: Db, projectId: number): Map<string, ReleaseRow> {
  const rows = stmt(db, 'SELECT * FROM releases WHERE project_id = ?').all(projectId) as ReleaseRow[]
  return new Map(rows.map((r) => [r.tag, r]))
}

export function insertRelease(db: Db, r: Omit<ReleaseRow, 'id'>): number {
  return Number(write(db, 'releases', `INSERT INTO releases (project_id, tag, name, description, author_id, sha, released_at, created_at, updated_at)
    VALUES (@project_id, @tag, @name, @description, @author_id, @sha, @released_at, @created_at, @updated_at)`).run(r).lastInsertRowid)
}

export function updateRelease(db: Db, id: number, patch: Partial<Pick<ReleaseRow, 'name' | 'description' | 'released_at' | 'updated_at'>>) {
  const keys = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== undefined).sort()
  if (!keys.length) return
  write(db, 'releases', `UPDATE releases SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...patch, id })
}

export const deleteRelease = (db: Db, id: number) => write(db, 'releases', 'DELETE FROM releases WHERE id = ?').run(id)

// Links: GitLab's `sorted` scope is newest first.
export function linksOf(db: Db, releaseIds: number[]): Map<number, ReleaseLinkRow[]> {
  const out = new Map<number, ReleaseLinkRow[]>(releaseIds.map((id) => [id, []]))
  if (!releaseIds.length) return out
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT * FROM release_links WHERE release_id ${inIds('releases', releaseIds, args)} ORDER BY created_at DESC, id DESC`).all(args) as ReleaseLinkRow[]
  for (const r of rows) out.get(r.release_id)!.push(r)
  return out
}

export const findLink = (db: Db, releaseId: number, id: number) =>
  stmt(db, 'SELECT * FROM release_links WHERE release_id = ? AND id = ?').get(releaseId, id) as ReleaseLinkRow | undefined

export const findLinkByFilepath = (db: Db, releaseId: number, filepath: string) =>
  stmt(db, 'SELECT * FROM release_links WHERE release_id = ? AND filepath = ?').get(releaseId, filepath) as ReleaseLinkRow | undefined

export function insertLink(db: Db, l: Omit<ReleaseLinkRow, 'id'>): number {
  return Number(write(db, 'release_links', `INSERT INTO release_links (release_id, name, url, filepath, link_type, created_at, updated_at)
    VALUES (@release_id, @name, @url, @filepath, @link_type, @created_at, @updated_at)`).run(l).lastInsertRowid)
}

export function updateLink(db: Db, id: number, l: Pick<ReleaseLinkRow, 'name' | 'url' | 'filepath' | 'link_type' | 'updated_at'>) {
  write(db, 'release_links', 'UPDATE release_links SET name = @name, url = @url, filepath = @filepath, link_type = @link_type, updated_at = @updated_at WHERE id = @id').run({ ...l, id })
}

export const deleteLink = (db: Db, id: number) => write(db, 'release_links', 'DELETE FROM release_links WHERE id = ?').run(id)

/** Milestones of releases, ordered as GitLab's order_by_dates_and_title (due date, start date, title). */
export function milestonesOf(db: Db, releaseIds: number[]): Map<number, MilestoneRow[]> {
  const out = new Map<number, MilestoneRow[]>(releaseIds.map((id) => [id, []]))
  if (!releaseIds.length) return out
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT mr.release_id, m.*, n.full_path AS group_path FROM milestone_releases mr JOIN milestones m ON m.id = mr.milestone_id
    LEFT JOIN namespaces n ON n.id = m.group_id WHERE mr.release_id ${inIds('releases', releaseIds, args)}
    ORDER BY m.due_date IS NULL, m.due_date, m.start_date IS NULL, m.start_date, m.title`).all(args) as (MilestoneRow & { release_id: number })[]
  for (const { release_id, ...m } of rows) out.get(release_id)!.push(m)
  return out
}

export function setMilestones(db: Db, releaseId: number, milestoneIds: number[]) {
  write(db, 'milestone_releases', 'DELETE FROM milestone_releases WHERE release_id = ?').run(releaseId)
  for (const id of milestoneIds) write(db, 'milestone_releases', 'INSERT OR IGNORE INTO milestone_releases (milestone_id, release_id) VALUES (?, ?)').run(id, releaseId)
}

/** Milestone#issue_stats: its issues in all, and those closed. */
export function issueStatsOf(db: Db, milestoneIds: number[]): Map<number, { total: number; closed: number }> {
  const out = new Map<number, { total: number; closed: number }>(milestoneIds.map((id) => [id, { total: 0, closed: 0 }]))
  if (!milestoneIds.length) return out
  const args: Record<string, unknown> = {}
  const rows = stmt(db, `SELECT milestone_id AS id, COUNT(*) AS total, COALESCE(SUM(state = 'closed'), 0) AS closed FROM issues
    WHERE milestone_id ${inIds('milestones', milestoneIds, args)} GROUP BY milestone_id`).all(args) as { id: number; total: number; closed: number }[]
  for (const r of rows) out.set(r.id, { total: r.total, closed: r.closed })
  return out
}
