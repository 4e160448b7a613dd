// GitLab's wiki naming rules as pure functions: slugs from titles, titles and formats from paths, upload names and links.
import { describe, expect, it } from 'vitest'
import { attachmentName, markdownLink, pageOfPath, retitledSlug, slugOfTitle } from '../../../src/server/git/wiki-paths.js'

describe('slugOfTitle', () => {
  it.each([
    ['Getting started', 'Getting-started'],
    ['  trimmed  ', 'trimmed'],
    ['a+b <c>', 'a-b--c-'],
    ['Dir/Sub Page', 'Dir/Sub-Page'],
    ['/leading/slash', 'leading/slash'],
    ['a/./b/../c', 'a/c'],
    ['../../escape', 'escape'],
    ['tab\there', 'tab-here'],
  ])('%j -> %j', (title, slug) => expect(slugOfTitle(title)).toBe(slug))

  it.each(['', '   ', '..', '/', 'a/.git/b', '.hidden', 'nul\u0000byte', 'back\\slash', 'a//'.repeat(1) + '.x'])('%j is refused', (title) => {
    expect(slugOfTitle(title)).toBeNull()
  })
})

describe('retitledSlug', () => {
  it('keeps the directory for a plain title and takes a path with / from the root', () => {
    expect(retitledSlug('guides/Install', 'Setup Guide')).toBe('guides/Setup-Guide')
    expect(retitledSlug('guides/Install', '/Setup')).toBe('Setup')
    expect(retitledSlug('guides/Install', 'other/Setup')).toBe('other/Setup')
    expect(retitledSlug('Install', 'Setup')).toBe('Setup')
  })
})

describe('pageOfPath', () => {
  it.each([
    ['Home.md', { path: 'Home.md', slug: 'Home', format: 'markdown', title: 'Home' }],
    ['dir/my--page.markdown', { path: 'dir/my--page.markdown', slug: 'dir/my--page', format: 'markdown', title: 'my page' }],
    ['notes.adoc', { path: 'notes.adoc', slug: 'notes', format: 'asciidoc', title: 'notes' }],
    ['todo.ORG', { path: 'todo.ORG', slug: 'todo', format: 'org', title: 'todo' }],
    ['old.textile', { path: 'old.textile', slug: 'old', format: 'textile', title: 'old' }],
  ])('%j', (path, page) => expect(pageOfPath(path)).toEqual(page))

  it.each(['logo.png', 'README', '.md', 'dir/.md', 'uploads/abc/file.zip'])('%j is no page', (path) => expect(pageOfPath(path)).toBeNull())
})

describe('attachments', () => {
  it('keeps the last part of a name, drops control characters and cuts long names keeping the extension', () => {
    expect(attachmentName('C:\\Users\\me\\shot.png')).toBe('shot.png')
    expect(attachmentName('../../etc/passwd')).toBe('passwd')
    expect(attachmentName('bad\u0000na\nme.txt')).toBe('badname.txt')
    expect(attachmentName(`${'é'.repeat(200)}.txt`)).toBe(`${'é'.repeat(125)}.txt`)
    for (const empty of ['', '..', '.', 'dir/', '.git']) expect(attachmentName(empty)).toBeNull()
  })

  it('links images and videos with ! and the name without extension, other files by their whole name', () => {
    expect(markdownLink('diagram.PNG', 'uploads/x/diagram.PNG')).toBe('![diagram](uploads/x/diagram.PNG)')
    expect(markdownLink('demo.mp4', 'uploads/x/demo.mp4')).toBe('![demo](uploads/x/demo.mp4)')
    expect(markdownLink('report.pdf', 'uploads/x/report.pdf')).toBe('[report.pdf](uploads/x/report.pdf)')
  })
})
