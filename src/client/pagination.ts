// Link-header pagination (GitLab offset and keyset both answer `<url>; rel="next"`) and joining pages into one array.

/** The `rel="next"` URL of a Link header; tolerant of spacing like glab's `<…>;\s*rel="…"`. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined
  for (const match of header.matchAll(/<([^>]*)>\s*;\s*rel="?([^",;]+)"?/g)) {
    if (match[2].split(/\s+/).includes('next')) return match[1]
  }
  return undefined
}

/**
 * Joins raw JSON array bodies into one array without re-serialising, so `--json --all`
 * prints the server's bytes for every item. A single page is returned untouched.
 */
export function joinJsonArrays(pages: string[]): string {
  if (pages.length === 1) return pages[0]
  const inner: string[] = []
  for (const page of pages) {
    const text = page.trim()
    if (!text.startsWith('[') || !text.endsWith(']')) throw new Error('a paginated response was not a JSON array')
    const items = text.slice(1, -1).trim()
    if (items) inner.push(items)
  }
  return `[${inner.join(',')}]`
}
