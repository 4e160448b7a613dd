// collab project mirror: argv -> options, and its usage errors (exit 2).
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }

describe('project mirror, argv to options', () => {
  it.each([
    [['project', 'mirror'], 'project mirror list', { project: undefined, ...page, json: false }],
    [['project', 'mirrors', 'ls', '-p', 'g/p', '--all', '--json'], 'project mirror list', { project: 'g/p', perPage: undefined, all: true, json: true }],
    [['project', 'mirror', 'create', 'https://u:t@h/g/p.git'], 'project mirror create',
      { project: undefined, url: 'https://u:t@h/g/p.git', enabled: true, protectedOnly: false, keepDivergentRefs: false, branchRegex: undefined, json: false }],
    [['project', 'mirror', 'create', 'https://h/p.git', '--disabled', '--protected-only', '--keep-divergent-refs', '--json'], 'project mirror create',
      { project: undefined, url: 'https://h/p.git', enabled: false, protectedOnly: true, keepDivergentRefs: true, branchRegex: undefined, json: true }],
    [['project', 'mirror', 'create', 'https://h/p.git', '--branch-regex', '^rel'], 'project mirror create',
      { project: undefined, url: 'https://h/p.git', enabled: true, protectedOnly: false, keepDivergentRefs: false, branchRegex: '^rel', json: false }],
    [['project', 'mirror', 'sync', '3', '-p', '7'], 'project mirror sync', { project: '7', id: 3 }],
    [['project', 'mirror', 'rm', '3'], 'project mirror delete', { project: undefined, id: 3 }],
  ])('%j runs %s', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it.each([
    [['project', 'mirror', 'create'], "error: missing required argument 'url'\nhint: see 'collab project mirror create --help'\n"],
    [['project', 'mirror', 'sync', 'x'], "error: command-argument value 'x' is invalid for argument 'id'. expected a positive integer\nhint: see 'collab project mirror sync --help'\n"],
  ])('%j is a usage error', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })
})
