// Offset pagination: X-* headers always present, Link with prev/next/first/last keeping every filter, per_page clamped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, createUser, rawRequest, request, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
  for (let i = 1; i <= 7; i++) await createProject(alice.api, { name: `Item ${i}`, visibility: 'public' })
  await createProject(alice.api, { name: 'Private Item' })
})
afterAll(() => server.close())

const headersOf = (res: { headers: Headers }) =>
  Object.fromEntries(['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages'].map((h) => [h, res.headers.get(h)]))

/** A URL with its query parameters sorted, so links compare by content rather than parameter order. */
function normalized(u: string): string {
  const parsed = new URL(u)
  parsed.searchParams.sort()
  return parsed.toString()
}

/**
 * The Link header as [rel, url] pairs, in order. Each entry must be exactly `<url>; rel="x"` and entries are
 * joined by `, `: gitbeaker's parser expects one space after `;` and a quoted rel.
 */
function links(res: { headers: Headers }): [string, string][] {
  const header = res.headers.get('link') ?? ''
  return header.split(', ').map((part) => {
    const m = part.match(/^<([^>]+)>; rel="(prev|next|first|last)"$/)
    if (!m) throw new Error(`malformed Link entry: ${part}`)
    return [m[2], normalized(m[1])]
  })
}

const FILTERS = 'visibility=public&order_by=id&sort=asc&search=item'
const url = (page: number, perPage = 3) => normalized(`${server.api}/projects?${FILTERS}&page=${page}&per_page=${perPage}`)

describe('a paginated list', () => {
  it('answers the first page with next, first and last links keeping every filter', async () => {
    const res = await api(server).get('/projects', { query: `${FILTERS}&per_page=3` })
    expect(res.body.map((p: any) => p.name)).toEqual(['Item 1', 'Item 2', 'Item 3'])
    expect(headersOf(res)).toEqual({ 'x-page': '1', 'x-per-page': '3', 'x-next-page': '2', 'x-prev-page': '', 'x-total': '7', 'x-total-pages': '3' })
    expect(links(res)).toEqual([['next', url(2)], ['first', url(1)], ['last', url(3)]])
  })

  it('answers a middle page with prev, next, first and last', async () => {
    const res = await api(server).get('/projects', { query: `${FILTERS}&per_page=3&page=2` })
    expect(res.body.map((p: any) => p.name)).toEqual(['Item 4', 'Item 5', 'Item 6'])
    expect(headersOf(res)).toEqual({ 'x-page': '2', 'x-per-page': '3', 'x-next-page': '3', 'x-prev-page': '1', 'x-total': '7', 'x-total-pages': '3' })
    expect(links(res)).toEqual([['prev', url(1)], ['next', url(3)], ['first', url(1)], ['last', url(3)]])
  })

  it('answers the last page without next and with an empty X-Next-Page', async () => {
    const res = await api(server).get('/projects', { query: `${FILTERS}&per_page=3&page=3` })
    expect(res.body.map((p: any) => p.name)).toEqual(['Item 7'])
    expect(headersOf(res)).toMatchObject({ 'x-page': '3', 'x-next-page': '', 'x-prev-page': '2' })
    expect(links(res).map(([rel]) => rel)).toEqual(['prev', 'first', 'last'])
  })

  it('walks every item exactly once by following rel="next"', async () => {
    const seen: string[] = []
    let next: string | undefined = `/api/v4/projects?${FILTERS}&per_page=2`
    while (next) {
      const res = await request(server, 'GET', next)
      seen.push(...res.body.map((p: any) => p.name))
      const link = links(res).find(([rel]) => rel === 'next')?.[1]
      next = link && link.slice(server.url.length)
    }
    expect(seen).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5', 'Item 6', 'Item 7'])
  })

  it('answers an empty single page with X-Total 0 and X-Total-Pages 1', async () => {
    const res = await api(server).get('/projects', { query: 'search=nothing-matches' })
    expect(res.body).toEqual([])
    expect(headersOf(res)).toEqual({ 'x-page': '1', 'x-per-page': '20', 'x-next-page': '', 'x-prev-page': '', 'x-total': '0', 'x-total-pages': '1' })
    expect(links(res).map(([rel]) => rel)).toEqual(['first', 'last'])
  })

  it('answers [] past the end, with the same set of headers', async () => {
    const res = await api(server).get('/projects', { query: `${FILTERS}&per_page=3&page=9` })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
    // The previous page points back to the real last page, so a client can step back into range.
    expect(headersOf(res)).toEqual({ 'x-page': '9', 'x-per-page': '3', 'x-next-page': '', 'x-prev-page': '3', 'x-total': '7', 'x-total-pages': '3' })
    expect(links(res).map(([rel]) => rel)).toEqual(['prev', 'first', 'last'])
  })

  it('counts only what the caller may see', async () => {
    expect((await api(server).get('/projects')).headers.get('x-total')).toBe('7')
    expect((await alice.api.get('/projects')).headers.get('x-total')).toBe('8')
  })

  it('defaults to 20 per page', async () => {
    expect(headersOf(await alice.api.get('/projects'))['x-per-page']).toBe('20')
  })
})

describe('page and per_page bounds', () => {
  it('clamps per_page to 100', async () => {
    const res = await api(server).get('/projects', { query: 'per_page=1000' })
    expect(res.headers.get('x-per-page')).toBe('100')
    expect(links(res)[0][1]).toContain('per_page=100')
  })

  it.each(['0', '-5'])('falls back to 20 per page for per_page=%s', async (perPage) => {
    const res = await api(server).get('/projects', { query: { per_page: perPage } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-per-page')).toBe('20')
  })

  it.each(['0', '-3'])('treats page=%s as the first page', async (page) => {
    const res = await api(server).get('/projects', { query: { page, per_page: 3, order_by: 'id', sort: 'asc' } })
    expect(res.headers.get('x-page')).toBe('1')
    expect(res.body.map((p: any) => p.name)).toEqual(['Item 1', 'Item 2', 'Item 3'])
  })

  it('answers [] for a huge page', async () => {
    const res = await api(server).get('/projects', { query: { page: '9007199254740991' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
    expect(res.headers.get('x-total')).toBe('7')
  })

  it('answers 400 is invalid for a page that is not an integer', async () => {
    for (const query of ['page=abc', 'page=1.5', 'per_page=ten', 'page[]=1', 'page=1e400']) {
      const res = await api(server).get('/projects', { query })
      expect([query, res.status]).toEqual([query, 400])
      expect(res.body.message).toEqual(expect.objectContaining(query.startsWith('per_page') ? { per_page: ['is invalid'] } : { page: ['is invalid'] }))
    }
  })
})

describe('URLs built from the request', () => {
  it('uses the Host the client addressed, and X-Forwarded-Proto from a trusted proxy', async () => {
    server.app.trustedProxies = ['127.0.0.1']
    const res = await rawRequest(server, { path: '/api/v4/projects?per_page=5', headers: { Host: 'git.example.test:8443', 'X-Forwarded-Proto': 'https' } })
    server.app.trustedProxies = []
    expect(links(res).map(([, u]) => u)).toEqual([
      'https://git.example.test:8443/api/v4/projects?page=2&per_page=5',
      'https://git.example.test:8443/api/v4/projects?page=1&per_page=5',
      'https://git.example.test:8443/api/v4/projects?page=2&per_page=5',
    ])
    expect(res.body[0].web_url).toMatch(/^https:\/\/git\.example\.test:8443\/alice\/item-\d$/)
    expect(res.body[0].ssh_url_to_repo).toMatch(/^git@git\.example\.test:alice\/item-\d\.git$/)
  })

  it('keeps array filters in their name[]= form', async () => {
    const res = await api(server).get('/projects', { query: 'topic[]=a&per_page=1' })
    expect(links(res)).toContainEqual(['first', `${server.api}/projects?page=1&per_page=1&topic%5B%5D=a`])
  })
})

describe('other paginated lists', () => {
  it.each([
    ['/users'], ['/groups'], ['/namespaces'], ['/personal_access_tokens'],
  ])('sends the pagination headers on %s', async (path) => {
    const res = await alice.api.get(path, { query: { per_page: 1 } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-per-page')).toBe('1')
    expect(res.headers.get('x-total')).toMatch(/^\d+$/)
    expect(links(res).map(([rel]) => rel)).toContain('first')
  })
})
