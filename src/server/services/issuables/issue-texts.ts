// Issue lists joined from remembered per-issue JSON texts: a page costs its queries, not presenting every issue again.
import type { RequestContext } from '../../context.js'
import type { IssueBundle } from '../../present/issues.js'
import { cachedRead } from '../../store/db.js'
import { issuesByIds, type IssueVersion } from '../../store/issues.js'
import { today } from './issuable-lists.js'
import { bundles } from './issues.js'

/**
 * Tables an issue's list form shows besides its own row and relations: people, label names, milestone, project path.
 * Its row and relations are covered by its list_version.
 */
const SHOWN_TABLES = ['users', 'labels', 'milestones', 'projects', 'namespaces'] as const

interface IssueText { version: number; text: string }

/**
 * Texts by base URL and viewer, then by issue id; `bytes` counts the characters of them all. A text is the viewer's
 * own: its merge_requests_count counts only the merge requests that viewer may read.
 */
interface Texts { byBase: Map<string, Map<number, IssueText>>; bytes: number }

/**
 * 8 MiB of texts at most (about 5,000 issues; list pages mostly show the first few pages of a few filters): the base
 * URL comes from the request's Host header, so anyone can ask for new ones.
 */
const TEXTS_LIMIT = 8 * 1024 * 1024

/** The texts remembered for the caller (their base URL and who they are) and the day. */
function textsFor(ctx: RequestContext) {
  // One remembered set per day, added to as texts are made: each text is checked against its issue's list_version when
  // used, and a write to one of SHOWN_TABLES replaces the whole set, forgetting every text at once.
  const all = cachedRead<Texts>(ctx.app.db, `issue-texts:${today(ctx)}`, SHOWN_TABLES, () => ({ byBase: new Map(), bytes: 0 }))
  const key = `${ctx.baseUrl}|${ctx.user?.id ?? 0}`
  let texts = all.byBase.get(key)
  if (!texts) all.byBase.set(key, (texts = new Map()))
  const mine = texts
  return {
    get: (id: number) => mine.get(id),
    add(id: number, t: IssueText) {
      if (all.bytes + t.text.length > TEXTS_LIMIT) {
        all.byBase.forEach((m) => m.clear())
        all.bytes = 0
      }
      all.bytes += t.text.length - (mine.get(id)?.text.length ?? 0)
      mine.set(id, t)
    },
  }
}

/**
 * A page of issues in their list form, each as JSON text from `render`. An issue's text is remembered (per base URL and
 * day, as its URLs and milestone's `expired` depend on them) and reused while the issue's list_version is the one it
 * was made at and none of SHOWN_TABLES has been written since: a page then costs its id query, not reading and
 * presenting its issues. The database gives an issue a new list_version with every change to its row or relations
 * (migration 026), so nothing here has to know which writes change what.
 */
export function issueTexts(ctx: RequestContext, page: IssueVersion[], render: (b: IssueBundle) => string): string[] {
  const known = textsFor(ctx)
  const texts: string[] = []
  const misses: number[] = []
  page.forEach((p, i) => {
    const hit = known.get(p.id)
    if (hit && hit.version === p.list_version) texts[i] = hit.text
    else misses.push(i)
  })
  if (!misses.length) return texts
  const rows = issuesByIds(ctx.app.db, misses.map((i) => page[i].id))
  const byId = new Map(bundles(ctx, rows).map((b) => [b.row.id, b]))
  for (const i of misses) {
    const b = byId.get(page[i].id)!
    const text = render(b)
    texts[i] = text
    known.add(b.row.id, { version: b.row.list_version, text })
  }
  return texts
}
