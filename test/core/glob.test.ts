// core/glob: fnmatch as GitLab's CI calls it (File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB). The simple
// wildcard of protected refs (core/wildcard) is tested in protected-branches/matching.
import { describe, expect, it } from 'vitest'
import { fnmatchPattern } from '../../src/core/glob.js'

const matches = (glob: string, path: string) => fnmatchPattern(glob)?.test(path) ?? null

describe('fnmatchPattern', () => {
  it.each([
    ['*.md', 'README.md', true],
    ['*.md', 'docs/README.md', false], // `*` stays within one directory
    ['*', '.gitlab-ci.yml', true], // FNM_DOTMATCH
    ['docs/**/*.md', 'docs/a.md', true], // `**/` is zero or more directories
    ['docs/**/*.md', 'docs/x/y/a.md', true],
    ['docs/**/*.md', 'docsx/a.md', false],
    ['**/*.dockerfile', 'a/b/c.dockerfile', true],
    ['**/*.dockerfile', 'c.dockerfile', true],
    ['docs/**', 'docs/a', true], // `**` not followed by `/` is `*`
    ['docs/**', 'docs/a/b', false],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['src/?', 'src//', false],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['[^abc].txt', 'd.txt', true],
    ['[a-c].txt', 'c.txt', true],
    ['a[/]b', 'a/b', false], // under FNM_PATHNAME no class matches `/`
    ['[unclosed', '[unclosed', true],
    ['*.{js,ts}', 'index.ts', true],
    ['*.{js,ts}', 'index.rb', false],
    ['{src,lib/{a,b}}/*.c', 'lib/b/x.c', true],
    ['{src,lib/{a,b}}/*.c', 'lib/c/x.c', false],
    ['{open', '{open', true],
    ['a+b(c)', 'a+b(c)', true],
    ['a.b', 'axb', false],
    ['\\*.md', '*.md', true],
    ['\\*.md', 'a.md', false],
  ])('%s against %s: %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected)
  })

  it('matches in time linear in the path, where a backtracking engine would run for ever', () => {
    const glob = `${'**/'.repeat(7)}${'*a'.repeat(8)}*b`
    expect(matches(glob, `${'a'.repeat(5000)}/x`)).toBe(false)
    expect(matches(glob, `${'a/'.repeat(7)}${'a'.repeat(60)}b`)).toBe(true)
  })
})
