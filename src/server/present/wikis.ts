// Wiki pages as api-v4.md gives them: {format, slug, title} in lists, with `content` when asked for or read alone.
import type { WikiPage } from '../../contract/entities/wikis.js'
import type { AppDeps } from '../context.js'
import { renderMarkdown } from '../services/markdown.js'
import type { WikiPageView } from '../services/wikis.js'

// Raw HTML stays text (the shared renderer has it off), as a page is written by any Developer and read by every Guest.
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `render_html`: markdown through markdown-it; the other formats, which have no renderer here, as preformatted text. */
export async function renderWikiHtml(app: Pick<AppDeps, 'db'>, format: string, content: string): Promise<string> {
  if (format !== 'markdown') return `<pre>${escapeHtml(content)}</pre>`
  return renderMarkdown(app, content)
}

export function presentWikiPage(page: WikiPageView): WikiPage | Omit<WikiPage, 'content'> {
  const base = { format: page.format, slug: page.slug, title: page.title }
  return page.content === undefined ? base : { ...base, content: page.content }
}

/** The single page read: with `render_html`, its content as HTML. */
export async function presentWikiPageRead(app: Pick<AppDeps, 'db'>, page: WikiPageView & { content: string }, renderHtml?: boolean): Promise<WikiPage> {
  return { format: page.format, slug: page.slug, title: page.title, content: renderHtml ? await renderWikiHtml(app, page.format, page.content) : page.content }
}
