// GitLab's offset pagination: page/per_page normalisation, X-* headers and a Link header built on the request's own URL.
export const DEFAULT_PER_PAGE = 20
export const MAX_PER_PAGE = 100
const MAX_PAGE = 2 ** 31

export function normalizePage(page: unknown, perPage: unknown) {
  const p = typeof page === 'number' && page >= 1 ? Math.min(page, MAX_PAGE) : 1
  const pp = typeof perPage === 'number' && perPage >= 1 ? Math.min(perPage, MAX_PER_PAGE) : DEFAULT_PER_PAGE
  return { page: p, perPage: pp, limit: pp, offset: (p - 1) * pp }
}

/**
 * The X-* headers and Link of one page. Without `total` the list was paged without counting it, as GitLab pages
 * commits (`without_count`): the next page is known from the page itself, and X-Total, X-Total-Pages and the `last`
 * link are left out.
 */
export function paginationHeaders(opts: { baseUrl: string; path: string; search: string; page: number; perPage: number; total?: number; hasNextPage?: boolean }) {
  const { page, perPage, total } = opts
  const totalPages = total === undefined ? null : Math.max(1, Math.ceil(total / perPage))
  const next = totalPages === null ? (opts.hasNextPage ? page + 1 : null) : page < totalPages ? page + 1 : null
  const prev = page > 1 ? Math.min(page - 1, totalPages ?? page) : null
  const link = (n: number) => {
    const q = new URLSearchParams(opts.search)
    q.set('page', String(n))
    q.set('per_page', String(perPage))
    return `<${opts.baseUrl}${opts.path}?${q.toString()}>`
  }
  const links: string[] = []
  if (prev !== null) links.push(`${link(prev)}; rel="prev"`)
  if (next !== null) links.push(`${link(next)}; rel="next"`)
  links.push(`${link(1)}; rel="first"`)
  if (totalPages !== null) links.push(`${link(totalPages)}; rel="last"`)
  const headers: Record<string, string> = {
    'X-Page': String(page),
    'X-Per-Page': String(perPage),
    'X-Next-Page': next === null ? '' : String(next),
    'X-Prev-Page': prev === null ? '' : String(prev),
  }
  if (totalPages !== null) Object.assign(headers, { 'X-Total': String(total), 'X-Total-Pages': String(totalPages) })
  headers.Link = links.join(', ')
  return headers
}
