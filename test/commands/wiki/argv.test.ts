// collab wiki …, argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const content = { title: undefined, content: undefined, contentFile: undefined, format: undefined, json: false }

describe('wiki argv to options', () => {
  it.each([
    [['wiki', 'list'], 'wiki list', { project: undefined, withContent: false, json: false }],
    [['wiki', 'ls', '--with-content', '--json', '-p', 'g/p'], 'wiki list', { project: 'g/p', withContent: true, json: true }],
    [['wiki', 'view', 'guides/Install'], 'wiki view', { project: undefined, slug: 'guides/Install', version: undefined, web: false, json: false }],
    [['wiki', 'show', 'Home', '--version', 'abc123', '--json', '-w'], 'wiki view', { project: undefined, slug: 'Home', version: 'abc123', web: true, json: true }],
    [['wiki', 'create', '-t', 'Home', '-F', '-', '--format', 'rdoc'], 'wiki create', { ...content, project: undefined, title: 'Home', contentFile: '-', format: 'rdoc' }],
    [['wiki', 'new', '--title', 'a/b', '-c', 'text', '--json'], 'wiki create', { ...content, project: undefined, title: 'a/b', content: 'text', json: true }],
    [['wiki', 'edit', 'Home', '--title', 'Start', '--content-file', 'x.md'], 'wiki edit', { ...content, project: undefined, slug: 'Home', title: 'Start', contentFile: 'x.md' }],
    [['wiki', 'delete', 'Home', '-y'], 'wiki delete', { project: undefined, slug: 'Home', yes: true }],
    [['wiki', 'upload', 'a.png', '-b', 'drafts', '--json'], 'wiki upload', { project: undefined, file: 'a.png', branch: 'drafts', json: true }],
    [['wiki', 'clone'], 'wiki clone', { project: undefined, dir: undefined }],
    [['wiki', 'clone', 'g/p', 'here'], 'wiki clone', { project: 'g/p', dir: 'here' }],
    [['wiki', 'clone', '-p', 'g/q'], 'wiki clone', { project: 'g/q', dir: undefined }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })

  it.each([
    [['wiki', 'view'], "error: missing required argument 'slug'"],
    [['wiki', 'upload'], "error: missing required argument 'file'"],
    [['wiki', 'create', '--format', 'html'], "error: option '-f, --format <format>' argument 'html' is invalid. Allowed choices are markdown, rdoc, asciidoc, org."],
  ])('%j is a usage error', async (argv, message) => {
    const res = await parse(argv)
    expect([res.exitCode, res.invoked]).toEqual([2, []])
    expect(res.stderr.split('\n')[0]).toBe(message)
  })
})
