// Completion values for a `<slug>` argument: the project's wiki pages, slug and title.
import type { Candidate, ValueSource } from '../complete.js'

export const wikiSlugCandidates: ValueSource = (context) => context.cached('wiki-pages', async (api, ref) => {
  const { route } = await import('../../src/client/paths.js')
  const pages = await api.list(route('listWikiPages', { id: ref }))
  return pages.items.map((p): Candidate => [p.slug, p.title])
})
