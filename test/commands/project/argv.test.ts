// collab project branches, tags, file and clone, argv -> options, and their usage errors (exit 2).
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }

describe('project repository verbs, argv to options', () => {
  it.each([
    [['project', 'branches'], 'project branches list', { project: undefined, search: undefined, ...page, json: false }],
    [['project', 'branch', 'ls', '-p', 'g/p', '--search', '^fe', '--per-page', '3', '--all', '--json'], 'project branches list', { project: 'g/p', search: '^fe', perPage: 3, all: true, json: true }],
    [['project', 'branch', 'create', 'topic/x', '--ref', 'v1'], 'project branches create', { project: undefined, name: 'topic/x', ref: 'v1', json: false }],
    [['project', 'branches', 'create', 'topic', '-p', '3', '--json'], 'project branches create', { project: '3', name: 'topic', ref: undefined, json: true }],
    [['project', 'branches', 'rm', 'topic'], 'project branches delete', { project: undefined, name: 'topic' }],
    [['project', 'tags', '--order-by', 'version', '--sort', 'asc'], 'project tags list', { project: undefined, search: undefined, orderBy: 'version', sort: 'asc', ...page, json: false }],
    [['project', 'tag', 'create', 'v2', '-r', 'main', '-m', 'Release 2'], 'project tags create', { project: undefined, name: 'v2', ref: 'main', message: 'Release 2', json: false }],
    [['project', 'tags', 'delete', 'v2', '-p', 'g/p'], 'project tags delete', { project: 'g/p', name: 'v2' }],
    [['project', 'file', 'get', 'src/a.ts', '--ref', 'v1'], 'project file get', { project: undefined, path: 'src/a.ts', ref: 'v1', json: false }],
    [['project', 'file', 'README.md', '-p', 'g/p'], 'project file get', { project: 'g/p', path: 'README.md', ref: undefined, json: false }],
    [['project', 'files', 'ls', 'src', '-R', '-r', 'main'], 'project file list', { project: undefined, path: 'src', ref: 'main', recursive: true, ...page, json: false }],
    [['project', 'clone', 'g/p'], 'project clone', { project: 'g/p', dir: undefined, branch: undefined, depth: undefined }],
    [['project', 'clone', 'http://h:1/g/p.git', 'work', '-b', 'dev', '--depth', '1'], 'project clone', { project: 'http://h:1/g/p.git', dir: 'work', branch: 'dev', depth: 1 }],
  ])('%j runs %s', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })
})

describe('project repository verbs, usage errors exit 2', () => {
  it.each([
    [['project', 'clone'], "error: missing required argument 'project'\nhint: see 'collab project clone --help'\n"],
    [['project', 'clone', 'g/p', '--depth', '0'], "error: option '--depth <n>' argument '0' is invalid. expected a positive integer\nhint: see 'collab project clone --help'\n"],
    [['project', 'branches', 'create'], "error: missing required argument 'name'\nhint: see 'collab project branches create --help'\n"],
    [['project', 'tags', 'create', 'v1'], "error: required option '-r, --ref <ref>' not specified\nhint: see 'collab project tags create --help'\n"],
    [['project', 'tags', '--sort', 'up'], "error: option '--sort <direction>' argument 'up' is invalid. Allowed choices are asc, desc.\nhint: see 'collab project tags list --help'\n"],
    [['project', 'file', 'get'], "error: missing required argument 'path'\nhint: see 'collab project file get --help'\n"],
  ])('%j', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })
})
