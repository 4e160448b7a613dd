// Comments on commits, with GitLab's line-placement rule: a comment lands on a line only when path, line and line type match the diff.
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { commitDiff } from '../../git/diff.js'
import * as store from '../../store/commit-comments.js'
import { transaction } from '../../store/db.js'
import { ensureCommitNoteable } from '../../store/discussions.js'
import { insertNote } from '../../store/notes.js'
import type { ProjectView } from '../../store/projects.js'
import { commitOr404, gitdirOf, requireReadCode } from './repository.js'
import { emitHookEvent } from '../hooks/webhook-events.js'

/**
 * Whether a diff holds the line a position names: added (only `newLine`), removed (only `oldLine`), or unchanged (both),
 * GitLab's rule for placing a note on a diff line.
 */
export function diffHasPosition(diff: string, oldLine: number | null, newLine: number | null): boolean {
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
      if (oldLine === null && newNo === newLine) return true
      newNo++
    } else if (text.startsWith('-')) {
      if (newLine === null && oldNo === oldLine) return true
      oldNo++
    } else if (text.startsWith(' ')) {
      if (oldNo === oldLine && newNo === newLine) return true
      oldNo++
      newNo++
    }
  }
  return false
}

/** Whether a diff holds an added (`new`) or removed (`old`) line with that number. */
export const diffHasLine = (diff: string, line: number, type: 'new' | 'old') =>
  type === 'new' ? diffHasPosition(diff, null, line) : diffHasPosition(diff, line, null)

export async function createComment(ctx: RequestContext, p: ProjectView, rev: string, input: { note: string; path?: string; line?: number; line_type?: 'new' | 'old' }) {
  requireReadCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  let placed: { path: string; line: number; line_type: 'new' | 'old' } | null = null
  if (input.path !== undefined && input.line !== undefined) {
    const type = input.line_type ?? 'new'
    const entry = (await commitDiff(gitdirOf(ctx, p), sha)).find((d) => d.newPath === input.path)
    if (entry && diffHasLine(entry.diff, input.line, type)) placed = { path: input.path, line: input.line, line_type: type }
  }
  const db = ctx.app.db
  const at = nowIso(ctx)
  // A comment placed on a line is GitLab's LegacyDiffNote; the others are individual notes of the commit.
  const [id, noteableId] = transaction(db, () => {
    const noteable = ensureCommitNoteable(db, p.id, sha, at).id
    return [insertNote(db, {
      noteable_id: noteable, author_id: ctx.user!.id, body: input.note, system: 0, created_at: at, updated_at: at,
      type: placed ? 'LegacyDiffNote' : null, position: placed ? JSON.stringify(placed) : null,
    }), noteable] as const
  })
  emitHookEvent(ctx.app, { kind: 'note', projectId: p.id, userId: ctx.user!.id, noteId: id, noteableId, noteableKind: 'Commit' })
  return store.findComment(db, id)!
}

export async function listComments(ctx: RequestContext, p: ProjectView, rev: string) {
  requireReadCode(ctx, p)
  const sha = await commitOr404(ctx, p, rev)
  return store.listComments(ctx.app.db, p.id, sha, { limit: ctx.page.limit, offset: ctx.page.offset })
}
