// Issue lists joined from remembered per-issue JSON texts: a page costs its queries, not presenting every issue again.
import type { RequestContext } from '../context.js'
import type { IssueBundle } from '../present/issues.js'
import { peekRead } from '../store/db.js'
import type { IssueRow } from '../store/issues.js'
import { rememberRead } from '../store/writes.js'
import { bundles, relationsOf, today } from './issues.js'

/** Tables an issue's list form shows besides its own row and relations (label names included): people, milestone, project path. */
const SHOWN_TABLES = ['users', 'milestones', 'projects', 'namespaces'] as const

interface IssueText { row: IssueRow; labels: string[]; assignees: number[]; up: number; down: number; text: string }

const sameRow = (a: IssueRow, b: IssueRow) => {
  for (const k in b) if (a[k as keyof IssueRow] !== b[k as keyof IssueRow]) return false
  return true
}
const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * A page of issues in their list form, each as JSON text from `render`. An issue's text is remembered (per base URL and
 * day, as its URLs and milestone's `expired` depend on them) and reused while its row and relations read now are the
 * ones it was made from and none of SHOWN_TABLES has been written since: a page then costs its queries, not its presenting.
 */
export function issueTexts(ctx: RequestContext, rows: IssueRow[], render: (b: IssueBundle) => string): string[] {
  const db = ctx.app.db
  const relations = relationsOf(ctx, rows)
  const prefix = `issue-text:${ctx.baseUrl}|${today(ctx)}|`
  const texts: string[] = []
  const misses: number[] = []
  rows.forEach((r, i) => {
    const hit = peekRead<IssueText>(db, prefix + r.id, SHOWN_TABLES)
    const vote = relations.votes.get(r.id)
    const fresh = hit && sameRow(hit.row, r) && sameList(hit.labels, relations.labels.get(r.id) ?? [])
      && sameList(hit.assignees, relations.assignees.get(r.id) ?? []) && hit.up === (vote?.up ?? 0) && hit.down === (vote?.down ?? 0)
    if (fresh) texts[i] = hit.text
    else misses.push(i)
  })
  if (!misses.length) return texts
  bundles(ctx, misses.map((i) => rows[i]), undefined, relations).forEach((b, j) => {
    const text = render(b)
    texts[misses[j]] = text
    rememberRead<IssueText>(db, prefix + b.row.id, SHOWN_TABLES, {
      row: b.row, labels: b.labels, assignees: b.assignees.map((u) => u.id), up: b.upvotes, down: b.downvotes, text,
    })
  })
  return texts
}
