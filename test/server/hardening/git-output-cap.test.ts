// Git output is capped: past the limit a diff is answered without hunks (as GitLab does for huge diffs), and other
// reads answer 422 instead of holding an unbounded answer in memory.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setDiffCacheLimit } from '../../../src/server/git/diff-cache.js'
import { GitOutputTooLarge, runGit, setGitOutputLimit } from '../../../src/server/git/exec.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create, gitIn, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const BIG = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n') + '\n'
const LIMIT = 4096

let server: TestServer
let alice: TestUser
let id: number
let small: string
let big: string

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice')
  id = (await createProject(alice.api, { name: 'huge', visibility: 'public' })).id
  small = (await commit(alice.api, id, { commit_message: 'Small', actions: [create('a.txt', 'a\n'), create('big.txt', 'start\n')] })).id
  big = (await commit(alice.api, id, {
    commit_message: `Big\n\n${'A very long message line.\n'.repeat(400)}`,
    actions: [update('big.txt', BIG), update('a.txt', 'a\nb\n')],
  })).id
})
afterAll(() => server.close())
afterEach(() => {
  setGitOutputLimit(null)
  setDiffCacheLimit(null)
})

/** A lowered cap, with an emptied diff cache so nothing is answered from an earlier, uncapped read. */
function lowerCap() {
  setDiffCacheLimit(0)
  setDiffCacheLimit(null)
  setGitOutputLimit(LIMIT)
}

describe('runGit', () => {
  it('stops a command whose output passes the limit with GitOutputTooLarge (422)', async () => {
    lowerCap()
    const gitdir = `${server.dataDir}/repositories/${id}.git`
    const blob = gitIn(server, id, ['rev-parse', `${big}:big.txt`]).trim()
    const err = await runGit(gitdir, ['cat-file', '-p', blob]).catch((e) => e)
    expect(err).toBeInstanceOf(GitOutputTooLarge)
    expect([err.status, err.body]).toEqual([422, { message: `422 Unprocessable Entity - the repository data asked for is larger than ${LIMIT} bytes` }])
    expect(await runGit(gitdir, ['cat-file', '-t', blob])).toBe('blob\n')
  })
})

describe('GET /projects/:id/repository/commits/:sha/diff past the limit', () => {
  it('answers the files read within the limit whole and the rest with their flags and an empty diff; the commit keeps its stats', async () => {
    const whole = expectStatus(await api(server).get(`${repo(id)}/commits/${big}/diff`), 200).body
    expect(whole.map((d: { new_path: string; diff: string }) => [d.new_path, d.diff.length > 0])).toEqual([['a.txt', true], ['big.txt', true]])
    lowerCap()
    const capped = await api(server).get(`${repo(id)}/commits/${big}/diff`)
    expect(capped.status).toBe(200)
    // a.txt's patch ends inside the first LIMIT bytes of git's output, big.txt's does not (GitLab, too, shows the files
    // of a diff past its limits without their patches).
    expect(capped.body).toEqual([whole[0], { ...whole[1], diff: '' }])
    const stats = expectStatus(await api(server).get(`${repo(id)}/commits/${big}`), 200)
    expect(stats.body.stats).toEqual({ additions: 401, deletions: 1, total: 402 })
  })

  it('keeps renames, binaries, deletions and type changes, with the same stats as the whole diff', async () => {
    const notes = Array.from({ length: 20 }, (_, i) => `note ${i}`).join('\n') + '\n'
    await commit(alice.api, id, { commit_message: 'Notes', actions: [create('notes.txt', notes), create('gone.txt', 'bye\n'), create('link', 'target\n')] })
    const mixed = (await commit(alice.api, id, {
      commit_message: 'Mixed',
      actions: [
        { action: 'move', previous_path: 'notes.txt', file_path: 'moved.txt', content: notes.replace('note 3', 'NOTE 3') },
        { action: 'delete', file_path: 'gone.txt' },
        { action: 'create', file_path: 'image.bin', content: Buffer.from([0, 1, 2, 3]).toString('base64'), encoding: 'base64' },
        update('big.txt', BIG.toUpperCase()),
      ],
    })).id
    // `link` becomes a symlink: a type change, which git shows as a deletion and an addition.
    const blob = (content: string) => gitIn(server, id, ['hash-object', '-w', '--stdin'], { input: content }).trim()
    const entries = gitIn(server, id, ['ls-tree', mixed])
      .replace(/^100644 blob \w+\tlink$/m, `120000 blob ${blob('moved.txt')}\tlink`).replace(/^(100644 blob )\w+(\tbig\.txt)$/m, `$1${blob(BIG)}$2`)
    const tree = gitIn(server, id, ['mktree'], { input: entries }).trim()
    const env = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_AUTHOR_DATE: '1704164645 +0000', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_COMMITTER_DATE: '1704164645 +0000' }
    const linked = gitIn(server, id, ['commit-tree', tree, '-p', mixed, '-m', 'Link'], { env }).trim()
    for (const sha of [mixed, linked]) {
      const whole = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}/diff`), 200).body
      const wholeStats = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}`), 200).body.stats
      lowerCap()
      const capped = expectStatus(await api(server).get(`${repo(id)}/commits/${sha}/diff`), 200).body
      expect(capped).toEqual(whole.map((d: object) => ({ ...d, diff: '' })))
      expect(expectStatus(await api(server).get(`${repo(id)}/commits/${sha}`), 200).body.stats).toEqual(wholeStats)
      setGitOutputLimit(null)
    }
  })

  it('still shows small diffs whole', async () => {
    lowerCap()
    const res = expectStatus(await api(server).get(`${repo(id)}/commits/${small}/diff`), 200)
    expect(res.body.map((d: { diff: string }) => d.diff)).toEqual(['@@ -0,0 +1 @@\n+a\n', '@@ -0,0 +1 @@\n+start\n'])
  })
})

describe('GET /projects/:id/repository/commits past the limit', () => {
  it('answers 422 with a GitLab-shaped body, and the list again once the limit allows it', async () => {
    lowerCap()
    const res = await api(server).get(`${repo(id)}/commits`)
    expect([res.status, res.body]).toEqual([422, { message: `422 Unprocessable Entity - the repository data asked for is larger than ${LIMIT} bytes` }])
    setGitOutputLimit(null)
    expect((await api(server).get(`${repo(id)}/commits`)).body.map((c: { id: string }) => c.id).slice(-2)).toEqual([big, small])
  })
})
