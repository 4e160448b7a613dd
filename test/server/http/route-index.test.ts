// The route index finds exactly what trouter's linear search finds, for every route of the contract.
import polka from 'polka'
import { describe, expect, it } from 'vitest'
import { contract } from '../../../src/contract/index.js'
import { API_PREFIX } from '../../../src/server/http/mount.js'
import { indexRoutes } from '../../../src/server/http/route-index.js'

const endpoints = Object.values(contract).flatMap((group) => Object.values(group))

type Method = Parameters<ReturnType<typeof polka>['find']>[0]
/** A handler that says which route it belongs to. */
const tag = (label: string) => Object.assign(() => {}, { label })
const labels = (handlers: unknown[]) => handlers.map((h) => (h as { label: string }).label)

function buildRouter() {
  const router = polka()
  // The shapes the app adds besides the contract: a RegExp route with named groups and short static paths.
  router.get(/^\/(?!api\/)(?<repo>.+?)\/(?<action>info\/refs)$/, tag('git'))
  router.post('/oauth/token', tag('oauth'))
  for (const e of endpoints) router.add(e.method, API_PREFIX + e.path, tag(`${e.method} ${e.path}`))
  return router
}

/** A concrete path for a route: each `:param` filled in, so the route (and maybe others) match it. */
const concrete = (path: string, fill: string) => API_PREFIX + path.replace(/:[a-z_]+/g, fill)

describe('the route index', () => {
  // polka's own find: trouter's test of every pattern in turn.
  const linear = buildRouter()
  const indexed = buildRouter()
  indexRoutes(indexed)
  const same = (method: string, path: string) => {
    const want = linear.find(method as Method, path)
    const got = indexed.find(method as Method, path)
    expect({ method, path, params: got.params, handlers: labels(got.handlers) })
      .toEqual({ method, path, params: want.params, handlers: labels(want.handlers) })
    return got
  }

  it('matches every endpoint, with the same params and handler order as the linear search', () => {
    for (const e of endpoints) {
      for (const fill of ['1', 'group%2Fproject', 'members', 'all']) {
        const found = same(e.method, concrete(e.path, fill))
        if (fill === '1') expect(found.handlers.length, `${e.method} ${e.path}`).toBeGreaterThan(0)
      }
    }
  })

  it('agrees for HEAD, other case, trailing slashes, unknown paths and the routes outside /api/v4', () => {
    const paths = [
      '/API/V4/Projects/1', '/api/v4/projects/', '/api/v4/projects/1/', '/api/v4', '/api/v4/', '/api', '/', '',
      '/api/v4/nothing/here', '/api/v4/projectsX/1', '/group/project.git/info/refs', '/api/v4/x/info/refs', '/oauth/token',
      '/oauth/token/', '/api/v4/projects/1/repository/files/a%2Fb.txt/raw',
    ]
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) for (const p of paths) same(method, p)
  })
})
