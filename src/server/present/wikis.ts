// Wiki pages as api-v4.md gives them: {format, slug, title} in lists, with `content` when asked for or read alone.
import type MarkdownIt from 'markdown-it'
import type { WikiPage } from '../../contract/entities/wikis.js'
import type { WikiPageView } from '../services/wikis.js'

// Loaded on the first render_html, not at server start; raw HTML stays text, as a page is written by any Developer
// and read by every Guest.
let markdown: Promise<MarkdownIt> | null = null
const markdownIt = () => (markdown ??= import('markdown-it').then(({ default: Md }) => new Md({ html: false, linkify: true })))

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `render_html`: markdown through markdown-it; the other formats, which have no renderer here, as preformatted text. */
export async function renderWikiHtml(format: string, content: string): Promise<string> {
  if (format !== 'markdown') return `<pre>${escapeHtml(content)}</pre>`
  return (await markdownIt()).render(content)
}

export function presentWikiPage(page: WikiPageView): WikiPage | Omit<WikiPage, 'content'> {
  const base = { format: page.format, slug: page.slug, title: page.title }
  return page.content === undefined ? base : { ...base, content: page.content }
}

/** The single page read: with `render_html`, its content as HTML. */
export async function presentWikiPageRead(page: WikiPageView & { content: string }, renderHtml?: boolean): Promise<WikiPage> {
  return { format: page.format, slug: page.slug, title: page.title, content: renderHtml ? await renderWikiHtml(page.format, page.content) : page.content }
}
