// The one markdown renderer of collab (wiki render_html and the web pages): markdown-it with raw HTML off, so any
// markup a user writes stays text, plus GitLab's task lists and, when a project is given, references as links.
// Its cost is bounded and paid once: a long text is shown unrendered, and a render is kept until its text changes.
import { createHash } from 'node:crypto'
import type { default as MarkdownIt, StateCore, Token } from 'markdown-it'
import type { AppDeps } from '../../context.js'
import { findRenderedMarkdown, saveRenderedMarkdown } from '../../store/markdown-cache.js'

/** Where GitLab references point: `#12` and `!3` in the project, `@user` on the instance. */
export interface ReferenceBase { baseUrl: string; projectPath?: string }

// Loaded on the first render, not at server start: the idle server stays small.
let loading: Promise<MarkdownIt> | null = null
const markdownIt = () => (loading ??= import('markdown-it').then(({ default: Md }) => {
  const md = new Md({ html: false, linkify: true })
  md.core.ruler.push('gitlab_task_lists', taskLists)
  md.core.ruler.push('gitlab_references', references)
  return md
}))

const MAY_REFER = /[#!@]/
const REFERENCE = /(^|[\s(])(?:([#!])(\d+)|@([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_]|[A-Za-z0-9_]))(?=$|[\s.,;:!?)])/g

function references(state: StateCore) {
  const base = state.env as ReferenceBase | undefined
  if (!base?.baseUrl) return
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue
    let insideLink = 0
    const out: Token[] = []
    for (const t of block.children) {
      if (t.type === 'link_open') insideLink++
      if (t.type === 'link_close') insideLink--
      if (t.type !== 'text' || insideLink > 0 || !MAY_REFER.test(t.content)) out.push(t)
      // Not push(...): a text of many thousand references would overflow the stack as arguments.
      else for (const r of linkReferences(state, t.content, base)) out.push(r)
    }
    block.children = out
  }
}

function hrefOf(base: ReferenceBase, kind: string, id: string): string | null {
  if (kind === '@') return `${base.baseUrl}/${encodeURIComponent(id)}`
  if (!base.projectPath) return null
  return `${base.baseUrl}/${base.projectPath}/-/${kind === '#' ? 'issues' : 'merge_requests'}/${id}`
}

function linkReferences(state: StateCore, text: string, base: ReferenceBase): Token[] {
  const tokens: Token[] = []
  let last = 0
  const push = (content: string) => {
    if (!content) return
    const t = new state.Token('text', '', 0)
    t.content = content
    tokens.push(t)
  }
  for (const m of text.matchAll(REFERENCE)) {
    const [whole, lead, kind, num, user] = m
    const href = hrefOf(base, kind ?? '@', num ?? user)
    if (!href) continue
    const start = m.index + lead.length
    push(text.slice(last, start))
    const open = new state.Token('link_open', 'a', 1)
    open.attrs = [['href', href], ['class', 'gfm-reference']]
    tokens.push(open)
    push(whole.slice(lead.length))
    tokens.push(new state.Token('link_close', 'a', -1))
    last = m.index + whole.length
  }
  push(text.slice(last))
  return tokens
}

// Code is never a reference: fenced blocks first, then inline spans.
const CODE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$|`[^`\n]*`/gm

/** The usernames a text mentions (`@user` outside code), in order, each once; `@all` and the like included. */
export function mentionedUsernames(text: string): string[] {
  if (!text.includes('@')) return []
  const names = new Set<string>()
  for (const m of text.replace(CODE, ' ').matchAll(REFERENCE)) if (m[4]) names.add(m[4])
  return [...names]
}

const TASK = /^\[([ xX])\]\s/

/** `- [ ] todo` and `- [x] done` become disabled checkboxes, as GitLab shows them to readers. */
function taskLists(state: StateCore) {
  const tokens = state.tokens
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]
    if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue
    const first = inline.children?.[0]
    const m = first?.type === 'text' ? TASK.exec(first.content) : null
    if (!m || !first) continue
    first.content = first.content.slice(m[0].length)
    const box = new state.Token('html_inline', '', 0)
    box.content = `<input type="checkbox" class="task-list-item-checkbox" disabled${m[1] === ' ' ? '' : ' checked'}> `
    inline.children!.unshift(box)
    tokens[i - 2].attrJoin('class', 'task-list-item')
  }
}

/**
 * Only this much of a text is rendered; the page says the rest was cut, as GitLab's TruncateSourceFilter does past
 * its 1 MiB. GitLab renders in worker processes of their own; here one event loop serves every request, and 100,000
 * characters (far more than people write by hand in a description or note) keep the worst render measured to a few
 * hundred milliseconds on a loaded two-core machine, where 1 MB took seconds, and keep every page that shows one small.
 */
export const RENDER_LIMIT = 100_000
// Grouped by hand: toLocaleString would page in ICU's number formats, 6 MB of the idle server's memory, for this string.
const TRUNCATED = `<p class="markdown-truncated"><em>The text is longer than ${String(RENDER_LIMIT).replace(/\B(?=(\d{3})+$)/g, ',')} characters and has been visually truncated.</em></p>\n`

/** The first RENDER_LIMIT characters, not splitting a surrogate pair. */
function head(source: string): string {
  const end = /[\ud800-\udbff]/.test(source[RENDER_LIMIT - 1]) ? RENDER_LIMIT - 1 : RENDER_LIMIT
  return source.slice(0, end)
}

/**
 * Reference links are rendered against this stand-in and given the request's base URL as they are shown: the base
 * comes from the Host header, and a render per Host would let any client make us render a text again.
 */
const BASE = 'collab-base:'
/**
 * Part of every kept render's key. Kept renders outlive the process: a change to what a render produces (a rule, an
 * option, markdown-it's major version) must bump it, or texts rendered before show the old output until they change.
 */
const RENDERER_VERSION = 1

/** How many bytes of rendered HTML the persistent cache keeps, oldest out first. */
const STORED_BUDGET = 64 * 1024 * 1024
/** Texts up to this length render in well under a millisecond: they are kept in memory only (500 of them). */
const SMALL = 8 * 1024
const SMALL_ENTRIES = 500
const small = new Map<string, string>()

/** The render of `source` with references against the stand-in base, from the caches when it is there. */
async function renderOnce(app: Pick<AppDeps, 'db'>, source: string, base: ReferenceBase | undefined, keep: boolean): Promise<string> {
  const truncated = source.length > RENDER_LIMIT
  const text = truncated ? head(source) : source
  const context = `${RENDERER_VERSION}\0${truncated ? 1 : 0}\0${base ? 1 : 0}\0${base?.projectPath ?? ''}\0`
  const isSmall = text.length <= SMALL
  const key = isSmall ? context + text : createHash('sha256').update(context).update(text).digest('hex')
  const known = () => (isSmall ? small.get(key) : keep ? findRenderedMarkdown(app.db, key) : undefined)
  const hit = known()
  if (hit !== undefined) return hit
  const md = await markdownIt()
  // Views that missed together while markdown-it loaded find the first one's render here.
  const loaded = known()
  if (loaded !== undefined) return loaded
  const out = (truncated ? TRUNCATED : '') + md.render(text, base ? { ...base, baseUrl: BASE } : {})
  if (isSmall) {
    if (small.size >= SMALL_ENTRIES) small.delete(small.keys().next().value!)
    small.set(key, out)
  } else if (keep) {
    saveRenderedMarkdown(app.db, key, out, STORED_BUDGET)
  }
  return out
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

const withBase = (rendered: string, base: ReferenceBase | undefined) => !base ? rendered
  : rendered.replaceAll(`href="${BASE}`, `href="${base.baseUrl.replace(/[&<>"]/g, (c) => ATTRIBUTE_ESCAPES[c])}`)

/**
 * A stored text (description, note, wiki page, README) as sanitised HTML: raw HTML in the source is escaped, links keep
 * markdown-it's safe-URL check. Rendered once and kept; references are links made from the text alone (no lookup of
 * the issue or user they name), so a kept render never goes stale and only a changed text renders again.
 */
export async function renderMarkdown(app: Pick<AppDeps, 'db'>, source: string, base?: ReferenceBase): Promise<string> {
  return withBase(await renderOnce(app, source, base, true), base)
}

/** Text that is not stored (POST /markdown's preview): rendered under the same limit, not kept beyond small texts. */
export async function previewMarkdown(app: Pick<AppDeps, 'db'>, source: string, base?: ReferenceBase): Promise<string> {
  return withBase(await renderOnce(app, source, base, false), base)
}
