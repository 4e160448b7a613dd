// X-Total of GET /repository/commits around GitLab's count limit: a history of at most 10,000 commits (with the
// filters) is counted; above that X-Total, X-Total-Pages and rel="last" are left out and paging goes on by next links.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setGitAvailable } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { commit, create, gitIn, repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

/** master holds COMMITS commits, one a minute from T0; commit n (from 1) changes `part${n % 4}.txt`. */
const COMMITS = 10_050
const T0 = 1_700_000_000
let server: TestServer
let alice: TestUser
let git: GitCli
let id: number
let local: string
const ids: string[] = [] // ids[n - 1] is commit n

/** fast-import's stream: master, a branch `edge` at commit 9,999, a tag at 10,000, an annotated tag at 10,001 and a merge. */
function history(): string {
  const out: string[] = []
  for (let n = 1; n <= COMMITS; n++) {
    const body = `change ${n}\n`
    out.push(`commit refs/heads/master\nmark :${n}\nauthor Big <big@example.com> ${T0 + n * 60} +0000\ncommitter Big <big@example.com> ${T0 + n * 60} +0000\ndata 9\ncommit ${n % 10}\n`)
    if (n > 1) out.push(`from :${n - 1}\n`)
    out.push(`M 100644 inline part${n % 4}.txt\ndata ${body.length}\n${body}\n`)
  }
  out.push('reset refs/heads/edge\nfrom :9999\n\n', 'reset refs/tags/at-10000\nfrom :10000\n\n')
  // side: three commits from 9,990; merged: commit 9,995 with side merged in (first parent 9,995).
  const at = (mark: number, when: number) => `mark :${mark}\nauthor Side <side@example.com> ${when} +0000\ncommitter Side <side@example.com> ${when} +0000\ndata 4\nside`
  for (let k = 1; k <= 3; k++) out.push(`commit refs/heads/side\n${at(20_000 + k, T0 + 9990 * 60 + 10 * k)}\n${k === 1 ? 'from :9990\n' : ''}M 100644 inline side.txt\ndata 2\n${k}\n\n`)
  out.push(`commit refs/heads/merged\n${at(20_004, T0 + 9995 * 60 + 30)}\nfrom :9995\nmerge :20003\n\n`)
  out.push(`tag v-10001\nfrom :10001\ntagger Big <big@example.com> ${T0} +0000\ndata 5\nbig!\n\n`)
  return out.join('')
}

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  id = (await createProject(alice.api, { name: 'long', visibility: 'public' })).id
  git = gitCli()
  local = join(git.root, 'long.git')
  await git.run(git.root, 'init', '-q', '--bare', '-b', 'master', local)
  const imported = spawnSync('git', ['--git-dir', local, 'fast-import', '--quiet'], { input: history(), env: git.env, encoding: 'utf8' })
  expect([imported.status, imported.stderr]).toEqual([0, ''])
  ids.push(...(await git.run(local, 'rev-list', '--reverse', 'master')).split('\n'))
  expect(ids.length).toBe(COMMITS)
  await git.run(local, 'push', '-q', urlWithCredentials(server.url, '/alice/long.git', alice.username, alice.token), 'master', 'edge', 'side', 'merged', 'at-10000', 'v-10001')
}, 120_000)
afterAll(async () => {
  await server.close()
  git.cleanup()
})

const list = (query: Record<string, string | number | boolean>) => api(server).get(`${repo(id)}/commits`, { query })
const totals = (res: { headers: Headers }) => [res.headers.get('x-total'), res.headers.get('x-total-pages')]
const relations = (res: { headers: Headers }) => (res.headers.get('link') ?? '').split(', ').map((l) => /rel="(\w+)"/.exec(l)?.[1])

describe('commit list totals with the git command line', () => {
  it('leaves out X-Total, X-Total-Pages and last above 10,000 commits, and keeps next until the last page', async () => {
    const first = await list({ per_page: 100 })
    expect([first.status, first.body.length, first.body[0].id]).toEqual([200, 100, ids[COMMITS - 1]])
    expect([...totals(first), first.headers.get('x-next-page'), relations(first)]).toEqual([null, null, '2', ['next', 'first']])
    const deep = await list({ per_page: 100, page: 100 })
    expect([...totals(deep), deep.headers.get('x-next-page'), deep.headers.get('x-prev-page'), relations(deep)]).toEqual([null, null, '101', '99', ['prev', 'next', 'first']])
    const last = await list({ per_page: 100, page: 101 })
    expect([last.body.length, last.body.at(-1).id, ...totals(last), last.headers.get('x-next-page'), relations(last)]).toEqual([50, ids[0], null, null, '', ['prev', 'first']])
    // An annotated tag of commit 10,001, and the same commit by id.
    for (const ref_name of ['v-10001', ids[10_000]]) {
      const res = await list({ ref_name, per_page: 100 })
      expect([ref_name, res.body[0].id, ...totals(res), relations(res)]).toEqual([ref_name, ids[10_000], null, null, ['next', 'first']])
    }
  })

  it('counts a history of exactly 10,000 commits, by tag and by id', async () => {
    for (const ref_name of ['at-10000', ids[9_999]]) {
      const res = await list({ ref_name, per_page: 100 })
      expect([ref_name, ...totals(res), relations(res)]).toEqual([ref_name, '10000', '100', ['next', 'first', 'last']])
      const last = await list({ ref_name, per_page: 100, page: 100 })
      expect([ref_name, last.body.length, last.body.at(-1).id, last.headers.get('x-next-page')]).toEqual([ref_name, 100, ids[0], ''])
    }
  })

  it('counts a long history that its filters bring to 10,000 commits or fewer', async () => {
    // part1.txt: commits 1, 5, 9 …; since: the last 2,000 of master.
    const cases: [Record<string, string | boolean>, number][] = [
      [{ path: 'part1.txt' }, Math.ceil(COMMITS / 4)],
      [{ since: new Date((T0 + (COMMITS - 1999) * 60) * 1000).toISOString() }, 2000],
      // Commits 1-9,996, the three on side and the merge.
      [{ until: new Date((T0 + 9_996 * 60) * 1000).toISOString(), all: true }, 10_000],
      [{ until: new Date((T0 + 9_997 * 60) * 1000).toISOString(), all: true }, -1],
      [{ ref_name: 'merged' }, 9_999],
      [{ first_parent: true, ref_name: 'merged' }, 9_996],
      [{ first_parent: true, ref_name: 'side', path: 'side.txt' }, 3],
      [{ author: 'nobody', all: true }, 0],
      [{ path: 'part1.txt', since: new Date((T0 + (COMMITS - 1999) * 60) * 1000).toISOString(), order: 'topo' }, 500],
    ]
    for (const [query, count] of cases) {
      const res = await list({ ...query, per_page: 100 })
      const pages = String(Math.max(1, Math.ceil(count / 100)))
      expect([query, res.status, ...totals(res)]).toEqual([query, 200, ...(count < 0 ? [null, null] : [String(count), pages])])
      if (count < 0) continue
      const last = await list({ ...query, per_page: 100, page: Number(pages) })
      expect([query, (Number(pages) - 1) * 100 + last.body.length, last.headers.get('x-next-page')]).toEqual([query, count, ''])
    }
  })

  it('counts a branch again when a push moves it past 10,000', async () => {
    const url = urlWithCredentials(server.url, '/alice/long.git', alice.username, alice.token)
    expect(totals(await list({ ref_name: 'edge' }))).toEqual(['9999', '500'])
    await git.run(local, 'push', '-q', url, `${ids[9_999]}:refs/heads/edge`)
    expect(totals(await list({ ref_name: 'edge' }))).toEqual(['10000', '500'])
    await git.run(local, 'push', '-q', url, `${ids[10_000]}:refs/heads/edge`)
    expect(totals(await list({ ref_name: 'edge' }))).toEqual([null, null])
  })
})

describe('commit list totals of a branch that grows', () => {
  const url = () => urlWithCredentials(server.url, '/alice/long.git', alice.username, alice.token)
  const grow = (n: number) => commit(alice.api, id, { branch: 'grow', commit_message: `grow ${n}`, actions: [create(`grow-${n}.txt`, `${n}\n`)] })
  const queries: Record<string, string | boolean>[] = [{}, { first_parent: true }, { path: 'part1.txt' }, { path: 'grow-1.txt', order: 'topo' }, { author: 'ALICE' }, { author: 'alice', path: 'grow-1.txt', first_parent: true }]
  /** X-Total of each query, and what git itself counts in the server's repository, uncapped. */
  const counted = async () => {
    const seen: (string | null)[] = []
    const expected: (string | null)[] = []
    for (const q of queries) {
      seen.push((await list({ ...q, ref_name: 'grow' })).headers.get('x-total'))
      const filters = [...(q.first_parent ? ['--first-parent'] : []), ...(q.author ? [`--author=${q.author}`, '--regexp-ignore-case', '--fixed-strings'] : [])]
      const n = Number(gitIn(server, id, ['rev-list', '--count', ...filters, 'grow', '--', ...(q.path ? [String(q.path)] : [])]).trim())
      expected.push(n > 10_000 ? null : String(n))
    }
    expect(seen).toEqual(expected)
    return seen
  }

  it('counts a branch a push grew from the count below it, with and without filters, and leaves it out past 10,000', async () => {
    expectStatus(await alice.api.post(`${repo(id)}/branches`, { branch: 'grow', ref: ids[9_996] }), 201)
    expect(await counted()).toEqual(['9997', '9997', '2500', '0', '0', '0'])
    await grow(1)
    expect(await counted()).toEqual(['9998', '9998', '2500', '1', '1', '1'])
    // Two commits in one push, above the one counted, touching nothing.
    await git.run(local, 'fetch', '-q', url(), 'grow:grow')
    const tree = await git.run(local, 'rev-parse', 'grow^{tree}')
    const a = await git.run(local, 'commit-tree', '-p', 'grow', '-m', 'pushed a', tree)
    const b = await git.run(local, 'commit-tree', '-p', a, '-m', 'pushed b', tree)
    await git.run(local, 'push', '-q', url(), `${b}:refs/heads/grow`)
    expect(await counted()).toEqual(['10000', '10000', '2500', '1', '1', '1'])
    // A merge of side (three commits of its own): 10,004 commits, 10,001 along first parents.
    const merge = await git.run(local, 'commit-tree', '-p', b, '-p', 'side', '-m', 'merge side', tree)
    await git.run(local, 'push', '-q', url(), `${merge}:refs/heads/grow`)
    expect(await counted()).toEqual([null, null, '2500', '1', '1', '1'])
    await grow(2)
    expect(await counted()).toEqual([null, null, '2500', '1', '2', '1'])
  })
})

describe('commit list totals with isomorphic-git in-process', () => {
  beforeAll(() => setGitAvailable(false))
  afterAll(() => setGitAvailable(null))

  it('counts up to 10,000 and leaves the totals out above', async () => {
    const res = await list({ ref_name: 'at-10000', per_page: 100 })
    expect([...totals(res), relations(res)]).toEqual(['10000', '100', ['next', 'first', 'last']])
    const above = await list({ per_page: 100, page: 2 })
    expect([above.body[0].id, ...totals(above), above.headers.get('x-next-page'), relations(above)]).toEqual([ids[COMMITS - 101], null, null, '3', ['prev', 'next', 'first']])
  }, 60_000)
})
