// collab commit …, argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }

describe('commit argv to options', () => {
  it.each([
    [['commit', 'list'], 'commit list', {
      project: undefined, ref: undefined, since: undefined, until: undefined, path: undefined, author: undefined,
      allRefs: false, firstParent: false, order: undefined, withStats: false, ...page, json: false,
    }],
    [['commit', 'ls', '-p', 'g/p', '--ref', 'feature/x', '--since', '2024-01-01', '--until', '2024-02-01T00:00:00Z', '--path', 'src/a b.ts',
      '--author', 'tess', '--all-refs', '--first-parent', '--order', 'topo', '--with-stats', '--per-page', '5', '--all', '--json'], 'commit list', {
      project: 'g/p', ref: 'feature/x', since: '2024-01-01', until: '2024-02-01T00:00:00Z', path: 'src/a b.ts', author: 'tess',
      allRefs: true, firstParent: true, order: 'topo', withStats: true, perPage: 5, all: true, json: true,
    }],
    [['commit', 'view', 'abc1234', '-p', '7'], 'commit view', { project: '7', sha: 'abc1234', json: false }],
    [['commit', 'show', 'main', '--json'], 'commit view', { project: undefined, sha: 'main', json: true }],
    [['commit', 'create', '-b', 'main', '-m', 'Edit', '--create', 'a.txt=local/a', '--delete', 'old.txt', '--update', 'b.txt',
      '--move', 'c.txt:d/c.txt', '--create', 'e.bin=e.bin', '--chmod', 'run.sh=+x', '--chmod', 'x=y=-x'], 'commit create', {
      project: undefined, branch: 'main', message: 'Edit', startBranch: undefined, startSha: undefined,
      actions: [
        { action: 'create', file_path: 'a.txt', source: 'local/a' },
        { action: 'delete', file_path: 'old.txt' },
        { action: 'update', file_path: 'b.txt', source: 'b.txt' },
        { action: 'move', previous_path: 'c.txt', file_path: 'd/c.txt' },
        { action: 'create', file_path: 'e.bin', source: 'e.bin' },
        { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
        { action: 'chmod', file_path: 'x=y', execute_filemode: false },
      ],
      actionsFile: undefined, authorName: undefined, authorEmail: undefined, json: false,
    }],
    [['commit', 'create', '--branch', 'topic', '--start-branch', 'main', '--actions-file', '-', '--author-name', 'Ann', '--author-email', 'ann@example.com', '--json'], 'commit create', {
      project: undefined, branch: 'topic', message: undefined, startBranch: 'main', startSha: undefined, actions: [],
      actionsFile: '-', authorName: 'Ann', authorEmail: 'ann@example.com', json: true,
    }],
    [['commit', 'diff', 'HEAD~1'], 'commit diff', { project: undefined, sha: 'HEAD~1', json: false }],
    [['commit', 'cherry-pick', 'abc', '--branch', 'stable', '--dry-run'], 'commit cherry-pick', { project: undefined, sha: 'abc', branch: 'stable', message: undefined, dryRun: true, json: false }],
    [['commit', 'cherry-pick', 'abc', '-b', 'stable', '-m', 'Backport'], 'commit cherry-pick', { project: undefined, sha: 'abc', branch: 'stable', message: 'Backport', dryRun: false, json: false }],
    [['commit', 'refs', 'abc', '--type', 'tag', '--all'], 'commit refs', { project: undefined, sha: 'abc', type: 'tag', perPage: undefined, all: true, json: false }],
    [['commit', 'comment', 'abc', '-m', 'Nice', '--path', 'a.txt', '--line', '3', '--line-type', 'old'], 'commit comment', {
      project: undefined, sha: 'abc', message: 'Nice', messageFile: undefined, path: 'a.txt', line: 3, lineType: 'old', json: false,
    }],
    [['commit', 'comments', 'abc', '--per-page', '2'], 'commit comments', { project: undefined, sha: 'abc', perPage: 2, all: false, json: false }],
    [['commit', 'status', 'set', 'abc', '--state', 'success', '--name', 'build', '--ref', 'main', '--target-url', 'http://ci/1',
      '--description', 'Built', '--coverage', '87.5', '--pipeline-id', '3'], 'commit status set', {
      project: undefined, sha: 'abc', state: 'success', name: 'build', context: undefined, ref: 'main', targetUrl: 'http://ci/1',
      description: 'Built', coverage: 87.5, pipelineId: 3, json: false,
    }],
    [['commit', 'status', 'set', '-s', 'failed', '--context', 'lint'], 'commit status set', {
      project: undefined, sha: undefined, state: 'failed', name: undefined, context: 'lint', ref: undefined, targetUrl: undefined,
      description: undefined, coverage: undefined, pipelineId: undefined, json: false,
    }],
    [['commit', 'status', 'abc'], 'commit status list', {
      project: undefined, sha: 'abc', ref: undefined, name: undefined, stage: undefined, allStatuses: false, ...page, json: false,
    }],
    [['commit', 'statuses', 'list', 'abc', '--ref', 'main', '-n', 'build', '--stage', 'test', '--all-statuses', '--all', '--json'], 'commit status list', {
      project: undefined, sha: 'abc', ref: 'main', name: 'build', stage: 'test', allStatuses: true, perPage: undefined, all: true, json: true,
    }],
  ])('%j runs %s', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })
})

describe('commit usage errors exit 2 before anything runs', () => {
  const hint = (verb: string) => `hint: see 'collab commit ${verb} --help'\n`
  it.each([
    [['commit', 'status', 'set', 'abc', '--state', 'bogus'], `error: option '-s, --state <state>' argument 'bogus' is invalid. Allowed choices are pending, running, success, failed, canceled.\n${hint('status set')}`],
    [['commit', 'status', 'set', 'abc', '--name', 'build'], `error: required option '-s, --state <state>' not specified\n${hint('status set')}`],
    [['commit', 'status', 'set', 'abc', '-s', 'success', '--name', 'a', '--context', 'b'], `error: option '-n, --name <name>' cannot be used with option '--context <name>'\n${hint('status set')}`],
    [['commit', 'status', 'set', 'abc', '-s', 'success', '--coverage', 'most'], `error: option '--coverage <percent>' argument 'most' is invalid. expected a number such as 87.5\n${hint('status set')}`],
    [['commit', 'list', '--since', 'yesterday'], `error: option '--since <date>' argument 'yesterday' is invalid. expected an ISO 8601 date or time such as 2024-01-02 or 2024-01-02T03:04:05Z\n${hint('list')}`],
    [['commit', 'list', '--order', 'date'], `error: option '--order <order>' argument 'date' is invalid. Allowed choices are default, topo.\n${hint('list')}`],
    [['commit', 'view'], `error: missing required argument 'sha'\n${hint('view')}`],
    [['commit', 'create', '-m', 'x', '--delete', 'a'], `error: required option '-b, --branch <branch>' not specified\n${hint('create')}`],
    [['commit', 'create', '-b', 'main', '--move', 'a.txt'], `error: option '--move <old:new>' argument 'a.txt' is invalid. expected old:new\n${hint('create')}`],
    [['commit', 'create', '-b', 'main', '--chmod', 'run.sh'], `error: option '--chmod <path=+x|-x>' argument 'run.sh' is invalid. expected path=+x or path=-x\n${hint('create')}`],
    [['commit', 'create', '-b', 'main', '--create', '=a'], `error: option '--create <path=file>' argument '=a' is invalid. expected path=localfile\n${hint('create')}`],
    [['commit', 'cherry-pick', 'abc'], `error: required option '-b, --branch <branch>' not specified\n${hint('cherry-pick')}`],
    [['commit', 'refs', 'abc', '--type', 'note'], `error: option '--type <type>' argument 'note' is invalid. Allowed choices are branch, tag, all.\n${hint('refs')}`],
    [['commit', 'comment', 'abc', '--line', '0'], `error: option '--line <n>' argument '0' is invalid. expected a positive integer\n${hint('comment')}`],
    [['commit', 'comment', 'abc', '--line-type', 'both'], `error: option '--line-type <type>' argument 'both' is invalid. Allowed choices are new, old.\n${hint('comment')}`],
    [['commit', 'lg'], "error: unknown command 'lg'\n(Did you mean ls?)\nhint: see 'collab commit --help'\n"],
  ])('%j', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })
})
