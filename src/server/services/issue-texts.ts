// Issue lists joined from remembered per-issue JSON texts: a page costs its queries, not presenting every issue again.
import type { RequestContext } from '../context.js'
import type { IssueBundle } from '../present/issues.js'
import { cachedRead } from '../store/db.js'
import type { IssueRow } from '../store/issues.js'
import { bundles, relationsOf, today } from './issues.js'

/** Tables an issue's list form shows besides its own row and relations (label names included): people, milestone, project path. */
const SHOWN_TABLES = ['users', 'milestones', 'projects', 'namespaces'] as const

interface IssueText { row: IssueRow; labels: string[]; assignees: number[]; up: number; down: number; mrs: number; text: string }

const sameRow = (a: IssueRow, b: IssueRow) => {
  for (const k in b) if (a[k as keyof IssueRow] !== b[k as keyof IssueRow]) return false
  return true
}
const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i])

/** Texts by base URL, then by issue id; `size` counts them all. */
interface Texts { byBase: Map<string, Map<number, IssueText>>; size: number }

/** About 40 MiB of texts at most: the base URL comes from the request's Host header, so anyone can ask for new ones. */
const TEXTS_LIMIT = 25_000

/** The texts remembered for the caller's base URL and day. */
function textsFor(ctx: RequestContext) {
  // One remembered set per day, added to as texts are made: each text is checked against its issue when used, and a
  // write to one of SHOWN_TABLES replaces the whole set, forgetting every text at once.
  const all = cachedRead<Texts>(ctx.app.db, `issue-texts:${today(ctx)}`, SHOWN_TABLES, () => ({ byBase: new Map(), size: 0 }))
  let texts = all.byBase.get(ctx.baseUrl)
  if (!texts) all.byBase.set(ctx.baseUrl, (texts = new Map()))
  const mine = texts
  return {
    get: (id: number) => mine.get(id),
    add(id: number, t: IssueText) {
      if (all.size >= TEXTS_LIMIT) {
        all.byBase.forEach((m) => m.clear())
        all.size = 0
      }
      if (!mine.has(id)) all.size++
      mine.set(id, t)
    },
  }
}

/**
 * A page of issues in their list form, each as JSON text from `render`. An issue's text is remembered (per base URL and
 * day, as its URLs and milestone's `expired` depend on them) and reused while its row and relations read now are the
 * ones it was made from and none of SHOWN_TABLES has been written since: a page then costs its queries, not its presenting.
 */
export function issueTexts(ctx: RequestContext, rows: IssueRow[], render: (b: IssueBundle) => string): string[] {
  const relations = relationsOf(ctx, rows)
  const known = textsFor(ctx)
  const texts: string[] = []
  const misses: number[] = []
  rows.forEach((r, i) => {
    const hit = known.get(r.id)
    const vote = relations.votes.get(r.id)
    const fresh = hit && sameRow(hit.row, r) && sameList(hit.labels, relations.labels.get(r.id) ?? [])
      && sameList(hit.assignees, relations.assignees.get(r.id) ?? []) && hit.up === (vote?.up ?? 0) && hit.down === (vote?.down ?? 0)
      && hit.mrs === (relations.mergeRequests.get(r.id) ?? 0)
    if (fresh) texts[i] = hit.text
    else misses.push(i)
  })
  if (!misses.length) return texts
  bundles(ctx, misses.map((i) => rows[i]), undefined, relations).forEach((b, j) => {
    const text = render(b)
    texts[misses[j]] = text
    known.add(b.row.id, { row: b.row, labels: b.labels, assignees: b.assignees.map((u) => u.id), up: b.upvotes, down: b.downvotes, mrs: b.mergeRequestsCount, text })
  })
  return texts
}
