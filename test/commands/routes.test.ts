// The CLI's paths come from the contract: one name per endpoint, every path param declared, params encoded as GitLab wants.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { route } from '../../src/client/paths.js'
import { contract } from '../../src/contract/index.js'
import { ROUTES } from '../../src/contract/routes.js'

const endpoints = Object.entries(contract).flatMap(([group, endpoints]) => Object.entries(endpoints).map(([name, e]) => ({ group, name, e })))

describe('the route table', () => {
  it('names every endpoint once across the groups, with its method and path', () => {
    const names = endpoints.map(({ name }) => name)
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([])
    expect(ROUTES).toEqual(Object.fromEntries(endpoints.map(({ name, e }) => [name, { method: e.method, path: e.path }])))
  })

  it('declares every param of every path, so route() fills them all', () => {
    for (const { name, e } of endpoints) {
      const inPath = (e.path.match(/:\w+/g) ?? []).map((p: string) => p.slice(1)).sort()
      expect({ name, params: inPath }).toEqual({ name, params: Object.keys(e.params ?? {}).sort() })
    }
  })
})

describe('the built CLI', () => {
  it('carries the table as a value: neither zod nor the declarations load when a command starts', () => {
    const bundle = readFileSync(new URL('../../dist/cli.cjs', import.meta.url), 'utf8')
    expect(bundle).not.toMatch(/require\("zod"\)/)
    expect(bundle).not.toMatch(/defineEndpoint/)
    expect(bundle).toContain('"listProjectIssues": { "method": "GET", "path": "/projects/:id/issues" }')
  })
})

describe('route()', () => {
  it('fills the params URL-encoded: a path with slashes stays one segment', () => {
    expect(route('getFile', { id: 'group/sub/project', file_path: 'dir/a b#1.txt' }))
      .toEqual({ method: 'GET', path: '/projects/group%2Fsub%2Fproject/repository/files/dir%2Fa%20b%231.txt' })
    expect(route('editIssueNote', { id: 42, issue_iid: 7, note_id: 9 })).toEqual({ method: 'PUT', path: '/projects/42/issues/7/notes/9' })
    expect(route('listIssues', {})).toEqual({ method: 'GET', path: '/issues' })
  })
})
