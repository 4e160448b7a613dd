// collab job …, argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }
const list = { project: undefined, pipeline: undefined, latest: undefined, scope: [], includeRetried: false, ...page, json: false }
const lookup = { project: undefined, pipeline: undefined, ref: undefined }
const download = { ...lookup, job: undefined, name: undefined, path: undefined, output: undefined, zip: false }

describe('job argv to options', () => {
  it.each([
    [['job', 'list'], 'job list', list],
    [['job', 'ls', '--pipeline', '4', '-s', 'failed', '--scope', 'success', '--include-retried', '--per-page', '2', '--all', '--json', '-p', 'g/p'], 'job list', {
      ...list, project: 'g/p', pipeline: '4', scope: ['failed', 'success'], includeRetried: true, perPage: 2, all: true, json: true,
    }],
    [['job', 'list', '--latest'], 'job list', { ...list, latest: true }],
    [['job', 'list', '-l', 'main'], 'job list', { ...list, latest: 'main' }],
    [['job', 'view', '41'], 'job view', { ...lookup, job: '41', web: false, json: false }],
    [['job', 'show', 'build', '--pipeline', '3', '-r', 'dev', '--web', '--json'], 'job view', { ...lookup, job: 'build', pipeline: '3', ref: 'dev', web: true, json: true }],
    [['job', 'trace', 'test'], 'job trace', { ...lookup, job: 'test', follow: false, interval: 1 }],
    [['job', 'log', '41', '-f', '--interval', '0.2'], 'job trace', { ...lookup, job: '41', follow: true, interval: 0.2 }],
    [['job', 'retry', '41'], 'job retry', { ...lookup, job: '41', variables: [], json: false }],
    [['job', 'cancel', 'deploy', '-r', 'main'], 'job cancel', { ...lookup, job: 'deploy', ref: 'main', variables: [], json: false }],
    [['job', 'play', 'deploy', '--variable', 'TARGET=prod', '--json'], 'job play', { ...lookup, job: 'deploy', variables: [{ key: 'TARGET', value: 'prod' }], json: true }],
    [['job', 'erase', '41'], 'job erase', { ...lookup, job: '41', variables: [], json: false }],
    [['job', 'keep', '41'], 'job keep', { ...lookup, job: '41', variables: [], json: false }],
    [['job', 'artifacts', 'download', '41'], 'job artifacts download', { ...download, job: '41' }],
    [['job', 'artifact', 'download', '--job', 'build', '--ref', 'main', '--path', 'dist/app.js', '-o', '-'], 'job artifacts download', {
      ...download, name: 'build', ref: 'main', path: 'dist/app.js', output: '-',
    }],
    [['job', 'artifacts', 'download', 'build', '--pipeline', '9', '--zip', '--output', 'a.zip'], 'job artifacts download', {
      ...download, job: 'build', pipeline: '9', zip: true, output: 'a.zip',
    }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it.each([
    [['job', 'view'], "error: missing required argument 'job'"],
    [['job', 'list', '--scope', 'done'], "error: option '-s, --scope <status>' argument 'done' is invalid. Allowed choices are created, pending, running, failed, success, canceled, skipped, waiting_for_resource, manual."],
    [['job', 'trace', '1', '--interval', 'x'], "error: option '--interval <seconds>' argument 'x' is invalid. expected a number of seconds (at least 0.05)"],
    [['job', 'play', '1', '--variable', 'X'], "error: option '--variable <KEY=VALUE>' argument 'X' is invalid. expected KEY=VALUE"],
  ])('%j is a usage error', async (argv, message) => {
    const parsed = await parse(argv)
    expect([parsed.exitCode, parsed.invoked, parsed.stderr.split('\n')[0]]).toEqual([2, [], message])
  })

  it('documents the exit codes of trace in its help', async () => {
    expect((await parse(['job', 'trace', '--help'])).stdout).toContain('Exit codes:\n  0  the job succeeded')
  })
})
