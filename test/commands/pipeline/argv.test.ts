// collab pipeline … (and its alias collab ci), argv -> options: what each command line hands to run(), and the usage
// errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }
const noQuery = {
  status: undefined, scope: undefined, ref: undefined, sha: undefined, source: undefined, username: undefined, yaml_errors: undefined,
  updated_after: undefined, updated_before: undefined, order_by: undefined, sort: undefined,
}
const view = { project: undefined, pipeline: undefined, ref: undefined, watch: false, interval: 3, web: false, json: false }
const action = { project: undefined, pipeline: undefined, ref: undefined, yes: false, json: false }

describe('pipeline argv to options', () => {
  it.each([
    [['pipeline', 'list'], 'pipeline list', { project: undefined, query: noQuery, ...page, json: false }],
    [['ci', 'ls', '-p', 'g/p', '-s', 'failed', '--scope', 'finished', '-r', 'main', '--sha', 'abc', '--source', 'push', '--username', 'ann',
      '--yaml-errors', '--updated-after', '2024-01-01', '--updated-before', '2024-02-01', '--order-by', 'updated_at', '--sort', 'asc',
      '--per-page', '5', '--all', '--json'], 'ci list', {
      project: 'g/p', query: {
        status: 'failed', scope: 'finished', ref: 'main', sha: 'abc', source: 'push', username: 'ann', yaml_errors: true,
        updated_after: '2024-01-01', updated_before: '2024-02-01', order_by: 'updated_at', sort: 'asc',
      }, perPage: 5, all: true, json: true,
    }],
    [['pipeline', 'view'], 'pipeline view', view],
    [['ci', 'show', '#12', '--watch', '--interval', '0.5', '--json'], 'ci view', { ...view, pipeline: '#12', watch: true, interval: 0.5, json: true }],
    [['pipeline', 'view', '-r', 'feature/x', '--web', '-p', '3'], 'pipeline view', { ...view, project: '3', ref: 'feature/x', web: true }],
    [['pipeline', 'run'], 'pipeline run', { project: undefined, ref: undefined, variables: [], watch: false, interval: 3, json: false }],
    [['ci', 'run', '-r', 'main', '--variable', 'A=1', '--variable', 'B=x=y', '--variable', 'EMPTY=', '--variable-file', 'CFG=a: 1', '-w', '--json'], 'ci run', {
      project: undefined, ref: 'main', watch: true, interval: 3, json: true, variables: [
        { key: 'A', value: '1', variable_type: 'env_var' }, { key: 'B', value: 'x=y', variable_type: 'env_var' },
        { key: 'EMPTY', value: '', variable_type: 'env_var' }, { key: 'CFG', value: 'a: 1', variable_type: 'file' },
      ],
    }],
    [['pipeline', 'retry', '7'], 'pipeline retry', { ...action, pipeline: '7' }],
    [['pipeline', 'cancel', '-r', 'main', '--json'], 'pipeline cancel', { ...action, ref: 'main', json: true }],
    [['ci', 'delete', '7', '-y'], 'ci delete', { ...action, pipeline: '7', yes: true }],
    [['pipeline', 'lint'], 'pipeline lint', { project: undefined, file: '.gitlab-ci.yml', dryRun: false, ref: undefined, json: false }],
    [['ci', 'lint', '-', '--dry-run', '-r', 'dev', '--json'], 'ci lint', { project: undefined, file: '-', dryRun: true, ref: 'dev', json: true }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it.each([
    [['pipeline', 'run', '--variable', 'NOEQUALS'], "error: option '--variable <KEY=VALUE>' argument 'NOEQUALS' is invalid. expected KEY=VALUE"],
    [['pipeline', 'run', '--variable', '=v'], "error: option '--variable <KEY=VALUE>' argument '=v' is invalid. expected KEY=VALUE"],
    [['pipeline', 'view', '--interval', '0'], "error: option '--interval <seconds>' argument '0' is invalid. expected a number of seconds (at least 0.05)"],
    [['pipeline', 'list', '--status', 'done'], "error: option '-s, --status <status>' argument 'done' is invalid. Allowed choices are created, waiting_for_resource, preparing, pending, running, success, failed, canceled, skipped, manual, scheduled."],
    [['pipeline', 'retry', '1', '2'], "error: too many arguments for 'retry'. Expected 1 argument but got 2."],
  ])('%j is a usage error', async (argv, message) => {
    const parsed = await parse(argv)
    expect([parsed.exitCode, parsed.invoked, parsed.stderr.split('\n')[0]]).toEqual([2, [], message])
  })

  it('documents the exit codes of view, run and lint in their help', async () => {
    const view = await parse(['pipeline', 'view', '--help'])
    expect(view.stdout).toContain('Exit codes:\n  0  the pipeline succeeded, or has not failed (running, manual, skipped)\n  1  the pipeline failed or was canceled')
    expect((await parse(['ci', 'lint', '--help'])).stdout).toContain('Exit codes:\n  0  the configuration is valid\n  1  it is not (each error is printed), or the request failed')
  })
})
