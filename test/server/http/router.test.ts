// The router: every contract endpoint found with decoded params, static segments before params, HEAD by GET, 404/405.
import { describe, expect, it } from 'vitest'
import { contract } from '../../../src/contract/index.js'
import { API_PREFIX } from '../../../src/server/http/mount.js'
import { Router, type RouteMethod } from '../../../src/server/http/router.js'

const endpoints = Object.values(contract).flatMap((group) => Object.values(group))

/** A handler that says which route it belongs to. */
const tag = (label: string) => Object.assign(() => {}, { label })

function buildRouter() {
  const router = new Router({ onNoMatch: () => {}, onError: () => {} })
  // The shapes the app adds besides the contract: a RegExp route with named groups and short static paths.
  router.get(/^\/(?!api\/)(?<repo>.+?)\/(?<action>info\/refs)$/, tag('git'))
  router.post('/oauth/token', tag('oauth'))
  for (const e of endpoints) router.add(e.method, API_PREFIX + e.path, tag(`${e.method} ${e.path}`))
  return router
}

const router = buildRouter()
const found = (method: string, path: string) => {
  const match = router.find(method, path)
  return match && { route: (match.handler as unknown as { label: string }).label, params: match.params }
}

describe('the router', () => {
  it('finds every endpoint at its own path, with each param URL-decoded', () => {
    for (const e of endpoints) {
      const names: string[] = e.path.match(/:[a-z_]+/g) ?? []
      const path = API_PREFIX + e.path.replace(/:[a-z_]+/g, (name: string) => `v${names.indexOf(name)}%2Fx`)
      const params = Object.fromEntries(names.map((name, i) => [name.slice(1), `v${i}/x`]))
      expect(found(e.method, path), `${e.method} ${e.path}`).toEqual({ route: `${e.method} ${e.path}`, params })
    }
  })

  it('prefers static segments to params', () => {
    expect(found('GET', '/api/v4/projects/1/members/all')).toEqual({ route: 'GET /projects/:id/members/all', params: { id: '1' } })
    expect(found('GET', '/api/v4/projects/1/members/7')).toEqual({ route: 'GET /projects/:id/members/:user_id', params: { id: '1', user_id: '7' } })
  })

  it('ignores case and a trailing slash in the route, never in the params', () => {
    expect(found('GET', '/API/V4/Projects/Group%2FProject/')).toEqual({ route: 'GET /projects/:id', params: { id: 'Group/Project' } })
  })

  it('answers HEAD with the GET route', () => {
    expect(found('HEAD', '/api/v4/projects/1')).toEqual({ route: 'GET /projects/:id', params: { id: '1' } })
  })

  it('keeps a broken percent-escape literally and finds nothing for an empty segment', () => {
    expect(found('GET', '/api/v4/projects/alice%2')).toEqual({ route: 'GET /projects/:id', params: { id: 'alice%2' } })
    expect(found('GET', '/api/v4/projects//issues')).toBeNull()
    expect(found('GET', '/api/v4/projects/')).toEqual({ route: 'GET /projects', params: {} })
  })

  it('finds pattern routes by their named groups, only for their method', () => {
    expect(found('GET', '/group/sub/project.git/info/refs')).toEqual({ route: 'git', params: { repo: 'group/sub/project.git', action: 'info/refs' } })
    expect(found('GET', '/group/my%20project.git/info/refs')).toEqual({ route: 'git', params: { repo: 'group/my project.git', action: 'info/refs' } })
    expect(found('POST', '/group/project.git/info/refs')).toBeNull()
    expect(found('GET', '/api/v4/x/info/refs')).toBeNull()
  })

  it('finds nothing for unknown paths and methods, and lists the methods a known path allows', () => {
    for (const path of ['/api/v4/nothing/here', '/api/v4/projectsX/1', '/api/v4', '/', '']) expect(found('GET', path), path).toBeNull()
    expect(found('OPTIONS', '/api/v4/projects')).toBeNull()
    expect(router.allowed('/api/v4/projects/1')).toEqual<RouteMethod[]>(['GET', 'PUT', 'DELETE'])
    expect(router.allowed('/oauth/token')).toEqual<RouteMethod[]>(['POST'])
    expect(router.allowed('/group/project.git/info/refs')).toEqual<RouteMethod[]>(['GET'])
    expect(router.allowed('/api/v4/nope')).toEqual([])
  })
})
