// Wiki pages as api-v4.md gives them: {format, slug, title} in lists, with `content` when asked for or read alone.
import MarkdownIt from 'markdown-it'
import type { WikiPage } from '../../contract/entities/wikis.js'
import type { WikiPageView } from '../services/wikis.js'

// Raw HTML stays text: a page is written by any Developer and read by every Guest.
let markdown: MarkdownIt | null = null

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `render_html`: markdown through markdown-it; the other formats, which have no renderer here, as preformatted text. */
export function renderWikiHtml(format: string, content: string): string {
  if (format !== 'markdown') return `<pre>${escapeHtml(content)}</pre>`
  markdown ??= new MarkdownIt({ html: false, linkify: true })
  return markdown.render(content)
}

export function presentWikiPage(page: WikiPageView, opts: { renderHtml?: boolean } = {}): WikiPage | Omit<WikiPage, 'content'> {
  const base = { format: page.format, slug: page.slug, title: page.title }
  if (page.content === undefined) return base
  return { ...base, content: opts.renderHtml ? renderWikiHtml(page.format, page.content) : page.content }
}
