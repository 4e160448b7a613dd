// Rule names against branch names: exact, `*` across `/`, anchored, case-sensitive, other characters literal, no blow-up.
import { describe, expect, it } from 'vitest'
import { wildcardMatch } from '../../../src/core/wildcard.js'

describe('wildcardMatch', () => {
  it.each([
    ['master', 'master', true],
    ['master', 'master2', false],
    ['master', 'my-master', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', true],
    ['release/*', 'release/', true],
    ['release/*', 'releases/1', false],
    ['*-stable', '12-3-stable', true],
    ['*-stable', '12-3-stable-x', false],
    ['hot*fix', 'hotfix', true],
    ['hot*fix', 'hot-big-fix', true],
    ['hot*fix', 'Hotfix', false],
    ['v1.0', 'v1x0', false],
    ['a+b', 'aab', false],
    ['a+b', 'a+b', true],
    ['[abc]', 'a', false],
    ['*', 'anything/at/all', true],
    ['**', '', true],
  ])('%s against %s: %s', (rule, branch, expected) => {
    expect(wildcardMatch(rule, branch)).toBe(expected)
  })

  // A backtracking matcher would take longer than the universe has for these; a linear one answers at once.
  it('answers a rule of many `*` against a long name that almost matches', () => {
    expect(wildcardMatch('*a'.repeat(60) + '*b', 'a'.repeat(1000))).toBe(false)
    expect(wildcardMatch('*a'.repeat(60) + '*b', 'a'.repeat(1000) + 'b')).toBe(true)
  })
})
