// The one markdown renderer of collab (wiki render_html and the web pages): markdown-it with raw HTML off, so any
// markup a user writes stays text, plus GitLab's task lists and, when a project is given, references as links.
import type { default as MarkdownIt, StateCore, Token } from 'markdown-it'

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
      else out.push(...linkReferences(state, t.content, base))
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

// Rendered texts by source and reference base, as GitLab keeps cached_markdown_fields: a page shows the same
// description and notes on every read. Bounded, oldest out first; long texts are not kept.
const CACHE_ENTRIES = 500
const CACHE_MAX_SOURCE = 8 * 1024
const rendered = new Map<string, string>()

/** Markdown as sanitised HTML: raw HTML in the source is escaped, links keep markdown-it's safe-URL check. */
export async function renderMarkdown(source: string, base?: ReferenceBase): Promise<string> {
  const key = source.length <= CACHE_MAX_SOURCE ? `${base?.baseUrl ?? ''}\0${base?.projectPath ?? ''}\0${source}` : null
  const hit = key === null ? undefined : rendered.get(key)
  if (hit !== undefined) return hit
  const out = (await markdownIt()).render(source, base ?? {})
  if (key !== null) {
    if (rendered.size >= CACHE_ENTRIES) rendered.delete(rendered.keys().next().value!)
    rendered.set(key, out)
  }
  return out
}
