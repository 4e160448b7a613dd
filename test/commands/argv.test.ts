// argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from './parse.js'

describe('argv to options', () => {
  it.each([
    [['project', 'list'], 'project list', {
      owned: false, membership: false, starred: false, search: undefined, visibility: undefined, archived: undefined,
      orderBy: undefined, sort: undefined, perPage: undefined, all: false, json: false,
    }],
    [['project', 'ls', '--owned', '--starred', '--search', 'de mo', '--visibility', 'internal', '--order-by', 'name', '--sort', 'asc', '--per-page', '5', '--all', '--json'], 'project list', {
      owned: true, membership: false, starred: true, search: 'de mo', visibility: 'internal', archived: undefined,
      orderBy: 'name', sort: 'asc', perPage: 5, all: true, json: true,
    }],
    [['project', 'list', '--archived'], 'project list', expect.objectContaining({ archived: true })],
    [['project', 'list', '--no-archived', '--membership'], 'project list', expect.objectContaining({ archived: false, membership: true })],
    [['project', 'view', 'group/demo', '--json'], 'project view', { project: 'group/demo', web: false, json: true }],
    [['project', 'view', '-p', '42', '--web'], 'project view', { project: '42', web: true, json: false }],
    [['project', 'view'], 'project view', { project: undefined, web: false, json: false }],
    [['project', 'create', 'My Demo', '--path', 'my-demo', '--namespace', 'team', '--description', 'd', '--visibility', 'public', '--default-branch', 'main', '--readme'], 'project create', {
      name: 'My Demo', path: 'my-demo', namespace: 'team', description: 'd', visibility: 'public', defaultBranch: 'main', readme: true, json: false,
    }],
    [['project', 'edit', 'g/p', '--name', 'N', '--no-wiki', '--issues', '--merge-requests', '--no-request-access', '--topics', 'a, b,,c', '--merge-method', 'ff'], 'project edit', {
      project: 'g/p',
      settings: { name: 'N', merge_method: 'ff', topics: ['a', 'b', 'c'], issues_enabled: true, merge_requests_enabled: true, wiki_enabled: false, request_access_enabled: false },
      json: false,
    }],
    [['project', 'fork', 'g/p', '--namespace', 'team', '--name', 'f', '--path', 'fp'], 'project fork', { project: 'g/p', namespace: 'team', name: 'f', path: 'fp', json: false }],
    [['project', 'forks', '-p', 'g/p', '--all'], 'project forks', { project: 'g/p', perPage: undefined, all: true, json: false }],
    [['project', 'star', 'g/p'], 'project star', { project: 'g/p', json: false }],
    [['project', 'unarchive', '--json', '-p', '3'], 'project unarchive', { project: '3', json: true }],
    [['project', 'languages', 'g/p'], 'project languages', { project: 'g/p', json: false }],
    [['project', 'delete', 'g/p', '-y'], 'project delete', { project: 'g/p', yes: true }],
    [['project', 'members', '-p', 'g/p'], 'project members list', { project: 'g/p', inherited: false, query: undefined, perPage: undefined, all: false, json: false }],
    [['project', 'members', 'list', '--inherited', '--query', 'al'], 'project members list', expect.objectContaining({ inherited: true, query: 'al' })],
    [['project', 'members', 'add', 'alice', '-a', 'Developer', '--expires-at', '2030-01-01'], 'project members add', { project: undefined, user: 'alice', accessLevel: 30, expiresAt: '2030-01-01', json: false }],
    [['project', 'members', 'edit', '7', '--access-level', '40'], 'project members edit', { project: undefined, user: '7', accessLevel: 40, expiresAt: undefined, json: false }],
    [['project', 'members', 'rm', 'alice', '-p', 'g/p'], 'project members remove', { project: 'g/p', user: 'alice' }],
    [['api', 'projects', '-X', 'put', '-f', 'a=1', '-F', 'b=2', '-F', 'c=true', '-H', 'X-A: 1', '--paginate', '-i', '--input', 'f.json'], 'api', {
      endpoint: 'projects', method: 'PUT', rawFields: ['a=1'], typedFields: ['b=2', 'c=true'], headers: ['X-A: 1'],
      paginate: true, include: true, input: 'f.json', project: undefined,
    }],
    [['auth', 'login', '--host', 'http://h:1', '--with-token'], 'auth login', { host: 'http://h:1', token: undefined, withToken: true, username: undefined, passwordStdin: false }],
    [['auth', 'status', '--json'], 'auth status', { json: true }],
    [['auth', 'logout'], 'auth logout', { host: undefined }],
    [['config', 'get', 'git_protocol', '--host', 'http://h:1'], 'config get', { key: 'git_protocol', host: 'http://h:1' }],
    [['config', 'set', 'editor', 'vim'], 'config set', { key: 'editor', value: 'vim', host: undefined }],
    [['config', 'list', '--json'], 'config list', { host: undefined, json: true }],
    [['completion', 'zsh'], 'completion', { shell: 'zsh' }],
  ])('%j runs %s', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it('reads serve defaults, flags and COLLAB_ROOT_TOKEN / COLLAB_ROOT_PASSWORD', async () => {
    const rest = { quiet: false, login: false, runner: { enabled: true, concurrency: undefined } }
    expect((await optionsOf(['serve', '--data', '/d'])).options).toEqual({ host: '127.0.0.1', port: 3000, dataDir: '/d', rootToken: undefined, rootPassword: undefined, responseCache: true, trustedProxies: [], ...rest })
    expect((await optionsOf(['serve', '--data', '/d', '--port', '0', '--host', '0.0.0.0'], { COLLAB_ROOT_TOKEN: 'env-token', COLLAB_ROOT_PASSWORD: 'pw' })).options)
      .toEqual({ host: '0.0.0.0', port: 0, dataDir: '/d', rootToken: 'env-token', rootPassword: 'pw', responseCache: true, trustedProxies: [], ...rest })
    expect((await optionsOf(['serve', '--data', '/d', '-q', '--no-runner', '--runner-concurrency', '3'])).options)
      .toEqual(expect.objectContaining({ quiet: true, runner: { enabled: false, concurrency: 3 } }))
    expect((await optionsOf(['serve', '--data', '/d', '--runner-concurrency', '2'])).options)
      .toEqual(expect.objectContaining({ runner: { enabled: true, concurrency: 2 } }))
    expect((await optionsOf(['serve', '--data', '/d', '--no-response-cache'])).options).toEqual(expect.objectContaining({ responseCache: false }))
    expect((await optionsOf(['serve', '--data', '/d', '--trusted-proxy', '10.0.0.1', '--trusted-proxy', '::1'])).options)
      .toEqual(expect.objectContaining({ trustedProxies: ['10.0.0.1', '::1'] }))
    expect((await optionsOf(['serve', '--data', '/d', '--root-token', 'flag-token'], { COLLAB_ROOT_TOKEN: 'env-token' })).options)
      .toEqual(expect.objectContaining({ rootToken: 'flag-token' }))
  })
})

describe('usage errors exit 2 before anything runs', () => {
  it.each([
    [['project', 'list', '--bogus'], "error: unknown option '--bogus'\nhint: see 'collab project list --help'\n"],
    [['project', 'list', '--ownd'], "error: unknown option '--ownd'\n(Did you mean --owned?)\nhint: see 'collab project list --help'\n"],
    [['project', 'create'], "error: missing required argument 'name'\nhint: see 'collab project create --help'\n"],
    [['project', 'list', '--visibility', 'secret'], "error: option '--visibility <visibility>' argument 'secret' is invalid. Allowed choices are private, internal, public.\nhint: see 'collab project list --help'\n"],
    [['project', 'list', '--per-page', '0'], "error: option '--per-page <n>' argument '0' is invalid. expected a positive integer\nhint: see 'collab project list --help'\n"],
    [['project', 'list', '--per-page', '101'], "error: option '--per-page <n>' argument '101' is invalid. the maximum is 100\nhint: see 'collab project list --help'\n"],
    [['project', 'members', 'add', 'alice'], "error: required option '-a, --access-level <level>' not specified\nhint: see 'collab project members add --help'\n"],
    [['project', 'members', 'add', 'alice', '-a', 'admin'], "error: option '-a, --access-level <level>' argument 'admin' is invalid. expected one of guest, reporter, developer, maintainer, owner or 10, 20, 30, 40, 50\nhint: see 'collab project members add --help'\n"],
    [['auth', 'login', '--token', 't', '--with-token'], "error: option '--with-token' cannot be used with option '--token <token>'\nhint: see 'collab auth login --help'\n"],
    [['serve', '--port', '70000'], "error: option '--port <port>' argument '70000' is invalid. expected a port number (0-65535)\nhint: see 'collab serve --help'\n"],
    [['serve', '--trusted-proxy', 'proxy.local'], "error: option '--trusted-proxy <address>' argument 'proxy.local' is invalid. expected an IP address\nhint: see 'collab serve --help'\n"],
    [['completion', 'tcsh'], "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\nhint: see 'collab completion --help'\n"],
    [['nope'], "error: unknown command 'nope'\nhint: see 'collab --help'\n"],
  ])('%j', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })

  it('shows help and exits 2 when a group is named without a verb', async () => {
    const parsed = await parse(['auth'])
    expect(parsed.exitCode).toBe(2)
    expect(parsed.stdout).toBe('')
    expect(parsed.stderr).toBe([
      'Usage: collab auth [options] [command]',
      '',
      'Log in to an instance, check and remove stored tokens',
      '',
      'Options:',
      '  -h, --help                  show help',
      '',
      'Commands:',
      '  login [options]             Check a personal access token with the instance and store it',
      '  status [options]            Check the stored tokens against their instances',
      '  logout [options]            Remove the stored token of an instance',
      '  token [options]             Print the token in use (gh auth token)',
      '  git-credential <operation>  Answer git credential requests with the stored token',
      '  help [command]              show help for a command',
      '',
    ].join('\n'))
  })

  it('exits 0 for --help and documents the exit codes', async () => {
    const parsed = await parse(['--help'])
    expect(parsed.exitCode).toBe(0)
    expect(parsed.stdout).toContain([
      'Exit codes:',
      '  0  success',
      '  1  failure: the server answered with an error or could not be reached',
      '  2  usage: unknown command or flag, missing or invalid argument',
      '  4  authentication needed: no token, or the token was rejected (401)',
    ].join('\n'))
  })
})

describe('issue 14: glab defaults and local checks, argv to options', () => {
  it.each([
    [['issue', 'list'], { state: 'opened', author_username: undefined, assignee_username: undefined, milestone: undefined, assignee_id: undefined }],
    [['issue', 'list', '-c'], { state: 'closed' }],
    [['issue', 'list', '--state', 'open'], { state: 'opened' }],
    [['issue', 'list', '-s', 'all', '--author', '@me', '-a', 'alice', '-m', 'v1.0'], { state: 'all', author_username: '@me', assignee_username: 'alice', milestone: 'v1.0' }],
    [['issue', 'list', '--assignee-id', 'none'], { assignee_id: 'None' }],
    [['mr', 'list', '--author', 'bo', '--assignee', '@me'], { state: 'opened', author_username: 'bo', assignee_username: '@me' }],
  ])('%j', async (argv, query) => {
    expect(((await optionsOf(argv)).options as { query: unknown }).query).toEqual(expect.objectContaining(query))
  })

  it.each([
    [['issue', 'time', 'spend', '3', '-30m', '-p', 'g/p'], { project: 'g/p', iid: 3, duration: '-30m', json: false }],
    [['issue', 'time', 'spend', '3', '-p', 'g/p', '-1h30m', '--json'], { project: 'g/p', iid: 3, duration: '-1h30m', json: true }],
  ])('%j takes a negative duration as the argument', async (argv, options) => {
    expect((await optionsOf(argv)).options).toEqual(options)
  })

  it.each([
    [['issue', 'list', '--assignee-id', 'alice'], "error: option '--assignee-id <id>' argument 'alice' is invalid. expected a user id, None or Any (for a username use --assignee)\nhint: see 'collab issue list --help'\n"],
    [['issue', 'time', 'spend', '3', '30 parsecs'], "error: command-argument value '30 parsecs' is invalid for argument 'duration'. expected a duration such as 3h30m, 1.5h or 1w 2d (mo, w, d, h, m), or -30m to subtract\nhint: see 'collab issue time spend --help'\n"],
  ])('%j is refused before any request', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })

  it('collab help issue list is the help of issue list', async () => {
    const help = await parse(['help', 'issue', 'list'])
    expect([help.exitCode, help.stdout.split('\n')[0]]).toEqual([0, 'Usage: collab issue list|ls [options]'])
  })
})
