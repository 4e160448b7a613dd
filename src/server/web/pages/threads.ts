// The threads of an issue or a merge request as their pages show them: each thread with its notes and a reply form;
// on a merge request also replies as drafts of the viewer's review, resolve and unresolve, the viewer's pending drafts,
// and the diff's line hooks that place diff threads, drafts and the open comment form under the line they are on.
import type { DiffFile } from '../../git/types.js'
import type { Noteable } from '../../services/issuables/index.js'
import type { IssueRow } from '../../services/issuables/index.js'
import { renderMarkdown } from '../../services/markup/index.js'
import type { MergeRequestRow } from '../../services/merge-requests/index.js'
import { listDiscussions, mayResolve, type Discussion } from '../../services/issuables/index.js'
import { listDraftNotes, type DraftNoteRow } from '../../services/merge-requests/index.js'
import { withAuthors, type NoteRow } from '../../services/issuables/index.js'
import type { ProjectView } from '../../store/projects.js'
import type { WebContext } from '../context.js'
import { ago } from '../dates.js'
import { html, query, trusted, type Html } from '../html.js'
import { csrfField } from '../layout.js'
import type { LineHooks } from './diff.js'
import { projectPathOf, projectUrl } from './parts.js'

/** Where a form sends the viewer back to: fixed keys, never a URL from the request. */
export type ReturnTo = 'overview' | 'diffs' | 'parallel'

export const returnUrl = (mrUrl: string, to: ReturnTo) =>
  to === 'overview' ? mrUrl : to === 'parallel' ? `${mrUrl}/diffs?view=parallel` : `${mrUrl}/diffs`

interface Place { old_path: string | null; new_path: string | null; old_line: number | null; new_line: number | null }

const placeOf = (position: string | null): Place | null => {
  if (!position) return null
  const p = JSON.parse(position) as Place & { position_type?: string }
  return p.position_type === 'image' ? null : p
}

const onLine = (place: Place | null, f: DiffFile, old: number | undefined, neu: number | undefined) =>
  place !== null && place.new_path === f.newPath && place.old_path === f.oldPath && place.old_line === (old ?? null) && place.new_line === (neu ?? null)

/** Everything the pages show of a noteable's threads: the threads and, on a merge request, the viewer's drafts. */
export interface Review {
  p: ProjectView
  noteable: Noteable
  /** The merge request, whose diff the line forms place comments on; none for an issue. */
  mr?: MergeRequestRow
  url: string
  threads: Discussion[]
  drafts: DraftNoteRow[]
}

const threadsOf = (ctx: WebContext, n: Noteable) => listDiscussions({ ...ctx, page: { page: 1, perPage: 10_000, limit: 10_000, offset: 0 } }, n).discussions

export function reviewOf(ctx: WebContext, p: ProjectView, mr: MergeRequestRow): Review & { mr: MergeRequestRow } {
  const noteable = { kind: 'MergeRequest' as const, row: mr }
  return {
    p, noteable, mr, url: `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`,
    threads: threadsOf(ctx, noteable), drafts: ctx.user ? listDraftNotes(ctx, noteable) : [],
  }
}

export function issueThreadsOf(ctx: WebContext, p: ProjectView, issue: IssueRow): Review {
  const noteable = { kind: 'Issue' as const, row: issue }
  return { p, noteable, url: `${projectUrl(ctx, p)}/-/issues/${issue.iid}`, threads: threadsOf(ctx, noteable), drafts: [] }
}

const markdown = async (ctx: WebContext, p: ProjectView, text: string) =>
  trusted(await renderMarkdown(ctx.app, text, { baseUrl: ctx.baseUrl, projectPath: projectPathOf(p) }))

const resolvable = (n: NoteRow) => n.system === 0 && (n.type === 'DiscussionNote' || n.type === 'DiffNote')

async function noteHtml(ctx: WebContext, p: ProjectView, n: { note: NoteRow; author: { name: string; username: string } }): Promise<Html> {
  const { note, author } = n
  if (note.system) return html`<div class="note system" id="note_${note.id}">@${author.username} ${note.body} <span class="muted">${ago(ctx, note.created_at)}</span></div>`
  return html`<div class="note" id="note_${note.id}"><div class="muted"><strong>${author.name}</strong> @${author.username} · ${ago(ctx, note.created_at)}</div>
<div class="markdown">${await markdown(ctx, p, note.body)}</div></div>`
}

const draftHtml = async (ctx: WebContext, r: Review, d: DraftNoteRow) =>
  html`<div class="note draft" id="draft_${d.id}"><div class="muted"><span class="label draft">Pending</span> your comment</div><div class="markdown">${await markdown(ctx, r.p, d.note)}</div></div>`

/** Where a diff thread is, linking to it on the Changes tab (where it shows under its line). */
const fileCaption = (place: Place | null, href: string) =>
  place ? html`<p class="muted thread-place">on <a href="${href}"><code>${place.new_path ?? place.old_path}</code> line ${place.new_line ?? place.old_line}</a></p>` : ''

/** One thread: its notes, the viewer's drafts replying to it, resolve or unresolve, and a reply form. */
export async function threadHtml(ctx: WebContext, r: Review, d: Discussion, back: ReturnTo, caption = true): Promise<Html> {
  const first = d.notes[0]
  const notes: Html[] = []
  for (const n of withAuthors(ctx, d.notes)) notes.push(await noteHtml(ctx, r.p, n))
  if (first.system) return html`${notes}`
  const pending: Html[] = []
  for (const draft of r.drafts.filter((x) => x.discussion_id === d.id)) pending.push(await draftHtml(ctx, r, draft))
  const canResolve = r.noteable.kind === 'MergeRequest' && d.notes.some(resolvable)
  const resolved = canResolve && d.notes.filter(resolvable).every((n) => n.resolved_at !== null)
  const at = `${r.url}/discussions/${d.id}`
  const hidden = html`${csrfField(ctx)}<input type="hidden" name="return_to" value="${back}">`
  const resolveForm = ctx.user && canResolve && mayResolve(ctx, r.p, r.noteable)
    ? html`<form method="post" action="${at}/${resolved ? 'unresolve' : 'resolve'}" class="inline">${hidden}<button type="submit" class="${resolved ? 'unresolve' : 'resolve'}-thread">${resolved ? 'Unresolve thread' : 'Resolve thread'}</button></form>`
    : ''
  const reply = ctx.user ? html`<details class="reply"><summary>Reply…</summary><form method="post" action="${at}/reply">${hidden}
<textarea name="note" required placeholder="Reply (markdown)"></textarea><p class="bar"><button type="submit" class="reply-now">Reply</button>
${r.mr ? html`<button type="submit" name="review" value="1" class="reply-review">Add to review</button>` : ''}</p></form></details>` : ''
  return html`<section class="note thread${resolved ? ' resolved' : ''}" id="discussion_${d.id}">${caption ? fileCaption(placeOf(first.position), `${r.url}/diffs#discussion_${d.id}`) : ''}
${resolved ? html`<p class="muted thread-state">Resolved</p>` : ''}${notes}${pending}<div class="bar">${resolveForm}</div>${reply}</section>`
}

/** A page's activity: every thread in order (a merge request's diff threads with their file and line). */
export async function threadsHtml(ctx: WebContext, r: Review): Promise<Html> {
  const out: Html[] = []
  for (const d of r.threads) out.push(await threadHtml(ctx, r, d, 'overview'))
  return html`${out}`
}

/** `line=<file>-<old>-<new>`: the line whose comment form is open. */
export function openLine(v: unknown): { file: number; old?: number; neu?: number } | null {
  const m = typeof v === 'string' ? /^(\d{1,5})-(\d{0,9})-(\d{0,9})$/.exec(v) : null
  if (!m || (!m[2] && !m[3])) return null
  return { file: Number(m[1]), old: m[2] ? Number(m[2]) : undefined, neu: m[3] ? Number(m[3]) : undefined }
}

function lineForm(ctx: WebContext, r: Review & { mr: MergeRequestRow }, f: DiffFile, old: number | undefined, neu: number | undefined, back: ReturnTo): Html {
  const v = (name: string, value: string | number | null | undefined) => html`<input type="hidden" name="position[${name}]" value="${value ?? ''}">`
  return html`<form method="post" action="${r.url}/discussions" id="line-form">${csrfField(ctx)}<input type="hidden" name="return_to" value="${back}">
${v('base_sha', r.mr.base_sha)}${v('start_sha', r.mr.target_sha)}${v('head_sha', r.mr.source_sha)}${v('old_path', f.oldPath)}${v('new_path', f.newPath)}${v('old_line', old)}${v('new_line', neu)}
<textarea name="note" required placeholder="Comment on this line (markdown)" id="line-note"></textarea>
<p class="bar"><button type="submit" name="review" value="1" id="add-to-review">${r.drafts.length ? 'Add to review' : 'Start a review'}</button>
<button type="submit" id="add-comment-now">Add comment now</button></p></form>`
}

/**
 * The diff's hooks for a signed-in reviewer: each line's number opens its comment form; under a line go its threads,
 * the viewer's drafts on it and the open form. Everything is rendered before the diff (markdown is asynchronous).
 */
export async function reviewHooks(ctx: WebContext, r: Review & { mr: MergeRequestRow }, files: readonly DiffFile[], view: 'inline' | 'parallel', open: ReturnType<typeof openLine>): Promise<LineHooks> {
  const back: ReturnTo = view === 'parallel' ? 'parallel' : 'diffs'
  const under = new Map<string, Html[]>()
  const key = (file: number, old: number | undefined, neu: number | undefined) => `${file}:${old ?? ''}:${neu ?? ''}`
  const place = async (placeJson: string | null, content: () => Promise<Html>) => {
    const at = placeOf(placeJson)
    if (!at) return
    const i = files.findIndex((f) => f.newPath === at.new_path && f.oldPath === at.old_path)
    if (i < 0 || !onLine(at, files[i], at.old_line ?? undefined, at.new_line ?? undefined)) return
    const k = key(i, at.old_line ?? undefined, at.new_line ?? undefined)
    under.set(k, [...(under.get(k) ?? []), await content()])
  }
  for (const d of r.threads) if (d.notes[0].type === 'DiffNote') await place(d.notes[0].position, () => threadHtml(ctx, r, d, back, false))
  for (const d of r.drafts) if (!d.discussion_id) await place(d.position, () => draftHtml(ctx, r, d))
  const base = `${r.url}/diffs`
  return {
    link: (file, old, neu) => (ctx.user ? `${base}${query({ view: view === 'parallel' ? 'parallel' : undefined, line: `${file}-${old ?? ''}-${neu ?? ''}` })}#line-form` : undefined),
    below: (file, f, old, neu) => {
      const parts = under.get(key(file, old, neu)) ?? []
      const form = open && ctx.user && open.file === file && open.old === old && open.neu === neu ? lineForm(ctx, r, f, old, neu, back) : ''
      return parts.length || form ? html`${parts}${form}` : null
    },
  }
}

/** The viewer's pending review: the drafts, each deletable, and the button that publishes them all at once. */
export async function reviewBar(ctx: WebContext, r: Review, back: ReturnTo): Promise<Html> {
  if (!ctx.user || !r.drafts.length) return html``
  const hidden = html`${csrfField(ctx)}<input type="hidden" name="return_to" value="${back}">`
  const items: Html[] = []
  for (const d of r.drafts) {
    const where = placeOf(d.position)
    items.push(html`<li>${where ? html`<code>${where.new_path ?? where.old_path}</code>:${where.new_line ?? where.old_line} ` : d.discussion_id ? 'Reply: ' : ''}${d.note.slice(0, 120)}
<form method="post" action="${r.url}/draft_notes/${d.id}/delete" class="inline">${hidden}<button type="submit" class="delete-draft">Delete</button></form></li>`)
  }
  return html`<section class="note" id="review-bar"><p><strong id="review-count">${r.drafts.length} pending comment${r.drafts.length === 1 ? '' : 's'}</strong></p>
<ul class="list" id="pending-comments">${items}</ul>
<form method="post" action="${r.url}/draft_notes/bulk_publish" id="submit-review-form">${hidden}<button type="submit" id="submit-review">Submit review</button></form></section>`
}
