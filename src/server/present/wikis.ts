// Wiki pages as api-v4.md gives them: {format, slug, title} in lists, with `content` when asked for or read alone.
import type { WikiPage } from '../../contract/entities/wikis.js'
import type { WikiPageView } from '../services/wikis/wikis.js'

export function presentWikiPage(page: WikiPageView): WikiPage | Omit<WikiPage, 'content'> {
  // Two literals rather than a spread: a spread into a larger literal is slow on Node 20 (see present/projects.ts).
  return page.content === undefined
    ? { format: page.format, slug: page.slug, title: page.title }
    : { format: page.format, slug: page.slug, title: page.title, content: page.content }
}
