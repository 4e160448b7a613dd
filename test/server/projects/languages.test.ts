// GET /projects/:id/languages: byte shares of the default branch, at most five, rounded to two decimals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Languages } from '../../../src/contract/entities/projects.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())

async function projectWithFiles(name: string, files: Record<string, number>) {
  const p = await createProject(alice.api, { name, visibility: 'public' })
  const actions = Object.entries(files).map(([file_path, size]) => ({ action: 'create', file_path, content: 'x'.repeat(size) }))
  expectStatus(await alice.api.post(`/projects/${p.id}/repository/commits`, { branch: 'master', commit_message: 'files', actions }), 201)
  return p
}

describe('GET /projects/:id/languages', () => {
  it('answers {} for an empty repository', async () => {
    const p = await createProject(alice.api, { name: 'Empty Langs' })
    const res = await alice.api.get(`/projects/${p.id}/languages`)
    expect(res.status).toBe(200)
    expect(res.text).toBe('{}')
  })

  it('answers percentages by byte share, largest first, ignoring files of no language and vendored code', async () => {
    const p = await projectWithFiles('Mixed', { 'a.ts': 600, 'b.tsx': 150, 'c.py': 250, 'README.md': 5000, 'node_modules/x.js': 9000 })
    const res = await api(server).get(`/projects/${p.id}/languages`)
    expect(Languages.parse(res.body)).toEqual({ TypeScript: 75, Python: 25 })
    expect(Object.keys(res.body)).toEqual(['TypeScript', 'Python'])
  })

  it('keeps the five largest languages and rounds to two decimals', async () => {
    const p = await projectWithFiles('Many', { 'a.go': 300, 'b.rs': 250, 'c.rb': 200, 'd.c': 150, 'e.java': 100, 'f.lua': 50, 'g.sh': 1 })
    const res = await alice.api.get(`/projects/${p.id}/languages`)
    // Shares are of all the code (1051 bytes), so the five kept sum to less than 100.
    expect(res.body).toEqual({ Go: 28.54, Rust: 23.79, Ruby: 19.03, C: 14.27, Java: 9.51 })
  })
})
