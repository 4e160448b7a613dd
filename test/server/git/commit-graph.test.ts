// Housekeeping after a push writes a commit-graph with changed-path Bloom filters that covers the pushed commits.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, type Api } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { gitIn } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api
let git: GitCli
let id: number
let work: string
let branch: string

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  git = gitCli()
  id = (await createProject(root, { name: 'graphs', initialize_with_readme: true })).id
  work = await git.clone(urlWithCredentials(server.url, '/root/graphs.git', 'root', server.rootToken), 'graphs')
  branch = await git.run(work, 'rev-parse', '--abbrev-ref', 'HEAD')
})
afterAll(async () => {
  await server.close()
  git.cleanup()
})

/** git's own account (trace2) of the Bloom filters a path-limited walk of the branch consulted; null when it read none. */
function bloomStatistics(path: string): { filter_not_present: number; maybe: number; definitely_not: number; false_positive: number } | null {
  const gitdir = join(server.dataDir, 'repositories', `${id}.git`)
  const run = spawnSync('git', ['--git-dir', gitdir, 'log', '--format=%H', branch, '--', path], { env: { ...process.env, GIT_TRACE2_PERF: '1' }, encoding: 'utf8' })
  const m = run.stderr.match(/statistics:(\{"filter_not_present"[^}]*\})/)
  return m ? JSON.parse(m[1]) : null
}

async function pushCommits(names: string[]) {
  for (const name of names) await git.commit(work, `Add ${name}`, { [name]: `${name}\n` })
  await git.run(work, 'push', '-q', 'origin', `HEAD:${branch}`)
  await server.app.tasks.idle()
}

describe('commit-graph after pushes', () => {
  it('covers every pushed commit, with a changed-path filter each, push after push', async () => {
    expect(bloomStatistics('a.txt')).toBeNull()
    await pushCommits(['a.txt', 'b.txt'])
    expect(gitIn(server, id, ['commit-graph', 'verify', '--no-progress'])).toBe('')
    // The README's root commit is compared with no tree, not through a filter; of the two pushed, the one that added
    // a.txt is the filters' only "maybe".
    expect(bloomStatistics('a.txt')).toEqual({ filter_not_present: 0, maybe: 1, definitely_not: 1, false_positive: 0 })
    await pushCommits(['c.txt'])
    expect(bloomStatistics('c.txt')).toEqual({ filter_not_present: 0, maybe: 1, definitely_not: 2, false_positive: 0 })
  })
})
