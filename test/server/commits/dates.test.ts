// since/until on GET /projects/:id/repository/commits at the edges git's own date parser gets wrong: far future, far past, odd forms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gitAvailable, setGitAvailable } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, movableClock } from '../../helpers/api.js'
import { commit, create, ENGINES, repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const clock = movableClock('2024-01-01T10:00:00Z')
let server: TestServer
let id: number
const made: string[] = []

beforeAll(async () => {
  server = await startTestServer({ clock })
  const alice = await createUser(server, 'alice')
  id = (await createProject(alice.api, { name: 'dated', visibility: 'public' })).id
  // The newest commit lies ahead of the real clock: git reads a date it cannot parse as "now", which let it through.
  for (const at of ['2024-01-01', '2024-01-02', '2090-01-03']) {
    clock.set(`${at}T10:00:00Z`)
    made.unshift((await commit(alice.api, id, { commit_message: `On ${at}`, actions: [create(`${at}.txt`, `${at}\n`)] })).id)
  }
})
afterAll(() => server.close())

describe.each(ENGINES)('commit dates with $engine', ({ available }) => {
  beforeAll(async () => {
    setGitAvailable(available)
    expect(await gitAvailable()).toBe(available ?? true)
  })
  afterAll(() => setGitAvailable(null))

  const list = async (query: Record<string, string>) => {
    const res = await api(server).get(`${repo(id)}/commits`, { query })
    return [res.status, res.body.map((c: { id: string }) => c.id), res.headers.get('x-total')]
  }
  const all = () => [200, made, '3']
  const none = [200, [], '0']

  it('answers an empty list for since in the far future', async () => {
    expect(await list({ since: '2999-01-01T00:00:00Z' })).toEqual(none)
    expect(await list({ since: '2100-01-01T00:00:00Z' })).toEqual(none)
  })

  it('answers an empty list for until in the far past, before git has dates', async () => {
    expect(await list({ until: '1900-01-01T00:00:00Z' })).toEqual(none)
    expect(await list({ until: '1970-01-01T00:00:00Z' })).toEqual(none)
  })

  it('lists everything for until in the far future and since in the far past', async () => {
    expect(await list({ until: '2999-01-01T00:00:00Z' })).toEqual(all())
    expect(await list({ since: '1900-01-01T00:00:00Z' })).toEqual(all())
    expect(await list({ since: '1970-01-01T00:00:00Z', until: '2999-12-31T23:59:59Z' })).toEqual(all())
  })

  it('answers an empty list when since is after until', async () => {
    expect(await list({ since: '2024-01-03T00:00:00Z', until: '2024-01-02T00:00:00Z' })).toEqual(none)
  })

  it('reads every accepted date form as the instant it names, to the millisecond', async () => {
    expect(await list({ since: '2024' })).toEqual(all())
    expect(await list({ since: '2024-01-02T10:00:00.001Z' })).toEqual([200, made.slice(0, 1), '1'])
    expect(await list({ until: '2024-01-02T09:59:59.999Z' })).toEqual([200, made.slice(2), '1'])
    expect(await list({ since: 'Tue, 02 Jan 2024 10:00:00 GMT' })).toEqual([200, made.slice(0, 2), '2'])
    expect(await list({ until: '2024-01-02T11:00:00+01:00' })).toEqual([200, made.slice(1), '2'])
  })

  it('answers 400 to a date that does not parse', async () => {
    const res = await api(server).get(`${repo(id)}/commits`, { query: { since: 'next tuesday' } })
    expect([res.status, res.body]).toEqual([400, { message: { since: ['is invalid'] } }])
  })
})
