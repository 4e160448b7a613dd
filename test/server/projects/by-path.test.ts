// Projects named by path (`GET /projects/alice%2Fdemo`): found case-insensitively through indexes, never by a scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProjectByPath, PROJECT_BY_PATH_SQL, updateProject } from '../../../src/server/store/projects.js'
import { findNamespaceByPath } from '../../../src/server/store/namespaces.js'
import { api, createGroup, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

const byPath = async (path: string) => {
  const res = await alice.api.get(`/projects/${encodeURIComponent(path)}`)
  return [res.status, res.body.id ?? res.body.message]
}

describe('GET /projects/:id with a full path', () => {
  it('finds a personal project and a project of a subgroup, in any letter case', async () => {
    const own = await createProject(alice.api, { name: 'Demo', path: 'demo' })
    const group = await createGroup(alice.api, { name: 'Team', path: 'Team' })
    const sub = await createGroup(alice.api, { name: 'Web', path: 'web', parent_id: group.id })
    const deep = await createProject(alice.api, { name: 'Site', path: 'Site', namespace_id: sub.id })
    expect(await byPath('alice/demo')).toEqual([200, own.id])
    expect(await byPath('ALICE/Demo')).toEqual([200, own.id])
    expect(await byPath('Team/web/Site')).toEqual([200, deep.id])
    expect(await byPath('team/WEB/site')).toEqual([200, deep.id])
    expect(await byPath('team/site')).toEqual([404, '404 Project Not Found'])
    expect(await byPath('alice/demo/')).toEqual([404, '404 Project Not Found'])
    expect(await byPath('demo')).toEqual([404, '404 Project Not Found'])
  })

  it('follows a rename: the new path answers, the old one no longer does', async () => {
    const p = await createProject(alice.api, { name: 'Before', path: 'before' })
    expectStatus(await alice.api.put(`/projects/${p.id}`, { path: 'after', name: 'After' }), 200)
    expect(await byPath('alice/after')).toEqual([200, p.id])
    expect(await byPath('alice/AFTER')).toEqual([200, p.id])
    expect(await byPath('alice/before')).toEqual([404, '404 Project Not Found'])
  })

  it('follows a move to another namespace', async () => {
    const p = await createProject(alice.api, { name: 'Mover', path: 'mover' })
    const target = await createGroup(alice.api, { name: 'Dest', path: 'dest' })
    updateProject(server.app.db, p.id, { namespace_id: findNamespaceByPath(server.app.db, 'dest')!.id })
    expect(findProjectByPath(server.app.db, 'DEST/Mover')?.id).toBe(p.id)
    expect(await byPath('dest/mover')).toEqual([200, p.id])
    expect(await byPath('alice/mover')).toEqual([404, '404 Project Not Found'])
    expect(target.full_path).toBe('dest')
  })

  it('looks the namespace and the project up through indexes, scanning no table', () => {
    const plan = server.app.db.prepare(`EXPLAIN QUERY PLAN ${PROJECT_BY_PATH_SQL}`).all({ namespace: 'alice', path: 'demo' }) as { detail: string }[]
    const steps = plan.map((r) => r.detail)
    expect(steps.filter((d) => /^SCAN /.test(d))).toEqual([])
    expect(steps).toContain('SEARCH p USING INDEX projects_path (namespace_id=? AND path=?)')
    expect(steps.some((d) => /^SEARCH n USING INDEX sqlite_autoindex_namespaces_\d+ \(full_path=\?\)$/.test(d))).toBe(true)
  })
})

describe('anonymous callers', () => {
  it('find a public project by path in any case and a private one not at all', async () => {
    const pub = await createProject(alice.api, { name: 'Open', path: 'open', visibility: 'public' })
    await createProject(alice.api, { name: 'Closed', path: 'closed' })
    expect((await api(server).get(`/projects/${encodeURIComponent('Alice/OPEN')}`)).body.id).toBe(pub.id)
    expect((await api(server).get(`/projects/${encodeURIComponent('alice/closed')}`)).status).toBe(404)
  })
})
