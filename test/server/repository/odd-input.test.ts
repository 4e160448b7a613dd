// Odd refs, shas and paths on every repository read, on both engines: each answers 200, 400 or 404, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { createProject, createUser, type TestUser } from '../../helpers/api.js'
import { commit, create, ENGINES, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const ODD = ['HEAD', '@', '..', '.', '%00', '%2E%2E', 'x'.repeat(1024), 'refs%2Fheads%2Fmaster', 'master~1', 'master%5E', 'master:a.txt', '-n', '--all', '0000', 'a%20b', '%E2%9C%93', '%2F']

let server: TestServer
let alice: TestUser
let id: number
let sha: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'odd' })).id
  sha = (await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('a.txt', 'a\n'), create('d/b.txt', 'b\n')] })).id
})
afterAll(() => server.close())

describe.each(ENGINES)('odd input with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  /** Every request's status, for the ones that are not 200, 400 or 404. */
  async function unexpected(requests: [string, Record<string, string | boolean>?][]) {
    const out: string[] = []
    for (const [path, query] of requests) {
      const res = await alice.api.get(`${repo(id)}${path}`, { query })
      if (![200, 400, 404].includes(res.status)) out.push(`${res.status} GET ${path} ${JSON.stringify(query ?? {})}`)
    }
    return out
  }

  it('answers odd commit names on the commit endpoints without a 500', async () => {
    const requests: [string, Record<string, string>?][] = []
    for (const odd of ODD) for (const suffix of ['', '/diff', '/refs', '/comments', '/statuses', '/merge_requests']) requests.push([`/commits/${odd}${suffix}`])
    expect(await unexpected(requests)).toEqual([])
  })

  it('answers odd ref_name, path and dates on the commit list without a 500', async () => {
    const requests: [string, Record<string, string | boolean>][] = []
    for (const odd of ODD.map(decodeURIComponent)) requests.push(['/commits', { ref_name: odd }], ['/commits', { path: odd }], ['/commits', { path: odd, all: true }])
    for (const date of ['yesterday', '2024', 'not a date']) requests.push(['/commits', { since: date }], ['/commits', { until: date }])
    expect(await unexpected(requests)).toEqual([])
  })

  it('answers odd refs and paths on tree, files, branches and tags without a 500', async () => {
    const requests: [string, Record<string, string | boolean>?][] = []
    for (const odd of ODD) {
      const plain = decodeURIComponent(odd)
      requests.push(['/tree', { ref: plain }], ['/tree', { path: plain }], ['/tree', { path: plain, recursive: true }])
      requests.push([`/files/${odd}`], [`/files/${odd}/raw`], ['/files/a.txt', { ref: plain }], ['/files/a.txt/raw', { ref: plain }])
      requests.push([`/branches/${odd}`], [`/tags/${odd}`], ['/branches', { search: plain }], ['/tags', { search: plain }])
    }
    expect(await unexpected(requests)).toEqual([])
    expect((await alice.api.get(`${repo(id)}/commits/${sha}`)).status).toBe(200)
  })
})
