// Concurrent POST …/repository/commits on one branch: every answer is 201 or 400, no 201 is lost, history stays linear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../../helpers/api.js'
import { branchHead, commit, create, historyIds, repo } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
})
afterAll(() => server.close())

describe('concurrent commits on one branch', () => {
  it('loses none of twenty commits fired at once, and keeps the history linear', async () => {
    const id = (await createProject(alice.api, { name: 'busy' })).id
    const root = (await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('README.md', 'hello\n')] })).id
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: `File ${i}`, actions: [create(`files/${i}.txt`, `${i}\n`)] })))
    for (const r of replies) expect([201, 400]).toContain(r.status)
    const created = replies.filter((r) => r.status === 201).map((r) => r.body)
    // Nothing conflicts here, so every one of them lands.
    expect(created).toHaveLength(20)

    const history = await historyIds(alice.api, id, 'master')
    expect(history).toHaveLength(21)
    expect(history[20]).toBe(root)
    expect(new Set(history)).toEqual(new Set([root, ...created.map((c) => c.id)]))
    expect(await branchHead(alice.api, id, 'master')).toBe(history[0])
    // Linear: each commit's only parent is the next one down.
    const byId = new Map(created.map((c) => [c.id, c]))
    for (let i = 0; i < 20; i++) expect(byId.get(history[i])!.parent_ids).toEqual([history[i + 1]])
    const tree = await alice.api.get(`${repo(id)}/tree`, { query: { path: 'files', per_page: 100 } })
    expect(tree.body).toHaveLength(20)
  })

  it('answers 400 to the losers when concurrent commits create the same file, and keeps the one winner', async () => {
    const id = (await createProject(alice.api, { name: 'contended' })).id
    const root = (await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('README.md', 'hello\n')] })).id
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      alice.api.post(`${repo(id)}/commits`, { branch: 'master', commit_message: `Claim ${i}`, actions: [create('claim.txt', `${i}\n`)] })))
    const won = replies.filter((r) => r.status === 201)
    const lost = replies.filter((r) => r.status === 400)
    expect([won.length, lost.length]).toEqual([1, 9])
    for (const r of lost) expect(r.body).toEqual({ message: 'A file with this name already exists: claim.txt' })
    expect(await historyIds(alice.api, id, 'master')).toEqual([won[0].body.id, root])
  })

  it('keeps every commit when concurrent commits update one file with the same last_commit_id: one wins, the rest are stale', async () => {
    const id = (await createProject(alice.api, { name: 'racing' })).id
    const root = (await commit(alice.api, id, { commit_message: 'Initial commit', actions: [create('counter.txt', 'start\n')] })).id
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      alice.api.post(`${repo(id)}/commits`, {
        branch: 'master', commit_message: `Set ${i}`, actions: [{ action: 'update', file_path: 'counter.txt', content: `${i}\n`, last_commit_id: root }],
      })))
    const won = replies.filter((r) => r.status === 201)
    expect(won).toHaveLength(1)
    for (const r of replies.filter((x) => x.status !== 201)) {
      expect([r.status, r.body]).toEqual([400, { message: 'The file has changed since you started editing it: counter.txt' }])
    }
    expect(await historyIds(alice.api, id, 'master')).toEqual([won[0].body.id, root])
  })
})
