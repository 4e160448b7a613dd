// Comments on commits, with GitLab's line-placement rule: a comment lands on a line only when path, line and line type match the diff.
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import { commitDiff } from '../git/diff.js'
import * as store from '../store/commit-comments.js'
import type { ProjectView } from '../store/projects.js'
import { commitOr404, gitdirOf, requireReadCode } from './repository.js'

/** Whether a diff holds an added (`new`) or removed (`old`) line with that number. */
export function diffHasLine(diff: string, line: number, type: 'new' | 'old'): boolean {
  let oldNo = 0
  let newNo = 0
  for (const text of diff.split('\n')) {
    const hunk = text.match(/^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/)
    if (hunk) {
      oldNo = Number(hunk[1])
      newNo = Number(hunk[2])
      continue
    }
    if (text.startsWith('+')) {
      if (type === 'new' && newNo === line) return true
      newNo++
    } else if (text.startsWith('-')) {
      if (type === 'old' && oldNo === line) return true
      oldNo++
    } else if (text.startsWith(' ')) {
      oldNo++
      newNo++
    }
  }
  return false
}

export async function createComment(ctx: RequestContext, p: ProjectView, rev: string, input: { note: string; path?: string; line?: number; line_type?: 'new' | 'old' }) {
  requireReadCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  let placed: { path: string; line: number; line_type: 'new' | 'old' } | null = null
  if (input.path !== undefined && input.line !== undefined) {
    const type = input.line_type ?? 'new'
    const entry = (await commitDiff(gitdirOf(ctx, p), sha)).find((d) => d.newPath === input.path)
    if (entry && diffHasLine(entry.diff, input.line, type)) placed = { path: input.path, line: input.line, line_type: type }
  }
  const id = store.insertComment(ctx.app.db, {
    project_id: p.id, sha, note: input.note, path: placed?.path ?? null, line: placed?.line ?? null, line_type: placed?.line_type ?? null,
    author_id: ctx.user!.id, created_at: nowIso(ctx),
  })
  return store.findComment(ctx.app.db, id)!
}

export async function listComments(ctx: RequestContext, p: ProjectView, rev: string) {
  requireReadCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  return store.listComments(ctx.app.db, p.id, sha, { limit: ctx.page.limit, offset: ctx.page.offset })
}
