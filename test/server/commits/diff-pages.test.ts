// A commit's diff is computed once and paged from a byte-bounded cache: pages concatenate to the whole diff, later
// pages do not go back to git, and the cache never holds more than its bound.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { diffCacheUsage, setDiffCacheLimit } from '../../../src/server/git/diff-cache.js'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, expectStatus, type Reply, type TestUser } from '../../helpers/api.js'
import { commit, create, ENGINES, gitIn, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const FILES = 45
const names = Array.from({ length: FILES }, (_, i) => `src/file${String(i).padStart(2, '0')}.txt`)

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice')
})
afterAll(() => server.close())
afterEach(() => setDiffCacheLimit(null))

/** A project whose last commit edits every one of FILES files; returns its id and that commit. */
async function wideProject(name: string) {
  const id = (await createProject(alice.api, { name, visibility: 'public' })).id
  await commit(alice.api, id, { commit_message: 'Create', actions: names.map((n) => create(n, `first ${n}\n`)) })
  const wide = await commit(alice.api, id, { commit_message: 'Edit all', actions: names.map((n) => update(n, `first ${n}\nsecond ${n}\n`)) })
  return { id, sha: wide.id as string }
}

/** Every page a client fetches, following x-next-page as clients do. */
async function allPages(id: number, sha: string, perPage: number) {
  const pages: unknown[][] = []
  for (let page: string | null = '1'; page; ) {
    const res: Reply<unknown[]> = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}/diff`, { query: { per_page: perPage, page } }), 200)
    pages.push(res.body)
    page = res.headers.get('x-next-page') || null
  }
  return pages
}

describe.each(ENGINES)('paging a diff with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  it('answers pages that concatenate to the unpaginated diff, in order', async () => {
    const { id, sha } = await wideProject(`pages-${available ?? 'git'}`)
    const whole = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}/diff`, { query: { per_page: 100 } }), 200)
    expect([whole.body.length, whole.headers.get('x-total')]).toEqual([FILES, String(FILES)])
    const pages = await allPages(id, sha, 20)
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5])
    expect(pages.flat()).toEqual(whole.body)
    expect(whole.body[0]).toEqual({
      diff: `@@ -1 +1,2 @@\n first ${names[0]}\n+second ${names[0]}\n`, new_path: names[0], old_path: names[0], a_mode: '100644', b_mode: '100644',
      new_file: false, renamed_file: false, deleted_file: false, generated_file: false,
    })
  })
})

describe('the diff cache', () => {
  it('serves later pages without reading the repository again', async () => {
    const { id, sha } = await wideProject('computed-once')
    const first = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}/diff`, { query: { per_page: 20 } }), 200)
    // Take away the blobs the diff was made from: only a diff computed once and kept can answer the next pages.
    for (const line of gitIn(server, id, ['ls-tree', '-r', sha]).trim().split('\n')) {
      const oid = line.split(/\s+/)[2]
      rmSync(join(server.dataDir, 'repositories', `${id}.git`, 'objects', oid.slice(0, 2), oid.slice(2)), { force: true })
    }
    const second = await api(server).get(`${repo(id)}/commits/${sha}/diff`, { query: { per_page: 20, page: 2 } })
    expect([second.status, second.body.map((d: { new_path: string }) => d.new_path)]).toEqual([200, names.slice(20, 40)])
    expect(first.body.map((d: { new_path: string }) => d.new_path)).toEqual(names.slice(0, 20))
    const stats = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}`), 200)
    expect(stats.body.stats).toEqual({ additions: FILES, deletions: 0, total: FILES })
  })

  it('keeps no more bytes than its bound, evicting older diffs', async () => {
    const limit = 40_000
    setDiffCacheLimit(limit)
    expect(diffCacheUsage().bytes).toBeLessThanOrEqual(limit)
    const projects = [await wideProject('bound-a'), await wideProject('bound-b'), await wideProject('bound-c')]
    for (const { id, sha } of projects) {
      const pages = await allPages(id, sha, 20)
      expect(pages.flat().length).toBe(FILES)
      const usage = diffCacheUsage()
      expect(usage.bytes).toBeLessThanOrEqual(limit)
      expect(usage.entries).toBeGreaterThan(0)
    }
    // About 16 KB a diff: the third pushed the first out.
    expect(diffCacheUsage().entries).toBe(2)
    // A bound smaller than one diff keeps nothing, and answers stay whole.
    setDiffCacheLimit(1000)
    expect(diffCacheUsage()).toEqual({ entries: 0, bytes: 0 })
    const { id, sha } = projects[0]
    expect((await allPages(id, sha, 20)).flat().length).toBe(FILES)
    expect(diffCacheUsage()).toEqual({ entries: 0, bytes: 0 })
  })
})
