// The habits of glab and gh users (issue 27), through the built CLI against one server with its runner: exit codes and
// piped output of job trace, pipeline status and mr checks; mr merge over a failed pipeline; mr create pushing the
// branch (piped, --push, and asked on a terminal); issue view --comments; errors that name what was looked up;
// --jq and --template; aliases; browse's forms of a merge request; auth token and auth login --username.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus, type Api } from '../helpers/api.js'
import { ciProject, startCiServer, waitForFinished } from '../helpers/ci.js'
import { commit, update } from '../helpers/repository.js'
import { ROOT_PASSWORD, type TestServer } from '../helpers/server.js'
import { BIN, cli, ok, rootCli, type Cli } from '../commands/cli.js'
import { runInTerminal } from '../commands/pty.js'

// Red text and a failure on the branch `broken` only.
const CI = `
check:
  script:
    - printf '\\033[31mred\\033[0m line\\n'
    - test "$CI_COMMIT_REF_NAME" != broken
`

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C',
  GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com',
}
const hasScript = spawnSync('sh', ['-c', 'command -v script']).status === 0
const plain = (screen: string) => screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '')

let server: TestServer
let c: Cli
let root: Api
let projectId: number
/** PATH with `collab` on it, as after `npm run setup`: the clone's credential helper runs it. */
let env: Record<string, string>

beforeAll(async () => {
  server = await startCiServer({ runner: true })
  const made = await ciProject(server, 'demo', CI, { 'README.md': '# demo\n' })
  projectId = made.project.id
  root = made.root
  c = await rootCli(server)
  const bin = join(c.configDir, 'bin')
  mkdirSync(bin)
  symlinkSync(BIN, join(bin, 'collab'))
  env = { ...GIT_ENV, PATH: `${bin}:${process.env.PATH ?? ''}` }
  await waitForFinished(server, 1)
}, 60_000)
afterAll(async () => {
  c.cleanup()
  await server.close()
})

const p = ['-p', 'root/demo']

describe('CI exit codes and piped output', () => {
  it('job trace exits 1 for a failed job with or without --follow, and leaves the ANSI codes out when piped', async () => {
    await commit(root, projectId, { branch: 'broken', start_branch: 'master', commit_message: 'Break', actions: [update('README.md', 'broken\n')] })
    await server.app.tasks.idle()
    await waitForFinished(server, 2)
    const trace = await c.run(['job', 'trace', 'check', '-r', 'broken', ...p])
    expect(trace.exitCode).toBe(1)
    expect(trace.stdout).toContain('red line\n')
    expect(trace.stdout).not.toContain('\u001b')
    const followed = await c.run(['job', 'trace', 'check', '-r', 'broken', '--follow', ...p])
    expect([followed.exitCode, followed.stderr]).toEqual([1, 'Job #2 (check) failed\n'])
    // FORCE_COLOR keeps the log's colours in a pipe.
    expect((await c.run(['job', 'trace', 'check', '-r', 'broken', ...p], { env: { FORCE_COLOR: '1' } })).stdout).toContain('\u001b[31mred\u001b[0m line')
    expect((await c.run(['job', 'trace', 'check', '-r', 'master', ...p])).exitCode).toBe(0)
  })

  it('pipeline status --live waits and exits with the result, as pipeline view does', async () => {
    const live = await c.run(['pipeline', 'status', '--live', '--interval', '0.2', '-r', 'broken', ...p])
    expect([live.exitCode, live.stdout.split('\n')[2]]).toEqual([1, 'status\tfailed'])
    expect((await c.run(['pipeline', 'view', '-r', 'master', ...p])).exitCode).toBe(0)
  })

  it('mr checks shows the head pipeline and exits 1 when it failed; mr merge refuses it in a script without --yes', async () => {
    expectStatus(await root.post(`/projects/${projectId}/merge_requests`, { source_branch: 'broken', target_branch: 'master', title: 'Broken' }), 201)
    const checks = await c.run(['mr', 'checks', '1', ...p])
    expect([checks.exitCode, checks.stdout.split('\n')[2]]).toEqual([1, 'status\tfailed'])
    expect(checks.stdout).toMatch(/\n\d+\ttest\tcheck\tfailed\t/)
    const refused = await c.run(['mr', 'merge', '1', ...p])
    expect(refused).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'error: the head pipeline #2 of !1 in root/demo failed\nhint: merge anyway with --yes, or see why: collab mr checks 1\n',
    })
    if (hasScript) {
      // On a terminal it says so and asks; no (the default) merges nothing.
      const asked = await runInTerminal(`node ${BIN} mr merge 1 -p root/demo`, [['Merge anyway?', '\r']], {
        env: { PATH: process.env.PATH ?? '', HOME: c.configDir, COLLAB_CONFIG_DIR: c.configDir, COLLAB_NO_KEYRING: '1', TERM: 'xterm' }, cwd: c.configDir,
      })
      expect(plain(asked.screen)).toContain('! The head pipeline #2 of !1 in root/demo failed\n? Merge anyway? (y/N)')
      expect([asked.exitCode, plain(asked.screen)]).toEqual([1, expect.stringContaining('error: not merged\n')])
    }
    expect(await c.run(['mr', 'approve', '1', ...p])).toEqual(ok('', 'Approved merge request !1 in root/demo\n'))
    const approvals = expectStatus(await root.get(`/projects/${projectId}/merge_requests/1/approvals`), 200).body
    expect(approvals.approved_by.map((a: { user: { username: string } }) => a.user.username)).toEqual(['root'])
    expect(await c.run(['mr', 'unapprove', '1', ...p])).toEqual(ok('', 'Withdrew your approval of merge request !1 in root/demo\n'))
    const merged = await c.run(['mr', 'merge', '1', '--yes', ...p])
    expect([merged.exitCode, merged.stderr]).toEqual([0, expect.stringMatching(/^Merged !1 in root\/demo into master/)])
  }, 60_000)
})

describe('mr create and an unpushed branch', () => {
  it('fails with the git push hint in a script, pushes with --push, and asks on a terminal', async () => {
    expect((await c.run(['project', 'clone', 'root/demo'], { env })).exitCode).toBe(0)
    const dir = join(c.configDir, 'demo')
    const git = (...args: string[]) => execa('git', args, { cwd: dir, env: { ...env, HOME: c.configDir }, extendEnv: false })
    await git('checkout', '-q', '-b', 'topic')
    await git('commit', '-q', '--allow-empty', '-m', 'Topic work')
    expect(await c.run(['mr', 'create', '--fill'], { cwd: dir, env })).toEqual({
      stdout: '', exitCode: 1, stderr: 'error: topic is not on the server yet\nhint: push it first: git push -u origin topic (or pass --push)\n',
    })
    const pushed = await c.run(['mr', 'create', '--fill', '--push'], { cwd: dir, env })
    expect([pushed.exitCode, pushed.stdout]).toEqual([0, `${server.url}/root/demo/-/merge_requests/2\n`])
    expect(pushed.stderr).toMatch(/^Pushing topic to origin\n[\s\S]*Created merge request !2 \(topic -> master\)\n$/)
    const head = (await git('rev-parse', 'HEAD')).stdout
    expect(expectStatus(await root.get(`/projects/${projectId}/repository/branches/topic`), 200).body.commit.id).toBe(head)
    expect((await git('rev-parse', '--abbrev-ref', 'topic@{upstream}')).stdout).toBe('origin/topic')
    await git('commit', '-q', '--allow-empty', '-m', 'More topic work')
    expect(await c.run(['mr', 'create', '--fill'], { cwd: dir, env })).toEqual({
      stdout: '', exitCode: 1, stderr: "error: the server's topic is 1 commit behind this clone\nhint: push it first: git push -u origin topic (or pass --push)\n",
    })
    if (!hasScript) return
    await git('checkout', '-q', '-b', 'asked')
    await git('commit', '-q', '--allow-empty', '-m', 'Asked work')
    const run = await runInTerminal(`stty cols 120 rows 40; node ${BIN} mr create --fill`, [['Push it (git push -u origin asked)?', '\r']], {
      env: { ...env, HOME: c.configDir, COLLAB_CONFIG_DIR: c.configDir, COLLAB_NO_KEYRING: '1', TERM: 'xterm' }, cwd: dir,
    })
    expect(plain(run.screen)).toContain('asked is not on the server yet. Push it (git push -u origin asked)?')
    expect(run.exitCode).toBe(0)
    expect(expectStatus(await root.get(`/projects/${projectId}/merge_requests/3`), 200).body.source_branch).toBe('asked')
  }, 60_000)
})

describe('reading and errors', () => {
  it('issue view prints the notes only with --comments', async () => {
    const issue = expectStatus(await root.post(`/projects/${projectId}/issues`, { title: 'Noted' }), 201).body
    expectStatus(await root.post(`/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'A comment' }), 201)
    const bare = await c.run(['issue', 'view', String(issue.iid), ...p])
    expect(bare.stdout).not.toContain('note\t')
    const withNotes = await c.run(['issue', 'view', String(issue.iid), '--comments', ...p])
    expect(withNotes.stdout).toMatch(/\nnote\t\d+\troot\t\S+\tcomment\tA comment\n--\n$/)
  })

  it('says which project was not found, and hints --personal for a snippet that is not the project\'s', async () => {
    expect(await c.run(['issue', 'list', '-p', 'root/nope'])).toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: root/nope\n', exitCode: 1 })
    const snippet = expectStatus(await root.post('/snippets', { title: 'Mine', file_name: 'a.txt', content: 'mine' }), 201).body
    expect(await c.run(['snippet', 'raw', String(snippet.id), ...p])).toEqual({
      stdout: '', exitCode: 1,
      stderr: 'error: 404 Snippet Not Found\nhint: looked up among the snippets of project root/demo; for one of your own snippets add --personal\n',
    })
    expect(await c.run(['snippet', 'raw', String(snippet.id), '--personal'])).toEqual(ok('mine'))
  })

  it('filters --json through --jq and --template, on list verbs and collab api', async () => {
    expect(await c.run(['issue', 'list', ...p, '--jq', '.[].title'])).toEqual(ok('Noted\n'))
    expect(await c.run(['issue', 'list', ...p, '--template', '{{range .}}{{printf "#%d" .iid}} {{.title}}{{"\\n"}}{{end}}'])).toEqual(ok('#1 Noted\n'))
    expect(await c.run(['api', 'projects/:id', ...p, '--jq', '.path_with_namespace'])).toEqual(ok('root/demo\n'))
    // Piped, values other than strings come one per line, compact.
    expect(await c.run(['issue', 'list', ...p, '--jq', '.[] | {iid, labels}'])).toEqual(ok('{"iid":1,"labels":[]}\n'))
    expect(await c.run(['mr', 'list', '--state', 'all', ...p, '--template', '{{range .}}{{tablerow .iid .source_branch .state}}{{end}}']))
      .toEqual(ok('3\tasked\topened\n2\ttopic\topened\n1\tbroken\tmerged\n'))
    const bad = await c.run(['issue', 'list', ...p, '--jq', '.['])
    expect([bad.exitCode, bad.stdout, bad.stderr.split('\n')[0]]).toEqual([1, '', 'error: jq: syntax error, unexpected end of file at <top-level>, line 1, column 2:'])
    expect((await c.run(['issue', 'list', ...p, '--jq', '.', '--template', 'x'])).exitCode).toBe(2)
    expect((await c.run(['issue', 'list', ...p, '--template', '{{range .}}'])).stderr).toBe('error: template: missing {{end}} of {{range}}\n')
  })

  it('opens a merge request from forms bash leaves alone: mr3 and -m 3', async () => {
    expect(await c.run(['browse', 'mr3', '-n', ...p])).toEqual(ok(`${server.url}/root/demo/-/merge_requests/3\n`))
    expect(await c.run(['browse', '-m', '3', '-n', ...p])).toEqual(ok(`${server.url}/root/demo/-/merge_requests/3\n`))
    expect(await c.run(['browse', '!3', '-n', ...p])).toEqual(ok(`${server.url}/root/demo/-/merge_requests/3\n`))
  })
})

describe('collab alias', () => {
  it('sets, expands (with $1 and the rest appended), lists and deletes aliases; a shell alias runs through sh', async () => {
    expect(await c.run(['alias', 'set', 'titles', 'issue list -p root/demo --jq $1'])).toEqual(ok('', 'Added alias titles: issue list -p root/demo --jq $1\n'))
    expect(await c.run(['titles', '.[].title', '--state', 'all'])).toEqual(ok('Noted\n'))
    expect(await c.run(['alias', 'set', 'hello', '!echo hello "$@"'])).toEqual(ok('', 'Added alias hello: !echo hello "$@"\n'))
    expect(await c.run(['hello', 'a b', 'c'])).toEqual(ok('hello a b c\n'))
    expect(await c.run(['alias', 'set', 'issue', 'mr list'])).toEqual({ stdout: '', stderr: "error: 'issue' is a collab command; pick another name\n", exitCode: 2 })
    expect((await c.run(['alias', 'set', 'titles', 'mr list'])).exitCode).toBe(1)
    expect(await c.run(['alias', 'list'])).toEqual(ok('hello\t!echo hello "$@"\ntitles\tissue list -p root/demo --jq $1\n'))
    expect(await c.run(['__complete', 'alias', 'delete', ''])).toEqual(ok('hello\t!echo hello "$@"\ntitles\tissue list -p root/demo --jq $1\n'))
    expect(await c.run(['alias', 'delete', 'hello'])).toEqual(ok('', 'Deleted alias hello\n'))
    expect(JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8')).aliases).toEqual({ titles: 'issue list -p root/demo --jq $1' })
    expect((await c.run(['hello'])).exitCode).toBe(2)
  })
})

describe('collab auth token and auth login --username', () => {
  it('prints the token in use, signs in with a password through the OAuth password grant, and refuses a wrong one (exit 4)', async () => {
    expect(await c.run(['auth', 'token'])).toEqual(ok(`${server.rootToken}\n`))
    const wrong = await c.run(['auth', 'login', '--host', server.url, '--username', 'root', '--password-stdin'], { input: 'nope\n' })
    expect([wrong.exitCode, wrong.stderr.split('\n')[0]]).toEqual([4, `error: ${server.url} refused the password grant: ${wrongGrant}`])
    const login = await c.run(['auth', 'login', '--host', server.url, '--username', 'root', '--password-stdin'], { input: `${ROOT_PASSWORD}\n` })
    expect(login).toEqual(ok('', `Logged in to ${server.url} as root (an OAuth token, renewed when it expires; token stored in config.json)\n`))
    const entry = JSON.parse(readFileSync(join(c.configDir, 'config.json'), 'utf8')).hosts[server.url]
    expect([entry.token_type, entry.user, typeof entry.refresh_token, entry.token === server.rootToken]).toEqual(['oauth', 'root', 'string', false])
    expect(await c.run(['auth', 'token'])).toEqual(ok(`${entry.token}\n`))
    // The OAuth token goes out as Bearer, and works.
    expect((await c.run(['issue', 'list', ...p, '--jq', '.[].title'])).stdout).toBe('Noted\n')
    // Expired, it is renewed with its refresh token before use, and the new one is stored.
    const file = join(c.configDir, 'config.json')
    const config = JSON.parse(readFileSync(file, 'utf8'))
    config.hosts[server.url].expires_at = '2000-01-01T00:00:00.000Z'
    writeFileSync(file, JSON.stringify(config))
    const renewed = await c.run(['auth', 'token'])
    const after = JSON.parse(readFileSync(file, 'utf8')).hosts[server.url]
    expect([renewed.exitCode, renewed.stdout, after.token === entry.token, after.refresh_token === entry.refresh_token]).toEqual([0, `${after.token}\n`, false, false])
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.parse('2001-01-01'))
    expect((await c.run(['issue', 'list', ...p, '--jq', '.[].title'])).stdout).toBe('Noted\n')
  })
})

describe('the OS keyring', () => {
  it('holds the token where a keyring answers, else config.json does; either way commands read it back', async () => {
    // Without COLLAB_NO_KEYRING (which the other tests set): the keyring is tried. CI and containers have none.
    const fresh = cli()
    const keyring = { env: { COLLAB_NO_KEYRING: '' } }
    try {
      const login = await fresh.run(['auth', 'login', '--host', server.url, '--token', server.rootToken], keyring)
      const entry = JSON.parse(readFileSync(join(fresh.configDir, 'config.json'), 'utf8')).hosts[server.url]
      if (login.stderr.includes('OS keyring')) expect([entry.token, entry.token_in_keyring]).toEqual([undefined, true])
      else expect([login.stderr, entry.token, entry.token_in_keyring]).toEqual([`Logged in to ${server.url} as root (token stored in config.json)\n`, server.rootToken, undefined])
      expect(await fresh.run(['auth', 'token'], keyring)).toEqual(ok(`${server.rootToken}\n`))
      expect((await fresh.run(['issue', 'list', ...p, '--jq', '.[].title'], keyring)).stdout).toBe('Noted\n')
      expect(await fresh.run(['auth', 'logout', '--host', server.url], keyring)).toEqual(ok('', `Logged out of ${server.url} (root)\n`))
    } finally {
      fresh.cleanup()
    }
  })
})

const wrongGrant = 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.'
