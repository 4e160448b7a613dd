// The router's groups of routes (one tree per group of routes agreeing on their first segments, built on first use)
// find, for every path, the route and params one find-my-way tree of all the routes finds: compared path by path.
import FindMyWay from 'find-my-way'
import { describe, expect, it } from 'vitest'
import { contract } from '../../../src/contract/index.js'
import { API_PREFIX } from '../../../src/server/http/mount.js'
import { Router, type RouteHandler, type RouteMethod } from '../../../src/server/http/router.js'

const METHODS: readonly RouteMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** The contract's tree routes, the app's other string routes, and shapes that make a lookup backtrack across groups. */
const ROUTES: [RouteMethod, string][] = [
  ...Object.values(contract).flatMap((group) => Object.values(group))
    .filter((e) => !e.greedy?.length)
    .map((e): [RouteMethod, string] => [e.method, API_PREFIX + e.path]),
  ['POST', '/oauth/token'], ['GET', '/-/collab/:file'], ['GET', '/'], ['GET', '/users/sign_in'], ['GET', '/projects/new'],
  ['POST', '/projects'], ['POST', '/users/sign_out'], ['GET', '/-/project/:id/uploads/:secret/:filename'],
  ['GET', '/uploads/-/system/user/avatar/:id/:filename'],
  ['GET', '/a/b/:x'], ['GET', '/a/:y/c/d'], ['GET', '/:z/b/c'], ['GET', '/a/file.:ext'], ['GET', '/a/b/c/*'],
  ['GET', '/a/:y'], ['PUT', '/:z'], ['GET', '/x/y/z/w'], ['GET', '/x/:y/z/w'], ['GET', '/x/y/:z/w'],
  ['GET', '/p/:id/q/*'], ['GET', '/p/:id/:k/r'], ['GET', '/p/:id/q/r/s/t'], ['GET', '/p/:id/q/r/:s/u'], ['GET', '/p/all/q'],
  ['GET', '/p/:id/q/file.:ext'], ['GET', '/p/a+b/q'],
]

const strayPercent = /%(?![0-9a-fA-F]{2})/g

/** What the router did before its groups: one tree, asked again with stray `%` escaped, an empty param refused. */
function oneTree() {
  const tree = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 65_536 })
  for (const [method, path] of ROUTES) tree.on(method, path, () => {}, `${method} ${path}`)
  return (method: RouteMethod, path: string) => {
    const found = tree.find(method, path) ?? (path.includes('%') ? tree.find(method, path.replace(strayPercent, '%25')) : null)
    if (!found || Object.values(found.params).some((v) => v === '')) return null
    return { route: found.store as string, params: { ...found.params } }
  }
}

function grouped() {
  const router = new Router({ onNoMatch: () => {}, onError: () => {} })
  for (const [method, path] of ROUTES) router.add(method, path, Object.assign(() => {}, { label: `${method} ${path}` }) as RouteHandler)
  return (method: RouteMethod, path: string) => {
    const match = router.find(method, path)
    return match && { route: (match.handler as unknown as { label: string }).label, params: { ...match.params } }
  }
}

/** Each route filled in several ways, then changed: case, slashes, escapes, cut short and carried on. */
function paths(): string[] {
  const fills = ['1', 'a%2Fb', 'b', 'q', 'file.json', 'x%zz', '%61ll', 'a%2Bb', '%C3%A9', '%E9', '%E9%2F']
  const out = new Set<string>(['', '/', '//', '/api', '/api/v4', '/api/v4/', '/API/V4/PROJECTS', '/%61pi/v4/version', '/api/%764/version',
    '/api/v4/projects/1#/issues', '/api/v4/projects/1/issues#x', '/api/v4/projects#1', '/api/v4/projects/1?/issues', '/api/v4/projects/#', '/p/a%2Bb/q', '/p/a+b/q', '/p/%41LL/q', '/p/x/q/r/s/t/u', '/p/x/q/'])
  for (const [, route] of ROUTES) {
    for (let i = 0; i < 3; i++) {
      const path = route.replace(/:\w+|\*/g, (_, at: number) => fills[(i + at) % fills.length])
      const segments = path.split('/')
      for (const variant of [path, path.toUpperCase(), `${path}/`, `${path}//`, `${path}/more`, path.replace('/', '//'), path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`)]) out.add(variant)
      for (let n = 1; n < segments.length; n++) out.add(segments.slice(0, n).join('/') || '/')
    }
  }
  return [...out]
}

describe('the router’s groups of routes', () => {
  const expected = oneTree()
  const actual = grouped()
  const all = paths()

  it('find the route and params one tree of every route finds, for every path and method', () => {
    let matched = 0
    const differing: string[] = []
    for (const path of all) {
      for (const method of METHODS) {
        const want = expected(method, path)
        if (want) matched++
        const got = actual(method, path)
        if (JSON.stringify(got) !== JSON.stringify(want)) differing.push(`${method} ${path}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`)
      }
    }
    expect(differing).toEqual([])
    // The paths reach most routes, so a group that lost its routes could not pass unseen.
    expect(matched).toBeGreaterThan(ROUTES.length)
  })

  it('refuse a route they cannot place in a group', () => {
    const router = new Router({ onNoMatch: () => {}, onError: () => {} })
    for (const path of ['/a/:b?', '/a::b', '/a/b*', '/a/%41']) expect(() => router.get(path, () => {}), path).toThrow('are not supported')
  })

  it('take a route added after a lookup built its group', () => {
    const router = new Router({ onNoMatch: () => {}, onError: () => {} })
    router.get('/api/v4/projects/:id', () => {})
    expect(router.find('GET', '/api/v4/projects/1/issues')).toBeNull()
    router.get('/api/v4/projects/:id/issues', () => {})
    expect(router.find('GET', '/api/v4/projects/1/issues')?.params).toEqual({ id: '1' })
  })
})
