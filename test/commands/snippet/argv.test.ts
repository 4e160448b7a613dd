// collab snippet …, argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const scope = { project: undefined, personal: false }
const create = { ...scope, files: [], title: undefined, description: undefined, visibility: undefined, filename: undefined, json: false }
const edit = { ...scope, id: 4, title: undefined, description: undefined, visibility: undefined, filename: undefined, contentFile: undefined, json: false }

describe('snippet argv to options', () => {
  it.each([
    [['snippet', 'list'], 'snippet list', { ...scope, public: false, perPage: undefined, all: false, json: false }],
    [['snippet', 'ls', '--personal', '--public', '--per-page', '5', '--all', '--json'], 'snippet list', { ...scope, personal: true, public: true, perPage: 5, all: true, json: true }],
    [['snippet', 'view', '4', '-p', 'g/p', '--file', 'a.rb', '--web'], 'snippet view', { ...scope, project: 'g/p', id: 4, file: 'a.rb', web: true, json: false }],
    [['snippet', 'create', 'a.rb', 'b.txt', '-t', 'T', '-d', 'D', '-v', 'public', '-P'], 'snippet create', {
      ...create, personal: true, files: ['a.rb', 'b.txt'], title: 'T', description: 'D', visibility: 'public',
    }],
    [['snippet', 'new', '-', '--filename', 'x.sh', '--json'], 'snippet create', { ...create, files: ['-'], filename: 'x.sh', json: true }],
    [['snippet', 'edit', '4', '-t', 'New', '-c', '-', '-f', 'n.txt', '-v', 'internal'], 'snippet edit', {
      ...edit, title: 'New', contentFile: '-', filename: 'n.txt', visibility: 'internal',
    }],
    [['snippet', 'delete', '#4', '--yes', '--personal'], 'snippet delete', { ...scope, personal: true, id: 4, yes: true }],
    [['snippet', 'raw', '4', '-f', 'dir/b.txt'], 'snippet raw', { ...scope, id: 4, file: 'dir/b.txt' }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it.each([
    [['snippet', 'view'], "error: missing required argument 'snippet'"],
    [['snippet', 'view', 'abc'], "error: invalid snippet 'abc': expected a numeric id"],
    [['snippet', 'create', '-v', 'secret'], "error: option '-v, --visibility <level>' argument 'secret' is invalid. Allowed choices are private, internal, public."],
  ])('%j is a usage error', async (argv, message) => {
    const parsed = await parse(argv)
    expect([parsed.exitCode, parsed.invoked, parsed.stderr.split('\n')[0]]).toEqual([2, [], message])
  })
})
