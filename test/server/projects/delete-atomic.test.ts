// DELETE /projects/:id removes the repository only once the database change is committed: a failed commit keeps both.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { committed } from '../../../src/server/store/db.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
const repoDir = (id: number) => join(server.dataDir, 'repositories', `${id}.git`)

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

/**
 * Makes the COMMIT of the project's deletion fail: a row pins the project through a deferred foreign key without an
 * ON DELETE action, so the DELETE statement passes and the COMMIT that would save it is refused.
 */
async function failCommitOfDelete(projectId: number) {
  const db = server.app.db
  await committed(db)
  db.exec('CREATE TABLE IF NOT EXISTS test_pins (project_id INTEGER REFERENCES projects(id) DEFERRABLE INITIALLY DEFERRED)')
  db.prepare('INSERT INTO test_pins (project_id) VALUES (?)').run(projectId)
  return () => db.prepare('DELETE FROM test_pins WHERE project_id = ?').run(projectId)
}

describe('DELETE /projects/:id and the repository', () => {
  it('keeps the repository and the project when the database commit fails, and removes both once it succeeds', async () => {
    const p = await createProject(alice.api, { name: 'doomed' })
    await commit(alice.api, p.id, { commit_message: 'Keep me', actions: [create('README.md', 'precious\n')] })
    expect(existsSync(join(repoDir(p.id), 'HEAD'))).toBe(true)

    const unpin = await failCommitOfDelete(p.id)
    const failed = await alice.api.del(`/projects/${p.id}`)
    expect([failed.status, failed.body]).toEqual([500, { message: '500 Internal Server Error' }])
    expect(existsSync(join(repoDir(p.id), 'HEAD'))).toBe(true)
    expect((await alice.api.get(`/projects/${p.id}/repository/files/README.md/raw`, { query: { ref: 'master' } })).text).toBe('precious\n')

    unpin()
    expect([(await alice.api.del(`/projects/${p.id}`)).status, existsSync(repoDir(p.id))]).toEqual([202, false])
    expect((await alice.api.get(`/projects/${p.id}`)).status).toBe(404)
  })

  it('removes the repository of a project deleted normally', async () => {
    const p = await createProject(alice.api, { name: 'plain' })
    expect(existsSync(repoDir(p.id))).toBe(true)
    expectStatus(await alice.api.del(`/projects/${p.id}`), 202)
    expect(existsSync(repoDir(p.id))).toBe(false)
  })
})
