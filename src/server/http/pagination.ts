// GitLab's offset pagination: page/per_page normalisation, X-* headers and a Link header built on the request's own URL.
export const DEFAULT_PER_PAGE = 20
export const MAX_PER_PAGE = 100
const MAX_PAGE = 2 ** 31

export function normalizePage(page: unknown, perPage: unknown) {
  const p = typeof page === 'number' && page >= 1 ? Math.min(page, MAX_PAGE) : 1
  const pp = typeof perPage === 'number' && perPage >= 1 ? Math.min(perPage, MAX_PER_PAGE) : DEFAULT_PER_PAGE
  return { page: p, perPage: pp, limit: pp, offset: (p - 1) * pp }
}

export function paginationHeaders(opts: { baseUrl: string; path: string; search: string; page: number; perPage: number; total: number }) {
  const { page, perPage, total } = opts
  const totalPages = Math.max(1, Math.ceil(total / perPage))
  const next = page < totalPages ? page + 1 : null
  const prev = page > 1 ? Math.min(page - 1, totalPages) : null
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
  links.push(`${link(totalPages)}; rel="last"`)
  return {
    'X-Page': String(page),
    'X-Per-Page': String(perPage),
    'X-Next-Page': next === null ? '' : String(next),
    'X-Prev-Page': prev === null ? '' : String(prev),
    'X-Total': String(total),
    'X-Total-Pages': String(totalPages),
    Link: links.join(', '),
  }
}
