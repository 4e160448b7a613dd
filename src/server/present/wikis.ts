// Wiki pages as api-v4.md gives them: {format, slug, title} in lists, with `content` when asked for or read alone.
import type { WikiPage } from '../../contract/entities/wikis.js'
import type { WikiPageView } from '../services/wikis/wikis.js'

export function presentWikiPage(page: WikiPageView): WikiPage | Omit<WikiPage, 'content'> {
  const base = { format: page.format, slug: page.slug, title: page.title }
  return page.content === undefined ? base : { ...base, content: page.content }
}
